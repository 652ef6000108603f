package bench

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// TestFastPathCorpus checks that the manifest parser's fast path reads every document
// of the benchmark corpus, and reads it as yaml.v3 does: a document it gave up on
// would cost the yaml.v3 path's time on every benchmark without failing anything.
func TestFastPathCorpus(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Write(dir, corpus.Options{Objects: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fast, total, problems := manifest.CheckFastPath(path, data)
		for _, p := range problems {
			t.Error(p)
		}
		if fast != total {
			t.Errorf("%s: fast path read %d of %d documents", path, fast, total)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
