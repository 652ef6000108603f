package output

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestCodeQualityShape decodes the report and checks each issue carries what GitLab
// requires: description, check_name, a unique fingerprint, one of GitLab's severities,
// a relative path and a begin line.
func TestCodeQualityShape(t *testing.T) {
	rep := sample()
	rep.Findings[2].Range.File = "/work/repo/k8s/abs.yaml"
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, rep); err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		Description string `json:"description"`
		CheckName   string `json:"check_name"`
		Fingerprint string `json:"fingerprint"`
		Severity    string `json:"severity"`
		Location    struct {
			Path  string `json:"path"`
			Lines struct{ Begin, End int }
		} `json:"location"`
	}
	if err := json.Unmarshal(b.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	type row struct{ Check, Severity, Path string }
	var got []row
	fps := map[string]bool{}
	for _, is := range issues {
		got = append(got, row{is.CheckName, is.Severity, is.Location.Path})
		if is.Description == "" || is.Location.Lines.Begin < 1 || is.Location.Lines.End < is.Location.Lines.Begin || len(is.Fingerprint) != 32 || fps[is.Fingerprint] {
			t.Errorf("issue %+v", is)
		}
		fps[is.Fingerprint] = true
	}
	want := []row{
		{"PVL991 test-claim", "critical", "k8s/web.yaml"},
		{"PVL991 test-claim", "info", "<stdin>"},
		{"PVL990 test-parse", "major", "k8s/abs.yaml"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("issues (-want +got):\n%s", d)
	}
}

// TestCodeQualityEmpty: a clean run is an empty array, never null, which GitLab would
// reject.
func TestCodeQualityEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, &Report{}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "[]\n" {
		t.Errorf("empty report = %q", b.String())
	}
}

func TestCQSeverity(t *testing.T) {
	for s, want := range map[lint.Severity]string{lint.Error: "critical", lint.Warning: "major", lint.Note: "info"} {
		if got := cqSeverity(s); got != want {
			t.Errorf("cqSeverity(%v) = %q, want %q", s, got, want)
		}
	}
}

func TestRelativePath(t *testing.T) {
	tests := []struct{ file, dir, want string }{
		{"k8s/web.yaml", "/repo", "k8s/web.yaml"},
		{"/repo/k8s/web.yaml", "/repo", "k8s/web.yaml"},
		{"/other/x.yaml", "/repo", "../other/x.yaml"},
		{"<stdin>", "/repo", "<stdin>"},
		{"/abs/x.yaml", "", "/abs/x.yaml"},
	}
	for _, tt := range tests {
		if got := relativePath(tt.file, tt.dir); got != tt.want {
			t.Errorf("relativePath(%q, %q) = %q, want %q", tt.file, tt.dir, got, tt.want)
		}
	}
}
