package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/cmd/internal/image"
)

// gitlabDetectShell is the command GitLab Runner's Docker and Kubernetes executors give
// a job's container (`sh -c` of it, `sh` found through the image's PATH): the first
// shell of this list that the image has runs the job's script from standard input.
const gitlabDetectShell = `if [ -x /usr/local/bin/bash ]; then
	exec /usr/local/bin/bash $@
elif [ -x /usr/bin/bash ]; then
	exec /usr/bin/bash $@
elif [ -x /bin/bash ]; then
	exec /bin/bash $@
elif [ -x /usr/local/bin/sh ]; then
	exec /usr/local/bin/sh $@
elif [ -x /usr/bin/sh ]; then
	exec /usr/bin/sh $@
elif [ -x /bin/sh ]; then
	exec /bin/sh $@
elif [ -x /busybox/sh ]; then
	exec /busybox/sh $@
else
	echo shell not found
	exit 1
fi
`

// TestGitLabImageComponent runs the job of templates/pvlint-image.yml the way GitLab
// Runner's Docker executor runs it in the snapshot's linux/amd64 -debug image, without
// a container engine: the image's layer is unpacked into a directory with the hazard
// sample as the checkout (writable by all, as the runner's umask 0000 leaves it), and
// the runner's command — `sh -c` of its shell detection, `sh` found through the image's
// PATH, the job's variables (the component's defaults) exported and its script on
// standard input — runs under chroot, as the image's user when the test runs as root
// (else as root of a user namespace, `unshare -r`). The job must find /busybox/sh, print
// the image's pvlint version, fail on the hazard and write the three reports. The plain
// image is the control: it has no shell, and the same command fails to start.
func TestGitLabImageComponent(t *testing.T) {
	rel := snapshot(t)
	chroot, err := exec.LookPath("chroot")
	if err != nil {
		missingTool(t, "chroot (coreutils)")
	}
	var prefix []string // how chroot is run
	asUser := os.Geteuid() == 0
	if !asUser {
		if err := exec.Command("unshare", "-r", "true").Run(); err != nil {
			t.Skipf("chroot needs root or user namespaces (unshare -r): %v", err)
		}
		prefix = []string{"unshare", "-r"}
	}
	job := gitlabImageJob(t)
	var script strings.Builder
	names := make([]string, 0, len(job.Variables))
	for n := range job.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&script, "export %s='%s'\n", n, job.Variables[n])
	}
	script.WriteString("cd /builds/project\n")
	for _, s := range job.Script {
		script.WriteString(s + "\n")
	}

	run := func(debug bool) (string, result) {
		t.Helper()
		root := filepath.Join(t.TempDir(), "rootfs")
		img := unpackImage(t, filepath.Join(rel.dist, imageFile("amd64", debug)), root)
		project := filepath.Join(root, "builds", "project")
		copyDir(t, filepath.Join(repoRoot, "testdata", "ci", "sample", "hazard"), filepath.Join(project, "testdata", "ci", "sample", "hazard"))
		mustRun(t, root, nil, "chmod", "-R", "a+rwX", filepath.Join(root, "builds"))
		args := append(prefix, chroot)
		if asUser {
			args = append(args, "--userspec="+img.Config.Config.User)
		}
		args = append(args, root, "sh", "-c", gitlabDetectShell)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = img.Config.Config.Env
		cmd.Stdin = strings.NewReader(script.String())
		out, err := cmd.CombinedOutput()
		r := result{output: string(out)}
		if exit, ok := err.(*exec.ExitError); ok {
			r.code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return project, r
	}

	project, r := run(true)
	if r.code != 1 || !strings.Contains(r.output, "pvlint "+rel.version) || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Fatalf("the job in the -debug image: exit %d (want 1, the hazard's findings, from pvlint %s)\n%s", r.code, rel.version, r.output)
	}
	_, count := lintSample(t, "hazard")
	checkCodeQuality(t, project, filepath.Join(project, "gl-code-quality-report.json"), count)
	for _, f := range []string{"pvlint-junit.xml", "pvlint.sarif"} {
		if info, err := os.Stat(filepath.Join(project, f)); err != nil || info.Size() == 0 {
			t.Errorf("report %s: %v", f, err)
		}
	}
	if _, plain := run(false); plain.code == 0 || plain.code == 1 {
		t.Errorf("the plain image (no shell) ran the job: exit %d\n%s", plain.code, plain.output)
	}
}

