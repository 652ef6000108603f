package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/config"
)

// TestLoadDiscovered checks that a configuration file found in the tree names only
// files inside its repository: outside paths are an error at their entry, whether
// absolute, climbing with .., or through a symbolic link, and the file itself must
// be a regular file inside the repository.
func TestLoadDiscovered(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	sub := filepath.Join(repo, "apps", "web")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, outside, filepath.Join(repo, "policies")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(repo, "escape")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, text, want string }{
		{"inside", "policies: [../../policies]\nhelm:\n  values: [v.yaml]\nterraform:\n  varFiles: [../x.tfvars]\npaths: [.]\n", ""},
		{"absolute", "policies: [" + outside + "]\n", `apps/web/.pvlint.yaml:1:12: policies entry "` + outside + `" is outside the checkout`},
		{"climbing", "helm:\n  values: [../../../outside/v.yaml]\n", `apps/web/.pvlint.yaml:2:12: values entry "../../../outside/v.yaml" is outside the checkout`},
		{"chart", "helm:\n  charts:\n    c:\n      values: [/etc/passwd]\n", `apps/web/.pvlint.yaml:4:16: values entry "/etc/passwd" is outside the checkout`},
		{"varFiles", "terraform:\n  varFiles: [a.tfvars, /etc/hostname]\n", `apps/web/.pvlint.yaml:2:24: varFiles entry "/etc/hostname" is outside the checkout`},
		{"paths", "paths: [/etc]\n", `apps/web/.pvlint.yaml:1:9: paths entry "/etc" is outside the checkout`},
		{"link", "policies: [../../escape/p]\n", `apps/web/.pvlint.yaml:1:12: policies entry "../../escape/p" is outside the checkout`},
		{"link to a missing file", "terraform:\n  varFiles: [../../escape/missing/x.tfvars]\n", `varFiles entry "../../escape/missing/x.tfvars" is outside the checkout`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(sub, config.FileName)
			if err := os.WriteFile(file, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			path, root, err := config.Discover(sub)
			if err != nil || path != file || root != repo {
				t.Fatalf("Discover = %q, %q, %v; want %q, %q", path, root, err, file, repo)
			}
			c, err := config.LoadDiscovered(path, "apps/web/.pvlint.yaml", root)
			if tt.want == "" {
				if err != nil || c.Root != repo {
					t.Fatalf("LoadDiscovered: %v (root %q)", err, c.Root)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadDiscovered: %v, want %q", err, tt.want)
			}
			// Named with --config, the same file is trusted.
			if _, err := config.Load(path, "apps/web/.pvlint.yaml"); err != nil {
				t.Errorf("Load: %v", err)
			}
		})
	}
	t.Run("link to an outside file", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(outside, "cfg.yaml"), []byte("policies: [/etc]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(sub, config.FileName)
		os.Remove(file)
		if err := os.Symlink(filepath.Join(outside, "cfg.yaml"), file); err != nil {
			t.Fatal(err)
		}
		_, err := config.LoadDiscovered(file, "apps/web/.pvlint.yaml", repo)
		if err == nil || !strings.Contains(err.Error(), "outside the checkout; not read") {
			t.Errorf("LoadDiscovered: %v", err)
		}
	})
	t.Run("fifo", func(t *testing.T) {
		file := filepath.Join(sub, config.FileName)
		os.Remove(file)
		if err := syscall.Mkfifo(file, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		_, err := config.LoadDiscovered(file, "apps/web/.pvlint.yaml", repo)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("LoadDiscovered: %v", err)
		}
	})
}
