package helm

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Section
	}{
		{"empty", "", nil},
		{"plain yaml", "apiVersion: v1\nkind: ConfigMap\n", nil},
		{"helm template output", "---\n# Source: a/templates/x.yaml\nkind: A\n---\n# Source: a/templates/y.yaml\nkind: B\nx: 1\n",
			[]Section{{Source: "a/templates/x.yaml", Line: 2, End: 3}, {Source: "a/templates/y.yaml", Line: 5, End: 7}}},
		{"first document without marker", "# Source: a/templates/x.yaml\nkind: A\n",
			[]Section{{Source: "a/templates/x.yaml", Line: 1, End: 2}}},
		{"blank lines before the comment", "---\n\n# Source: a/t.yaml\nkind: A\n",
			[]Section{{Source: "a/t.yaml", Line: 3, End: 4}}},
		{"comment after content does not count", "---\nkind: A\n# Source: a/t.yaml\n", nil},
		{"document without comment ends the section", "---\n# Source: a/t.yaml\nkind: A\n---\nkind: B\n",
			[]Section{{Source: "a/t.yaml", Line: 2, End: 3}}},
		{"empty source ignored", "---\n# Source: \nkind: A\n", nil},
		{"crlf", "---\r\n# Source: a/t.yaml\r\nkind: A\r\n",
			[]Section{{Source: "a/t.yaml", Line: 2, End: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Split([]byte(tt.in))); diff != "" {
				t.Errorf("Split (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnnotate(t *testing.T) {
	const file = "<stdin>"
	data, err := os.ReadFile("../../testdata/helm/rendered/app-template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rs, ds := manifest.Parse(file, data, manifest.Options{})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	if !Annotate(file, data, rs) {
		t.Fatal("Annotate found no sections")
	}
	type got struct {
		Kind, Source string
		Format       graph.Format
		Related      []string
		Line         int32
	}
	var gots []got
	for _, r := range rs {
		g := got{Kind: r.Kind, Source: r.Origin.Source, Format: r.Origin.Format, Line: r.Range.Start.Line}
		for _, l := range r.Related {
			g.Related = append(g.Related, l.Range.String()+" "+l.Message)
		}
		gots = append(gots, g)
	}
	want := []got{
		{Kind: "PersistentVolumeClaim", Source: "app/templates/pvc.yaml", Format: graph.FormatHelm, Line: 3,
			Related: []string{"<stdin>:2:1 rendered from template app/templates/pvc.yaml"}},
		{Kind: "Deployment", Source: "app/templates/deployment.yaml", Format: graph.FormatHelm, Line: 15,
			Related: []string{"<stdin>:14:1 rendered from template app/templates/deployment.yaml"}},
		{Kind: "ConfigMap", Format: graph.FormatYAML, Line: 37},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("annotated resources (-want +got):\n%s", diff)
	}
	// Findings stay at the stream's own lines: the replicas key is line 20 of stdin.
	if r := rs[1].Locate("spec", "replicas"); r.String() != "<stdin>:20:3" {
		t.Errorf("replicas at %s, want <stdin>:20:3", r)
	}
	if Annotate(file, []byte("kind: A\n"), nil) {
		t.Error("Annotate reported sections for plain YAML")
	}
}

// FuzzSplit checks that any input splits without panicking into ordered sections
// that start at a "# Source:" line and stay within the input.
func FuzzSplit(f *testing.F) {
	for _, p := range []string{"../../testdata/helm/rendered/app-template.yaml", "../../testdata/helm/app/templates/deployment.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("# Source: x\n---\n# Source: y"))
	f.Add([]byte("---\n---\n\n# Source: \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Split(string(data), "\n")
		prevEnd := 0
		for _, s := range Split(data) {
			if s.Source == "" || s.Line <= prevEnd || s.End < s.Line || s.End > len(lines) {
				t.Fatalf("bad section %+v after line %d of %d", s, prevEnd, len(lines))
			}
			if !bytes.HasPrefix([]byte(lines[s.Line-1]), []byte(sourcePrefix)) {
				t.Fatalf("section %+v does not start at a # Source: line: %q", s, lines[s.Line-1])
			}
			prevEnd = s.End
		}
	})
}

// TestSplitAllocations checks that Split costs nothing per line: a stream of many
// documents and thousands of lines allocates for its sections' list and their template
// paths only, however long the documents are.
func TestSplitAllocations(t *testing.T) {
	var b strings.Builder
	for range 4 {
		b.WriteString("---\n# Source: chart/templates/t.yaml\napiVersion: v1\nkind: ConfigMap\ndata:\n")
		for range 2000 {
			b.WriteString("  key: value\r\n\n...\n--- \n")
		}
	}
	data := []byte(b.String())
	secs := Split(data)
	if len(secs) != 4 {
		t.Fatalf("got %d sections, want 4", len(secs))
	}
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	// Four template paths and the list growing to four entries (at most three times).
	// AllocsPerRun counts the whole process's allocations, so a goroutine another test
	// left running can add to one measurement: the fewest of five is Split's own.
	n := testing.AllocsPerRun(10, func() { Split(data) })
	for range 4 {
		n = min(n, testing.AllocsPerRun(10, func() { Split(data) }))
	}
	if n > 7 {
		t.Errorf("Split allocated %v times on a stream of %d lines; want at most 7 (4 paths, the list)", n, bytes.Count(data, []byte("\n")))
	}
}

func BenchmarkSplit(b *testing.B) {
	var sb strings.Builder
	for range 200 {
		sb.WriteString("---\n# Source: chart/templates/t.yaml\napiVersion: v1\nkind: ConfigMap\ndata:\n")
		for range 50 {
			sb.WriteString("  key: value\n")
		}
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		Split(data)
	}
}