// TestGitLabImageComponentUnderGitLabCILocal runs docs/ci.md's include of
// templates/pvlint-image.yml with gitlab-ci-local's shell executor (no container engine
// here), the unpacked -debug image's /usr/local/bin first on PATH in place of the image:
// the component's spec, inputs and variables as GitLab reads them, and the job fails on
// the hazard sample with the three reports.
func TestGitLabImageComponentUnderGitLabCILocal(t *testing.T) {
	gcl := tool(t, "gitlab-ci-local")
	tool(t, "rsync")
	rel := snapshot(t)
	root := filepath.Join(t.TempDir(), "rootfs")
	unpackImage(t, filepath.Join(rel.dist, imageFile("amd64", true)), root)
	src := filepath.Join(t.TempDir(), "src")
	copySource(t, src)
	sha := gitRepo(t, src)
	mustRun(t, src, nil, "git", "remote", "add", "origin", "https://gitlab.com/pvlint/pvlint.git")
	include := readmeBlock(t, "gitlab-image")
	want := strings.NewReplacer("pvlint-image@"+releaseTag, "pvlint-image@"+sha, "paths: k8s/", "paths: testdata/ci/sample/hazard")
	if got := want.Replace(include); strings.Count(got, sha)+strings.Count(got, "testdata/ci/sample/hazard") != 2 {
		t.Fatalf("the gitlab-image snippet changed shape:\n%s", include)
	} else {
		include = got
	}
	writeFile(t, filepath.Join(src, ".gitlab-ci.yml"), include)
	env := []string{"PATH=" + filepath.Join(root, "usr", "local", "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
	r := run(t, src, env, gcl, "--shell-isolation", "--force-shell-executor", "--no-color")
	if r.code == 0 || !strings.Contains(r.output, "pvlint "+rel.version) || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Fatalf("gitlab-ci-local: exit %d (want a failed job that ran the image's pvlint %s)\n%s", r.code, rel.version, r.output)
	}
	checkReports(t, src)
}

// gitlabImageJobDef is the job of templates/pvlint-image.yml as the tests run it.
type gitlabImageJobDef struct {
	Image struct {
		Name       string
		Entrypoint []string
	}
	Variables map[string]string
	Script    []string
}

// gitlabImageJob reads templates/pvlint-image.yml's job with each input replaced by
// its default (paths by the hazard sample), and checks that it runs the -debug image
// with the entrypoint cleared.
func gitlabImageJob(t *testing.T) gitlabImageJobDef {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(mustReadFile(t, filepath.Join(repoRoot, "templates", "pvlint-image.yml"))))
	var header struct {
		Spec struct {
			Inputs map[string]struct{ Default string }
		}
	}
	if err := dec.Decode(&header); err != nil {
		t.Fatal(err)
	}
	var rest yaml.Node
	if err := dec.Decode(&rest); err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(&rest)
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`\$\[\[ inputs\.([a-z-]+) \]\]`).ReplaceAllStringFunc(string(out), func(m string) string {
		name := m[len("$[[ inputs.") : len(m)-len(" ]]")]
		in, ok := header.Spec.Inputs[name]
		if !ok {
			t.Errorf("the job names an undeclared input %q", name)
		}
		if name == "paths" {
			return "testdata/ci/sample/hazard"
		}
		return in.Default
	})
	var jobs map[string]gitlabImageJobDef
	if err := yaml.Unmarshal([]byte(text), &jobs); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	job := jobs["pvlint"]
	if job.Image.Name != "ghcr.io/pvlint/pvlint:latest"+image.DebugSuffix || len(job.Image.Entrypoint) != 1 || job.Image.Entrypoint[0] != "" || len(job.Script) == 0 {
		t.Fatalf("the job's image %+v, %d script lines: want the -debug image with its entrypoint cleared", job.Image, len(job.Script))
	}
	return job
}

// unpackImage writes the files, directories and links of a single-platform image tar
// file under root and returns the image.
func unpackImage(t *testing.T, file, root string) image.Image {
	t.Helper()
	l, err := image.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := l.Images()
	if err != nil || len(imgs) != 1 {
		t.Fatalf("%s: %d images, %v", file, len(imgs), err)
	}
	img := imgs[0]
	names := make([]string, 0, len(img.Modes))
	for n := range img.Modes {
		names = append(names, n)
	}
	sort.Strings(names) // a directory before what it holds
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		switch {
		case strings.HasSuffix(n, "/"):
			err = os.MkdirAll(p, os.FileMode(img.Modes[n]&0o777))
		case img.Links[n] != "":
			err = os.Symlink(img.Links[n], p)
		default:
			err = os.WriteFile(p, img.Files[n], os.FileMode(img.Modes[n]&0o777))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// /tmp is world-writable with the sticky bit, which MkdirAll's umask drops.
	if err := os.Chmod(filepath.Join(root, "tmp"), 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return img
}
