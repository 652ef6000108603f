package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/pvlint/pvlint/parsers/graph"
)

// The differential test: pvlint's reading of a stream against kubectl's (the
// value the API server receives: k8s.io/apimachinery's YAMLOrJSONDecoder, which is
// sigs.k8s.io/yaml's YAML 1.1 rules for YAML and encoding/json for a JSON stream)
// and against yaml.v3's, over the YAML test suite (testdata/yaml-test-suite) and over
// Kubernetes-shaped documents (testdata/differential). Every divergence must be in
// the allow-list (differential_allow_test.go) with its reason; an allow-listed case
// that no longer diverges fails too, so the list stays true. docs/yaml.md.

var genSuite = flag.String("gen-yaml-test-suite", "", "regenerate testdata/yaml-test-suite/cases.json from the src directory of a yaml/yaml-test-suite checkout")

// reading is one reader's view of a stream: the values of its documents (empty
// documents dropped), and whether it stopped at an error.
type reading struct {
	docs []any
	err  string // "" when the whole stream was read
	dups bool   // pvlint: a duplicate key was reported (the document is still read)
}

// pvlintReading reads a stream as Parse does, whatever the documents' shape: the
// fast path where it applies, otherwise yaml.v3 and the converter. Unlike kubectl,
// pvlint reads on after a broken document; the reading stops at the first error here
// so that the two compare.
func pvlintReading(data []byte) reading {
	var out reading
	rs, ds := readAll("t.yaml", data)
	for i, n := range rs {
		if ds[i] != nil {
			for _, d := range ds[i] {
				if strings.HasPrefix(d.Message, "duplicate key") {
					out.dups = true
					continue
				}
				out.err = d.Message
			}
			if out.err != "" {
				return out
			}
		}
		if v := normal(n.Interface()); v != nil {
			out.docs = append(out.docs, v)
		}
	}
	return out
}

// readAll reads every document of data (nil node for a document with an error) with
// the diagnostics of each.
func readAll(file string, data []byte) ([]*graph.Node, [][]graph.Diagnostic) {
	var nodes []*graph.Node
	var diags [][]graph.Diagnostic
	if !bytes.Equal(data, bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) {
		data = data[3:]
	}
	data = lineBreaks(data)
	lines := graph.NewLines(data)
	f := &fileState{file: file, data: data, text: string(data), lines: lines, mem: &slab{}}
	for _, d := range splitDocuments(data) {
		if d.directive {
			nodes = append(nodes, nil)
			diags = append(diags, []graph.Diagnostic{directiveDiagnostic(file, data, lines, d, "")})
			continue
		}
		c := converter{file: file, src: data, lines: lines, lineOff: d.line - 1, colOff: d.col, last: lastPos{d.line, d.col + 1, d.start}, seed: lastPos{d.line, d.col + 1, d.start}, limits: DefaultLimits, json: d.json}
		if root, ok := fastDocument(&c, f.text, f.mem, d, false); ok {
			nodes, diags = append(nodes, root), append(diags, nil)
			continue
		}
		top, err := yamlDocument(data, d)
		if err != nil {
			nodes = append(nodes, nil)
			diags = append(diags, []graph.Diagnostic{*yamlError(file, data, lines, d, err, "")})
			continue
		}
		if top == nil {
			nodes, diags = append(nodes, nil), append(diags, nil)
			continue
		}
		n, err := c.convert(top, 0)
		if err != nil {
			nodes = append(nodes, nil)
			diags = append(diags, []graph.Diagnostic{c.failure(d, err, "")})
			continue
		}
		nodes, diags = append(nodes, n), append(diags, c.diags)
	}
	return nodes, diags
}

// kubectlReading reads a stream as kubectl does.
func kubectlReading(data []byte) (out reading) {
	defer func() {
		if r := recover(); r != nil {
			out.err = fmt.Sprint("panic: ", r)
		}
	}()
	dec := kyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.err = err.Error()
			return out
		}
		if v = normal(v); v != nil {
			out.docs = append(out.docs, v)
		}
	}
}

// yamlV3Reading reads a stream with yaml.v3 into plain values.
func yamlV3Reading(data []byte) (out reading) {
	defer func() {
		if r := recover(); r != nil {
			out.err = fmt.Sprint("panic: ", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.err = err.Error()
			return out
		}
		if v = normal(v); v != nil {
			out.docs = append(out.docs, v)
		}
	}
}

// normal makes values comparable across readers: numbers are float64 (as JSON
// decodes them), map keys are strings, timestamps their text.
func normal(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = normal(x)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[fmt.Sprintf("%v", normal(k))] = normal(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = normal(x)
		}
		return l
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	case float64:
		if math.IsNaN(v) {
			return "NaN"
		}
		return v
	case time.Time:
		return "timestamp " + v.Format(time.RFC3339Nano)
	}
	return v
}

// diverge describes how two readings differ, or "" when they agree.
func diverge(a, b reading) string {
	if a.err != "" && b.err != "" {
		return "" // both reject the stream
	}
	if (a.err == "") != (b.err == "") {
		if a.err != "" {
			return "pvlint rejects (" + a.err + "), the other reads"
		}
		return "pvlint reads, the other rejects (" + b.err + ")"
	}
	if !reflect.DeepEqual(a.docs, b.docs) {
		return fmt.Sprintf("values differ:\npvlint: %s\nother:  %s", show(a.docs), show(b.docs))
	}
	return ""
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// suiteCase is one case of the YAML test suite.
type suiteCase struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	YAML string `json:"yaml"`
	Fail bool   `json:"fail,omitempty"`
}

