package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyTree copies the regular files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckoutIsTheRoot runs `cd envs/prod && pvlint .` on a configuration that
// calls ../../modules/app: inside a git checkout (a .git entry at its top, a
// directory or a worktree's file) the module is read, as terraform would read it;
// outside one, reads stay in the working directory, and a note at the module source
// says what was not read. The runs are compared with testdata/realrepo/*.golden
// (-update rewrites them).
func TestCheckoutIsTheRoot(t *testing.T) {
	src := filepath.Join(repoRoot, "testdata", "realrepo", "checkout")
	cases := []struct {
		name string
		git  string // "dir", "file" or "" (no checkout)
	}{
		{"checkout-dir", "dir"},
		{"checkout-worktree", "file"},
		{"checkout-none", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "repo")
			copyTree(t, src, top)
			switch tc.git {
			case "dir":
				if err := os.Mkdir(filepath.Join(top, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			case "file":
				if err := os.WriteFile(filepath.Join(top, ".git"), []byte("gitdir: /nonexistent/worktrees/repo\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(filepath.Join(top, "envs", "prod"))
			c := cliCase{name: tc.name, args: []string{"--format", "text", "."}}
			code, stdout, stderr := runCase(c)
			got := formatGolden(c, code, stdout, stderr)
			golden := filepath.Join(repoRoot, "testdata", "realrepo", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("golden %s differs (-want +got):\n%s", golden, d)
			}
		})
	}
}
