package kustomize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Kustomize decides by itself whether a reference names a git repository, which it
// clones by running the git program (git may then run ssh), or an http(s) URL, which
// it downloads. Its loader and cloner are internal to the kustomize module and cannot
// be replaced, so pvlint makes sure kustomize never sees a reference it could take
// for either:
//
//   - kustomize reads no kustomization file as written. The file system it builds from
//     serves, for every kustomization pvlint read and checked, pvlint's own JSON
//     re-emission of it (JSON is YAML), and refuses any other kustomization file.
//   - In that re-emission every path pvlint found is rewritten relative to the
//     kustomization's directory and anchored: "./x" or "../x". Kustomize's repository
//     parser accepts a string only if it starts with a URL scheme (ssh://, https://,
//     http://, file://), with a user name followed by "@" (the user name starts with a
//     letter), or with github.com, and its download path needs an http or https
//     scheme: a string starting with "." or "{" is none of these. References pvlint
//     takes for remote are refused, so the build never runs with them.
//   - Inline generator, transformer and validator configurations are re-emitted as
//     JSON objects ("{...}"), so kustomize cannot mistake one for a path either.
//   - Keys are spelled as kustomize's own types spell them before pvlint reads
//     anything: kustomize matches keys without regard to case (Resources, RESOURCES,
//     fieldpath for fieldPath), so pvlint renames such a key to its canonical name, and
//     a key pvlint did not read as a path cannot reach kustomize as one. Keys that
//     become duplicates are refused (pvlint and kustomize might keep different ones),
//     and so are keys kustomize does not know (it would refuse them too).
//
// What remains in the inline or file plugin configurations (a PatchTransformer's
// path, say) goes through kustomize's file loader: local paths are confined by the
// file system below; URLs meet an HTTP transport that refuses every request
// (noNetwork).

// served returns the text kustomize reads for k: its JSON re-emission with every path
// anchored, plus buildMetadata: [originAnnotations] on the top kustomization, so
// every output object says which file it came from.
func (k *kfile) served(top bool) ([]byte, error) {
	var b bytes.Buffer
	if err := k.emit(&b, k.root, top); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (k *kfile) emit(b *bytes.Buffer, n *graph.Node, top bool) error {
	if n == nil {
		b.WriteString("null")
		return nil
	}
	if s, ok := k.subst[n]; ok {
		return writeJSON(b, s)
	}
	switch n.Kind {
	case graph.Map:
		b.WriteByte('{')
		origins := top && n == k.root
		for i, f := range n.Fields() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, f.Key); err != nil {
				return err
			}
			b.WriteByte(':')
			if origins && f.Key == "buildMetadata" && f.Value.Kind == graph.List {
				if err := k.emitBuildMetadata(b, f.Value); err != nil {
					return err
				}
				origins = false
				continue
			}
			if err := k.emit(b, f.Value, false); err != nil {
				return err
			}
		}
		if origins && n.Field("buildMetadata") == nil {
			if len(n.Fields()) > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"buildMetadata":["` + types.OriginAnnotations + `"]`)
		}
		b.WriteByte('}')
	case graph.List:
		b.WriteByte('[')
		i := 0
		for _, it := range n.Items() {
			if k.drop[it] {
				continue // a remote entry the build goes without (check)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			if err := k.emit(b, it, false); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return writeJSON(b, n.Interface())
	}
	return nil
}

// emitBuildMetadata writes the top kustomization's buildMetadata list with
// originAnnotations added when it is missing.
func (k *kfile) emitBuildMetadata(b *bytes.Buffer, list *graph.Node) error {
	b.WriteByte('[')
	has := false
	for i, it := range list.Items() {
		if i > 0 {
			b.WriteByte(',')
		}
		has = has || it.Str() == types.OriginAnnotations
		if err := k.emit(b, it, false); err != nil {
			return err
		}
	}
	if !has {
		if len(list.Items()) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + types.OriginAnnotations + `"`)
	}
	b.WriteByte(']')
	return nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}

// anchored is the form of a local path kustomize is given: relative to the
// kustomization's directory, starting with "./" or "../".
func anchored(dir, abs string) (string, error) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return "", err
	}
	rel = filepath.ToSlash(rel)
	if rel != ".." && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel, nil
}

// safeForKustomize reports whether kustomize can take s for nothing but a local path
// or an inline configuration: it starts with "." (an anchored path), "/" (absolute,
// which kustomize's repository parser refuses first) or "{" (an inline JSON object).
func safeForKustomize(s string) bool {
	return s != "" && (s[0] == '.' || s[0] == '/' || s[0] == '{')
}

// inlineConfig re-emits an inline plugin configuration (a generators, transformers or
// validators entry written as YAML) as one JSON object.
func (k *kfile) inlineConfig(n *graph.Node, env Env) *graph.Diagnostic {
	docs, diags := manifest.Documents(k.display, []byte(n.Str()), manifest.Options{Limits: env.Limits})
	if len(diags) > 0 || len(docs) != 1 || docs[0].Node.Kind != graph.Map {
		d := diagAt(n.Range, "an inline plugin configuration must be one YAML mapping; this kustomization is not built")
		return &d
	}
	data, err := json.Marshal(docs[0].Node.Interface())
	if err != nil {
		d := diagAt(n.Range, fmt.Sprintf("inline plugin configuration: %v; this kustomization is not built", err))
		return &d
	}
	k.subst[n] = string(data)
	return nil
}

// kustomizationType is the Go type kustomize decodes a kustomization into; its JSON
// field names are the only keys pvlint passes on.
var kustomizationType = reflect.TypeFor[types.Kustomization]()

// checkKeys renames keys kustomize's decoder matches to a field only without regard
// to case to the field's own name, and refuses keys it does not know at all and
// duplicate keys, at every level whose shape kustomize's types fix.
func checkKeys(n *graph.Node, t reflect.Type, out *[]graph.Diagnostic) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n == nil {
		return
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == graph.Map:
		fields := jsonFields(t)
		seen := map[string]bool{}
		for i := range n.Fields() {
			f := &n.Fields()[i]
			ft, ok := fields[f.Key]
			if !ok {
				for name, typ := range fields {
					if strings.EqualFold(name, f.Key) {
						f.Key, ft, ok = name, typ, true
						break
					}
				}
			}
			if !ok {
				*out = append(*out, diagAt(f.KeyRange, fmt.Sprintf("%q is not a kustomization field kustomize knows; this kustomization is not built", f.Key)))
				continue
			}
			if seen[f.Key] {
				*out = append(*out, diagAt(f.KeyRange, fmt.Sprintf("key %q appears twice (kustomize reads keys without regard to case); this kustomization is not built", f.Key)))
				continue
			}
			seen[f.Key] = true
			checkKeys(f.Value, ft, out)
		}
	case t.Kind() == reflect.Map && n.Kind == graph.Map:
		seen := map[string]bool{}
		for _, f := range n.Fields() {
			if seen[f.Key] {
				*out = append(*out, diagAt(f.KeyRange, fmt.Sprintf("key %q appears twice; this kustomization is not built", f.Key)))
			}
			seen[f.Key] = true
			checkKeys(f.Value, t.Elem(), out)
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == graph.List:
		for _, it := range n.Items() {
			checkKeys(it, t.Elem(), out)
		}
	}
}

// jsonFields maps the JSON names of a struct's fields to their types, with the
// fields of embedded structs promoted as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
