package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/rules"
)

// FuzzParse decodes arbitrary configuration files: the decoder must never panic,
// must either return a configuration or an error, and an error must carry a position
// inside the file (a *config.Error) so the user can find the problem.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{fixtures + "/*.yaml", fixtures + "/bad/*.yaml"} {
		seeds, _ := filepath.Glob(pattern)
		for _, s := range seeds {
			if data, err := os.ReadFile(s); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add(config.Starter)
	catalogue := rules.All()
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := config.Parse(".pvlint.yaml", "/repo", data)
		if err != nil {
			if c != nil {
				t.Fatalf("both a configuration and an error: %v", err)
			}
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if c == nil {
			t.Fatal("neither a configuration nor an error")
		}
		// Resolving checks rule names and globs: errors are fine, panics are not.
		_, _ = c.Resolve(catalogue)
		for _, p := range append(append([]string(nil), c.Paths...), c.Policies...) {
			if !filepath.IsAbs(p) {
				t.Fatalf("path %q is not absolute", p)
			}
		}
	})
}
