package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// gitlabJob is the component's job as templates/pvlint.yml defines it: the second
// YAML document, after the spec.
type gitlabJob struct {
	Variables map[string]string
	Cache     any
	Script    []string
}

func readGitLabJob(t *testing.T) gitlabJob {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "templates", "pvlint.yml"))
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(data), "\n---\n")
	if !ok {
		t.Fatal("templates/pvlint.yml has no job document after its spec")
	}
	var jobs map[string]gitlabJob
	if err := yaml.Unmarshal([]byte(doc), &jobs); err != nil {
		t.Fatal(err)
	}
	job, ok := jobs["pvlint"]
	if !ok || len(job.Script) != 1 {
		t.Fatalf("templates/pvlint.yml: no pvlint job with one script: %+v", jobs)
	}
	return job
}

// TestGitLabComponentRunsNothingFromTheCheckout runs the component's script with sh
// (no runner needed, so it also runs under -short) in a work tree where a merge
// request committed recording stubs at .pvlint-bin/pvlint (the path the component
// once cached its build in) and ./pvlint, for a version built from source and for a
// release. The go command, curl and wget are stubs on PATH: go builds a recording
// pvlint into GOBIN, curl serves a release archive and its checksums.txt. Neither
// committed stub may run; the pvlint that lints is the one go built (or the release
// archive held), in a directory outside the work tree; go runs outside the work tree
// too, so no go.mod, go.work or toolchain line of the checkout applies. The job caches
// nothing, since a GitLab cache lives in the work tree.
func TestGitLabComponentRunsNothingFromTheCheckout(t *testing.T) {
	job := readGitLabJob(t)
	if job.Cache != nil {
		t.Errorf("the job caches %v: a cache lives in the work tree, where a merge request or another branch's job can write it", job.Cache)
	}
	base := t.TempDir()
	marks := filepath.Join(base, "marks")
	stubs := filepath.Join(base, "stubs")
	release := filepath.Join(base, "release")
	for _, d := range []string{marks, stubs, release} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// recorder is a pvlint that notes who ran it (by its own path) and where.
	recorder := func(name string) string {
		return fmt.Sprintf("#!/bin/sh\necho \"$0 $PWD $*\" >> %s/%s\nif [ \"$1\" = version ]; then echo 'pvlint v0.0.0-fake'; fi\nexit 0\n", marks, name)
	}
	goStub := fmt.Sprintf(`#!/bin/sh
echo "$PWD GOWORK=$GOWORK GOBIN=$GOBIN $*" >> %s/go
case "$1" in
list) echo v0.0.0-fake ;;
install) mkdir -p "$GOBIN" && cat > "$GOBIN/pvlint" <<'STUB'
%sSTUB
chmod +x "$GOBIN/pvlint" ;;
esac
`, marks, recorder("built"))
	curlStub := fmt.Sprintf(`#!/bin/sh
echo "$*" >> %s/curl
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2 ;; -*) shift ;; *) url=$1; shift ;; esac; done
cp "%s/${url##*/}" "$out"
`, marks, release)
	writeStub := func(dir, name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeStub(stubs, "go", goStub)
	writeStub(stubs, "curl", curlStub)
	writeStub(stubs, "wget", "#!/bin/sh\necho wget must not run when curl is there >&2\nexit 1\n")

	// The release: an archive holding a recording pvlint, and its checksums.txt.
	var archive bytes.Buffer
	gz := gzip.NewWriter(&archive)
	tw := tar.NewWriter(gz)
	exe := []byte(recorder("released"))
	if err := tw.WriteHeader(&tar.Header{Name: "pvlint", Mode: 0o755, Size: int64(len(exe)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(exe)
	tw.Close()
	gz.Close()
	arch := map[string]string{"x86_64": "amd64", "aarch64": "arm64"}[strings.TrimSpace(mustRun(t, base, nil, "uname", "-m"))]
	if arch == "" {
		t.Skip("the component has no release for this machine")
	}
	name := "pvlint_linux_" + arch + ".tar.gz"
	writeStub(release, name, archive.String())
	writeStub(release, "checksums.txt", fmt.Sprintf("%x  %s\n", sha256.Sum256(archive.Bytes()), name))

	for _, tc := range []struct{ version, want string }{
		{"main", "built"},
		{"v9.9.9", "released"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			entries, _ := os.ReadDir(marks)
			for _, e := range entries {
				os.Remove(filepath.Join(marks, e.Name()))
			}
			work := filepath.Join(t.TempDir(), "checkout")
			if err := os.MkdirAll(filepath.Join(work, ".pvlint-bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeStub(filepath.Join(work, ".pvlint-bin"), "pvlint", recorder("committed"))
			writeStub(work, "pvlint", recorder("committed"))
			writeStub(work, "go.work", "go 1.26\nuse ./nothing\n")
			env := []string{"PATH=" + stubs + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
			for k, v := range job.Variables {
				v = strings.ReplaceAll(v, "$[[ inputs.version ]]", tc.version)
				v = strings.ReplaceAll(v, "$[[ inputs.download-url ]]", "https://example.invalid/releases")
				v = strings.ReplaceAll(v, "$[[ inputs.paths ]]", ".")
				v = strings.ReplaceAll(v, "$[[ inputs.fail-on ]]", "warning")
				if strings.Contains(v, "$[[") {
					v = ""
				}
				env = append(env, k+"="+v)
			}
			env = append(env, "SCRIPT="+job.Script[0])
			r := run(t, work, env, "/bin/sh", "-c", `eval "$SCRIPT"`)
			if r.code != 0 {
				t.Fatalf("script: exit %d\n%s", r.code, r.output)
			}
			ran := func(who string) string {
				data, _ := os.ReadFile(filepath.Join(marks, who))
				return string(data)
			}
			if got := ran("committed"); got != "" {
				t.Errorf("a pvlint the merge request committed ran:\n%s", got)
			}
			got := ran(tc.want)
			lines := strings.Split(strings.TrimSpace(got), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], " version") || !strings.Contains(lines[1], "--fail-on warning") {
				t.Fatalf("the %s pvlint ran %q, want `version` then the lint", tc.want, got)
			}
			for _, l := range lines {
				exePath, _, _ := strings.Cut(l, " ")
				if strings.HasPrefix(exePath, work) || !filepath.IsAbs(exePath) {
					t.Errorf("pvlint ran from %s, inside the work tree", exePath)
				}
			}
			goCalls := ran("go")
			if tc.want == "built" {
				if !strings.Contains(goCalls, "install github.com/pvlint/pvlint/cmd/pvlint@v0.0.0-fake") {
					t.Errorf("go calls %q, want the install of the resolved version", goCalls)
				}
				for l := range strings.SplitSeq(strings.TrimSpace(goCalls), "\n") {
					dir, _, _ := strings.Cut(l, " ")
					if strings.HasPrefix(dir, work) || !strings.Contains(l, "GOWORK=off") || strings.Contains(l, "GOBIN="+work) {
						t.Errorf("go ran in the work tree or building into it: %s", l)
					}
				}
			} else if goCalls != "" {
				t.Errorf("go ran for a release: %s", goCalls)
			}
		})
	}
}
