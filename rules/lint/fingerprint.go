package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Fingerprint identifies a finding across runs without using line numbers: the rule,
// the resource's identity (kind, namespace, name, variant) and the field path the
// finding points at, so it survives inserted lines, re-indentation and reformatting.
// A list item with a name (a volume, a container, a claim template) is identified by
// its name rather than its index, so adding an unrelated volume in front of it does
// not make an old finding look new.
// Baselines, SARIF partialFingerprints and GitLab Code Quality fingerprints all use it.
// Findings without a resource (parse errors) use the file and the message with
// positions removed. A finding's Key, when set, is part of its identity too.
func Fingerprint(f Finding) string {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	id := ""
	if f.Rule != nil {
		id = f.Rule.ID
	}
	write("pvlint/v1", id, f.Variant)
	if r := f.Resource; r != nil {
		write(r.Kind, r.Namespace, r.Name, strings.Join(stablePath(r.Object, FieldPath(f)), "."))
		if f.Key != "" {
			write(f.Key)
		}
	} else {
		write(f.Range.File, digits.ReplaceAllString(f.Message, "#"))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

var digits = regexp.MustCompile(`\d+`)

// stablePath rewrites the list indexes of path whose item has a name ("volumes.1")
// as that name in brackets ("volumes.[data]"). The result is only hashed.
func stablePath(n *graph.Node, path []string) []string {
	out := make([]string, len(path))
	for i, step := range path {
		out[i] = step
		if n.Is(graph.List) {
			n = n.Get(step)
			name := n.Get("name")
			if !name.IsString() {
				name = n.Get("metadata", "name")
			}
			if name.IsString() {
				out[i] = "[" + name.Scalar + "]"
			}
			continue
		}
		n = n.Get(step)
	}
	return out
}

// FieldPath returns the field path of the node a finding is reported at: f.Path when
// the rule set it, otherwise the path of the node in the resource whose key or value
// range starts where the finding does. It returns nil when the finding is on the
// resource as a whole.
func FieldPath(f Finding) []string {
	if len(f.Path) > 0 {
		return f.Path
	}
	if f.Resource == nil || samePos(f.Range.Start, f.Resource.Range.Start) {
		return nil
	}
	var path []string
	if find(f.Resource.Object, f.Range.Start, &path) {
		return path
	}
	return nil
}

func find(n *graph.Node, at graph.Pos, path *[]string) bool {
	if n == nil {
		return false
	}
	for _, fl := range n.Fields() {
		*path = append(*path, fl.Key)
		// A block map or list value starts where its first entry does; let the
		// deeper entry claim that position.
		scalar := fl.Value != nil && fl.Value.Kind != graph.Map && fl.Value.Kind != graph.List
		if samePos(fl.KeyRange.Start, at) || scalar && samePos(fl.Value.Range.Start, at) {
			return true
		}
		if find(fl.Value, at, path) {
			return true
		}
		*path = (*path)[:len(*path)-1]
	}
	for i, it := range n.Items() {
		*path = append(*path, strconv.Itoa(i))
		if it != nil && samePos(it.Range.Start, at) {
			return true
		}
		if find(it, at, path) {
			return true
		}
		*path = (*path)[:len(*path)-1]
	}
	return false
}

func samePos(a, b graph.Pos) bool { return a.Line == b.Line && a.Column == b.Column && a.Line > 0 }
