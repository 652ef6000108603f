//go:build unix

package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(p, []byte("kind: ConfigMap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readFile(p, 16, 1<<20); err != nil || string(got) != "kind: ConfigMap\n" {
		t.Errorf("readFile = %q, %v", got, err)
	}
	if got, err := readFile(p, 16, 4); err != nil || string(got) != "kind:" {
		t.Errorf("readFile over the limit = %q, %v; want the limit's bytes and one more", got, err)
	}
	if _, err := readFile(filepath.Join(dir, "missing.yaml"), 0, 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want not exist", err)
	}
	// A FIFO (a file swapped after it was examined) must not block the run.
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if got, err := readFile(fifo, 0, 1<<20); len(got) != 0 && err == nil {
		t.Errorf("FIFO read %q", got)
	}
}
