package suppress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pvlint/pvlint/rules/lint"
)

// FuzzComments feeds arbitrary file content to the pvlint:ignore comment parser: it
// must never panic, and every directive it finds must sit on a line of the file and
// cover lines of it, with byte offsets inside the content.
func FuzzComments(f *testing.F) {
	for _, pattern := range []string{"../../testdata/suppress/directives/*.yaml", "../../testdata/suppress/yaml/*/*.yaml"} {
		seeds, _ := filepath.Glob(pattern)
		for _, s := range seeds {
			if data, err := os.ReadFile(s); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("# pvlint:ignore PVL003 reason=\"x\" expires=2030-01-01\nkind: Pod\n"))
	f.Add([]byte("{{- /* pvlint:ignore all reason=\"template\" */ -}}\r\n---\r\nkind: Pod\r\n"))
	rules := []*lint.Rule{{ID: "T001", Name: "replicas"}, {ID: "T002", Name: "rolling"}, Problem}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Count(string(data), "\n") + 1
		for _, c := range parseComments("fuzz.yaml", data, rules) {
			at := c.d.at
			if at.Start.Line < 1 || int(at.Start.Line) > lines || at.Start.Column < 1 {
				t.Fatalf("directive at %v outside the %d-line file", at.Start, lines)
			}
			if at.Start.Byte > at.End.Byte || int(at.End.Byte) > len(data) {
				t.Fatalf("directive bytes %d-%d outside the %d-byte file", at.Start.Byte, at.End.Byte, len(data))
			}
			if c.first < 1 || c.last > lines || c.first > c.last+1 {
				t.Fatalf("covers lines %d-%d of a %d-line file", c.first, c.last, lines)
			}
			if !utf8.ValidString(c.d.label) && utf8.Valid(data) {
				t.Fatalf("label %q is not UTF-8 though the input is", c.d.label)
			}
		}
	})
}