const suiteFile = "testdata/yaml-test-suite/cases.json"

func loadSuite(t testing.TB) []suiteCase {
	data, err := os.ReadFile(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	var cs []suiteCase
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// kubeCase is one Kubernetes-shaped stream of testdata/differential.
type kubeCase struct {
	ID   string
	YAML string
}

func loadKube(t testing.TB) []kubeCase {
	files, err := filepath.Glob("testdata/differential/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/differential files (%v)", err)
	}
	var cs []kubeCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, kubeCase{ID: filepath.Base(f), YAML: string(data)})
	}
	return cs
}

// TestDifferential compares pvlint's reading of every case with kubectl's and with
// yaml.v3's and fails on every divergence the allow-list does not give a reason for.
func TestDifferential(t *testing.T) {
	type input struct{ id, yaml string }
	var inputs []input
	for _, c := range loadSuite(t) {
		inputs = append(inputs, input{"yts:" + c.ID, c.YAML})
	}
	for _, c := range loadKube(t) {
		inputs = append(inputs, input{"k8s:" + c.ID, c.YAML})
	}
	used := map[string]bool{}
	for _, in := range inputs {
		p := pvlintReading([]byte(in.yaml))
		for _, other := range []struct {
			name string
			read func([]byte) reading
		}{{"kubectl", kubectlReading}, {"yaml.v3", yamlV3Reading}} {
			key := in.id + " " + other.name
			d := diverge(p, other.read([]byte(in.yaml)))
			reason, allowed := allowDivergence[key]
			used[key] = true
			switch {
			case d != "" && !allowed:
				t.Errorf("%s: %s\ninput:\n%s", key, d, in.yaml)
			case d == "" && allowed:
				t.Errorf("%s: allow-listed (%s) but pvlint now reads it as %s does: remove the entry", key, reason, other.name)
			}
		}
	}
	var stale []string
	for k := range allowDivergence {
		if !used[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("allow-list entry %q names no case", k)
	}
}

// TestGenerateYAMLTestSuite writes testdata/yaml-test-suite/cases.json from a
// checkout's src directory (go test -run TestGenerateYAMLTestSuite
// -gen-yaml-test-suite DIR/src): every case and variant, with the suite's visible
// markers for spaces, tabs and line ends turned back into the characters.
func TestGenerateYAMLTestSuite(t *testing.T) {
	if *genSuite == "" {
		t.Skip("-gen-yaml-test-suite not set")
	}
	files, err := filepath.Glob(filepath.Join(*genSuite, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s (%v)", *genSuite, err)
	}
	sort.Strings(files)
	var out []suiteCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var items []map[string]any
		if err := yaml.Unmarshal(data, &items); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		id := strings.TrimSuffix(filepath.Base(f), ".yaml")
		var name, text string
		for i, it := range items {
			if s, ok := it["name"].(string); ok {
				name = s
			}
			if s, ok := it["yaml"].(string); ok {
				text = s
			}
			if it["skip"] == true {
				continue
			}
			c := suiteCase{ID: id, Name: name, YAML: unescapeSuite(text), Fail: it["fail"] == true}
			if len(items) > 1 {
				c.ID = fmt.Sprintf("%s-%02d", id, i)
			}
			out = append(out, c)
		}
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(suiteFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases", len(out))
}

// unescapeSuite is the suite's own unescape (bin/YAMLTestSuite.pm).
func unescapeSuite(s string) string {
	s = strings.ReplaceAll(s, "␣", " ")
	for _, tab := range []string{"———»", "——»", "—»", "»"} {
		s = strings.ReplaceAll(s, tab, "\t")
	}
	s = strings.ReplaceAll(s, "←", "\r")
	s = strings.ReplaceAll(s, "⇔", "\ufeff")
	s = strings.ReplaceAll(s, "↵", "")
	s = strings.TrimSuffix(s, "∎\n")
	return s
}

// FuzzDifferential drives the comparison with kubectl on random streams: wherever
// kubectl reads a stream without error, pvlint must read the same values (or report
// a duplicate key, which it reads as kubectl does). Seeded with the YAML test suite
// and the Kubernetes-shaped documents.
func FuzzDifferential(f *testing.F) {
	for _, c := range loadSuite(f) {
		f.Add(c.YAML)
	}
	for _, c := range loadKube(f) {
		f.Add(c.YAML)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		// A reader that hangs crashes the worker, which records the input.
		watchdog := time.AfterFunc(20*time.Second, func() { panic(fmt.Sprintf("a reader hangs on %q", s)) })
		defer watchdog.Stop()
		p := pvlintReading([]byte(s))
		k := kubectlReading([]byte(s))
		if k.err != "" || p.err != "" {
			return // where either rejects, the allow-list's reasons are about what each rejects
		}
		if fuzzAllowed(s) {
			return
		}
		if d := diverge(p, k); d != "" {
			t.Errorf("%s\ninput: %q", d, s)
		}
	})
}

// TestDifferentialFound keeps the streams FuzzDifferential found pvlint reading
// differently from kubectl: an indented "---" and a Unicode space are text, not
// markers or blanks; a JSON stream's values need not be objects.
func TestDifferentialFound(t *testing.T) {
	for _, s := range []string{" ---", "\u2000", "{}0.00", "{}\n[1]\n\"a\\/b\"", "a: 1\n ---\n"} {
		if d := diverge(pvlintReading([]byte(s)), kubectlReading([]byte(s))); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	}
}
