package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/rules"
)

// sharedClaim is a ReadWriteOnce claim that two Deployments with two replicas each
// mount (PVL002): a hazard per Deployment.
const sharedClaim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: old
spec:
  replicas: 2
  strategy: {type: Recreate}
  template:
    spec:
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data}
`

const hazardousDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data}
`

// habitRun runs pvlint in dir with the given standard input; pipe says whether that
// input is a pipe, terminal whether standard output is a terminal.
type habitRun struct {
	stdin          string
	pipe, terminal bool
	env            map[string]string
}

func (h habitRun) run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	e := &Env{
		Stdin:      strings.NewReader(h.stdin),
		Stdout:     &out,
		Stderr:     &errb,
		Getenv:     func(k string) string { return h.env[k] },
		IsTerminal: func(io.Writer) bool { return h.terminal },
		IsPipe:     func(io.Reader) bool { return h.pipe },
	}
	code = e.Run(args)
	return code, out.String(), errb.String()
}

// writeFiles creates files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDashIsStandardOutput: -o - and -f FORMAT=- write to standard output, never to
// a file named "-".
func TestDashIsStandardOutput(t *testing.T) {
	for _, args := range [][]string{
		{"-f", "json=-", "app.yaml"},
		{"-f", "json", "-o", "-", "app.yaml"},
		{"--output=-", "--format=json", "app.yaml"},
		{"-f", "text=report.txt", "-f", "json=-", "app.yaml"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim})
			code, stdout, stderr := habitRun{}.run(t, dir, args...)
			if code != ExitFindings || !json.Valid([]byte(stdout)) || !strings.Contains(stdout, `"ruleId"`) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want findings as JSON on standard output", code, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
				t.Error("a file named - was written")
			}
		})
	}
	// pvlint graph -o - as well.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim})
	if code, stdout, stderr := (habitRun{}).run(t, dir, "graph", "-o", "-", "app.yaml"); code != ExitOK || !strings.Contains(stdout, "PersistentVolumeClaim default/data") {
		t.Errorf("graph -o -: exit %d, %q, %q", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("graph -o - wrote a file named -")
	}
	// Two reports on standard output are still refused, "-" or not.
	if code, _, stderr := (habitRun{}).run(t, dir, "-f", "json=-", "-f", "sarif=-"); code != ExitError || !strings.Contains(stderr, "standard output") {
		t.Errorf("two reports to -: exit %d, %q", code, stderr)
	}
}

// TestUsageErrors: a missing input, values or variables file, an unknown command,
// flag or rule is exit 2 with one line on standard error, a suggestion when one is
// close, and no report (no PVL000 finding a baseline could swallow).
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"missing.yaml"}, "pvlint: input missing.yaml: no such file or directory\n"},
		{[]string{"app.yml"}, "pvlint: input app.yml: no such file or directory; did you mean app.yaml?\n"},
		{[]string{"k8s/app.yml"}, "pvlint: input k8s/app.yml: no such file or directory; did you mean k8s/app.yaml?\n"},
		{[]string{"app.yaml", "k8z"}, "pvlint: input k8z: no such file or directory; did you mean k8s?\n"},
		{[]string{"--values", "prod-value.yaml", "app.yaml"}, "pvlint: --values prod-value.yaml: no such file or directory; did you mean prod-values.yaml?\n"},
		{[]string{"--var-file=prod.tfvar", "app.yaml"}, "pvlint: --var-file prod.tfvar: no such file or directory; did you mean prod.tfvars?\n"},
		{[]string{"explian", "PVL003"}, "pvlint: unknown command \"explian\"; did you mean `pvlint explain`? (see `pvlint --help`)\n"},
		{[]string{"rulse"}, "pvlint: unknown command \"rulse\"; did you mean `pvlint rules`? (see `pvlint --help`)\n"},
		{[]string{"lint", "."}, "pvlint: unknown command \"lint\": pvlint lints without a command, e.g. `pvlint .` (see `pvlint --help`)\n"},
		{[]string{"--enabel", "PVL003", "app.yaml"}, "pvlint: unknown flag --enabel; did you mean --enable? (see `pvlint --help`)\n"},
		{[]string{"--fail-if-no-object"}, "pvlint: unknown flag --fail-if-no-object; did you mean --fail-if-no-objects? (see `pvlint --help`)\n"},
		{[]string{"--enable", "rwo-multi-pods", "app.yaml"}, "pvlint: --enable: unknown rule \"rwo-multi-pods\"; did you mean \"rwo-multi-pod\"? (see `pvlint rules`)\n"},
		{[]string{"--disable", "pvl-003", "app.yaml"}, "pvlint: --disable: unknown rule \"pvl-003\"; did you mean \"PVL003\"? (see `pvlint rules`)\n"},
		{[]string{"explain", "rwo-roling-update"}, "pvlint: unknown rule \"rwo-roling-update\"; did you mean \"rwo-rolling-update\"? (see `pvlint rules`)\n"},
		{[]string{"--enable", "xyz", "app.yaml"}, "pvlint: --enable: unknown rule \"xyz\" (see `pvlint rules`)\n"},
		{[]string{"help", "explian"}, "pvlint: no help for \"explian\"; did you mean `explain`? (commands: " + strings.Join(subcommandNames(), ", ") + ")\n"},
		{[]string{"-f", "sarf", "app.yaml"}, "pvlint: --format: unknown format \"sarf\" (want " + formatNames() + "); did you mean sarif?\n"},
		{[]string{"graph", "explian"}, "pvlint: input explian: no such file or directory\n"},
		{[]string{"completion", "bsh"}, "pvlint: unknown shell \"bsh\"; did you mean bash? (want bash, zsh or fish)\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim, "k8s/app.yaml": sharedClaim,
				"prod-values.yaml": "x: 1\n", "prod.tfvars": "x = 1\n"})
			code, stdout, stderr := habitRun{}.run(t, dir, tt.args...)
			if code != ExitError || stdout != "" || stderr != tt.want {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant exit 2 and %q", code, stdout, stderr, tt.want)
			}
		})
	}
	// A directory named like a command is linted, not taken for one.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"lint/app.yaml": sharedClaim})
	if code, stdout, _ := (habitRun{}).run(t, dir, "lint"); code != ExitFindings || !strings.Contains(stdout, "lint/app.yaml") {
		t.Errorf("pvlint lint with a lint directory: exit %d, %q", code, stdout)
	}
}

func TestClosest(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"explian", "explain"}, {"EXPLAIN", "explain"}, {"grpah", "graph"}, {"fx", ""}, {"lint", ""}, {"configuration", ""},
	} {
		if got := closest(tt.word, subcommandNames()); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestNothingToLint: the hint for a pipe nobody reads, empty standard input, a run
// without objects, --fail-if-no-objects and --quiet.
func TestNothingToLint(t *testing.T) {
	tests := []struct {
		name   string
		h      habitRun
		args   []string
		files  map[string]string
		code   int
		stdout string
		stderr string
	}{
		{"pipe-not-read", habitRun{stdin: sharedClaim, pipe: true}, nil, map[string]string{"notes.txt": "x"}, 0, "no findings\n",
			stdinHint + "\npvlint: no Kubernetes object found in the inputs\n"},
		// pre-commit runs hooks with a pipe as standard input that nobody writes to, and
		// PRE_COMMIT=1 in their environment: the hint would be noise on every commit.
		{"pipe-pre-commit", habitRun{pipe: true, env: map[string]string{"PRE_COMMIT": "1"}}, nil, map[string]string{"notes.txt": "x"}, 0, "no findings\n",
			"pvlint: no Kubernetes object found in the inputs\n"},
		{"pipe-read", habitRun{stdin: sharedClaim, pipe: true}, []string{"-", "--disable", "PVL002,PVL003"}, nil, 0, "no findings\n", ""},
		{"no-pipe", habitRun{}, nil, map[string]string{"app.yaml": sharedClaim}, 1, "", ""},
		{"empty-stdin", habitRun{pipe: true}, []string{"-"}, nil, 0, "no findings\n",
			"pvlint: standard input is empty: no Kubernetes object found\n"},
		{"empty-stdin-fail", habitRun{}, []string{"--fail-if-no-objects", "-"}, nil, 1, "no findings\n",
			"pvlint: standard input is empty: no Kubernetes object found (--fail-if-no-objects)\n"},
		{"no-objects", habitRun{}, []string{"docs"}, map[string]string{"docs/a.md": "# x"}, 0, "no findings\n",
			"pvlint: no Kubernetes object found in the inputs\n"},
		{"no-objects-fail", habitRun{}, []string{"--fail-if-no-objects", "docs"}, map[string]string{"docs/a.md": "# x"}, 1, "no findings\n",
			"pvlint: no Kubernetes object found in the inputs (--fail-if-no-objects)\n"},
		{"no-objects-fail-never", habitRun{}, []string{"--fail-if-no-objects", "--fail-on=never", "docs"}, map[string]string{"docs/a.md": "# x"}, 1, "no findings\n",
			"pvlint: no Kubernetes object found in the inputs (--fail-if-no-objects)\n"},
		{"objects-fail-if-none", habitRun{}, []string{"--fail-if-no-objects", "--disable", "PVL002,PVL003"}, map[string]string{"app.yaml": sharedClaim}, 0, "no findings\n", ""},
		{"quiet", habitRun{pipe: true}, []string{"-q"}, map[string]string{"docs/a.md": "# x"}, 0, "", ""},
		{"quiet-findings", habitRun{}, []string{"--quiet", "--enable", "PVL002"}, map[string]string{"app.yaml": sharedClaim}, 1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			code, stdout, stderr := tt.h.run(t, dir, tt.args...)
			if code != tt.code || stderr != tt.stderr {
				t.Errorf("exit %d, stderr %q; want exit %d, %q", code, stderr, tt.code, tt.stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout %q, want %q", stdout, tt.stdout)
			}
			if tt.name == "quiet-findings" && (!strings.Contains(stdout, "[PVL002 rwo-multi-pod]") || strings.Contains(stdout, "finding")) {
				t.Errorf("--quiet: %q, want findings without a summary line", stdout)
			}
			if tt.name == "quiet" && stdout != "" {
				t.Errorf("--quiet without findings printed %q", stdout)
			}
		})
	}
}

// TestSubcommandHelp: every subcommand answers -h and --help with its own usage on
// standard output, exit 0, and does nothing else (config init writes no file).
func TestSubcommandHelp(t *testing.T) {
	for _, name := range subcommandNames() {
		cases := [][]string{{name, "--help"}, {name, "-h"}, {"help", name}}
		if name == "config" {
			// config init FILE used to write a file named --help.
			cases = append(cases, []string{"config", "init", "--help"}, []string{"config", "schema", "-h"})
		}
		for _, args := range cases {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				dir := t.TempDir()
				code, stdout, stderr := habitRun{}.run(t, dir, args...)
				want := "Usage: pvlint " + name
				if name == "help" {
					want = "Usage: pvlint [flags]"
				}
				if code != ExitOK || !strings.HasPrefix(stdout, want) || stderr != "" {
					t.Errorf("exit %d, stdout %.60q, stderr %q; want exit 0 and %q", code, stdout, stderr, want)
				}
				if files := listDir(t, dir); len(files) > 0 {
					t.Errorf("--help created %q", files)
				}
			})
		}
	}
}

// TestVersionFlag: --version prints what pvlint version prints.
func TestVersionFlag(t *testing.T) {
	dir := t.TempDir()
	_, want, _ := habitRun{}.run(t, dir, "version")
	code, got, stderr := habitRun{}.run(t, dir, "--version")
	if code != ExitOK || got != want || stderr != "" || !strings.HasPrefix(got, "pvlint v0.0.0-test") {
		t.Errorf("--version: exit %d, %q, %q; want %q", code, got, stderr, want)
	}
}

// TestColor: --color and FORCE_COLOR over NO_COLOR and the terminal; --no-color
// still works.
func TestColor(t *testing.T) {
	tests := []struct {
		args     []string
		env      map[string]string
		terminal bool
		want     bool
	}{
		{nil, nil, false, false},
		{nil, nil, true, true},
		{[]string{"--color", "always"}, nil, false, true},
		{[]string{"--color=always"}, map[string]string{"NO_COLOR": "1"}, false, true},
		{[]string{"--color", "never"}, nil, true, false},
		{[]string{"--color", "auto"}, nil, true, true},
		{[]string{"--no-color"}, nil, true, false},
		{[]string{"--no-color", "--color", "always"}, nil, true, false},
		{nil, map[string]string{"FORCE_COLOR": "1"}, false, true},
		{nil, map[string]string{"FORCE_COLOR": "0"}, false, false},
		{nil, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false, true},
		{[]string{"--color", "never"}, map[string]string{"FORCE_COLOR": "1"}, true, false},
		{nil, map[string]string{"NO_COLOR": "1"}, true, false},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim})
		_, stdout, stderr := habitRun{env: tt.env, terminal: tt.terminal}.run(t, dir, append(tt.args, "app.yaml")...)
		if got := strings.Contains(stdout, "\x1b["); got != tt.want {
			t.Errorf("%q %v terminal %v: coloured %v, want %v (%s)", tt.args, tt.env, tt.terminal, got, tt.want, stderr)
		}
	}
	dir := t.TempDir()
	if code, _, stderr := (habitRun{}).run(t, dir, "--color", "sometimes"); code != ExitError || !strings.Contains(stderr, "want auto, always or never") {
		t.Errorf("--color sometimes: exit %d, %q", code, stderr)
	}
}

// TestShortConfig: -c is --config.
func TestShortConfig(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim, "quiet.yaml": "rules:\n  PVL002: off\n  PVL003: off\n"})
	code, stdout, stderr := habitRun{}.run(t, dir, "-c", "quiet.yaml", "app.yaml")
	if code != ExitOK || stdout != "no findings\n" {
		t.Errorf("-c quiet.yaml: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestRulesJSON: pvlint rules -f json lists the whole catalogue.
func TestRulesJSON(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := habitRun{}.run(t, dir, "rules", "-f", "json")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	var got []ruleJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	all := rules.All()
	if len(got) != len(all) {
		t.Fatalf("%d rules, want %d", len(got), len(all))
	}
	for i, r := range all {
		if got[i].ID != r.ID || got[i].Name != r.Name || got[i].Severity != r.Severity.String() || got[i].Summary != r.Summary || len(got[i].Options) != len(r.Options) {
			t.Errorf("rule %d = %+v, want %s %s", i, got[i], r.ID, r.Name)
		}
	}
	if code, _, stderr := (habitRun{}).run(t, dir, "rules", "--format=xml"); code != ExitError || !strings.Contains(stderr, "want text or json") {
		t.Errorf("rules --format=xml: exit %d, %q", code, stderr)
	}
}

// TestAlertsOutputFile: pvlint alerts -o FILE writes what it would print.
func TestAlertsOutputFile(t *testing.T) {
	dir := t.TempDir()
	_, want, _ := habitRun{}.run(t, dir, "alerts", "--format", "rules")
	for _, flag := range []string{"-o", "--output"} {
		code, stdout, stderr := habitRun{}.run(t, dir, "alerts", flag, "alerts.yaml", "--format", "rules")
		got, err := os.ReadFile(filepath.Join(dir, "alerts.yaml"))
		if code != ExitOK || stdout != "" || stderr != "" || err != nil || string(got) != want || want == "" {
			t.Errorf("alerts %s FILE: exit %d, stdout %q, stderr %q, file %v", flag, code, stdout, stderr, err)
		}
		os.Remove(filepath.Join(dir, "alerts.yaml"))
	}
}

// TestConfigFromLintedPath: run from outside the repository, pvlint finds the
// configuration from the linted path upwards, and --verbose names it.
func TestConfigFromLintedPath(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"repo/.git/HEAD":      "ref: refs/heads/main\n",
		"repo/.pvlint.yaml":   "rules:\n  PVL002: off\n  PVL003: off\n",
		"repo/k8s/app.yaml":   sharedClaim,
		"other/app.yaml":      sharedClaim,
		"other/.pvlint.yaml":  "rules:\n  PVL002: off\n",
		"outside/placeholder": "",
	})
	outside := filepath.Join(root, "outside")
	code, stdout, stderr := habitRun{}.run(t, outside, "--verbose", "../repo/k8s")
	if code != ExitOK || stdout != "no findings\n" {
		t.Errorf("pvlint ../repo/k8s: exit %d, %q, %q; want the repository's configuration applied", code, stdout, stderr)
	}
	if want := "pvlint: configuration: " + filepath.Join(root, "repo", ".pvlint.yaml") + "\n"; !strings.Contains(stderr, want) {
		t.Errorf("--verbose: %q, want %q", stderr, want)
	}
	// A file path finds it from its directory.
	if code, stdout, _ := (habitRun{}).run(t, outside, "../repo/k8s/app.yaml"); code != ExitOK || stdout != "no findings\n" {
		t.Errorf("pvlint ../repo/k8s/app.yaml: exit %d, %q", code, stdout)
	}
	// Two paths with different files: one run has one configuration.
	code, _, stderr = habitRun{}.run(t, outside, "../repo/k8s", "../other")
	if code != ExitError || !strings.Contains(stderr, "pvlint: ../repo/k8s and ../other have different configuration files") {
		t.Errorf("two configurations: exit %d, %q", code, stderr)
	}
	// The working directory's file still comes first.
	writeFiles(t, outside, map[string]string{".pvlint.yaml": "failOn: never\n"})
	if code, stdout, stderr := (habitRun{}).run(t, outside, "../repo/k8s"); code != ExitOK || !strings.Contains(stdout, "PVL002") {
		t.Errorf("working directory's file: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestVerbose: --verbose says what was read, per format, the worlds and the time of
// each stage.
func TestVerbose(t *testing.T) {
	t.Chdir(repoRoot)
	code, _, stderr := runCase(cliCase{args: []string{"--verbose", "--config", "none", "testdata/kustomize/overlays", "testdata/demo"}})
	if code == ExitError {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"pvlint: configuration: none (--config none)\n",
		"pvlint: read ",
		" kustomize ",
		"; yaml 5 files, ",
		"pvlint: linted 3 worlds: ", // overlays/remote builds without its remote entries
		"pvlint: time: setup ",
		", load ", ", rules ", ", suppressions ", ", report ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--verbose output lacks %q:\n%s", want, stderr)
		}
	}
}

// TestCompletion: the scripts know every flag and subcommand; bash's completes
// commands, flags and flag values when run by bash.
func TestCompletion(t *testing.T) {
	scripts := map[string]string{}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, stdout, stderr := habitRun{}.run(t, t.TempDir(), "completion", shell)
		if code != ExitOK || stderr != "" {
			t.Fatalf("completion %s: exit %d, %q", shell, code, stderr)
		}
		scripts[shell] = stdout
		for _, s := range flagSpecs {
			want := "--" + s.Name
			if shell == "fish" {
				want = "-l " + s.Name + " "
			}
			if !strings.Contains(stdout, want) {
				t.Errorf("%s completion lacks %s", shell, want)
			}
		}
		for _, name := range subcommandNames() {
			if !regexp.MustCompile(`\b` + name + `\b`).MatchString(stdout) {
				t.Errorf("%s completion lacks the %s command", shell, name)
			}
		}
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"_pvlint": scripts["zsh"], "pvlint.fish": scripts["fish"]})
	// zsh: the script parses (completing needs a terminal).
	if zsh, err := exec.LookPath("zsh"); err == nil {
		if out, err := exec.Command(zsh, "-n", filepath.Join(dir, "_pvlint")).CombinedOutput(); err != nil {
			t.Errorf("zsh -n: %v\n%s", err, out)
		}
	} else {
		missingTool(t, "zsh (Debian's zsh package)")
	}
	// fish: complete -C asks fish what it would offer.
	if fish, err := exec.LookPath("fish"); err == nil {
		for _, tt := range []struct{ line, want string }{
			{"pvlint --fail-on n", "never note"},
			{"pvlint --fo", "--format"},
			{"pvlint expl", "explain"},
			{"pvlint -f rd", "rdjson"},
		} {
			out, err := exec.Command(fish, "--no-config", "-c", "source "+filepath.Join(dir, "pvlint.fish")+"; complete -C '"+tt.line+"'").CombinedOutput()
			if err != nil {
				t.Fatalf("fish: %v\n%s", err, out)
			}
			var got []string
			for l := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
				word, _, _ := strings.Cut(l, "\t")
				got = append(got, word)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("fish: %q completes to %q, want %q", tt.line, got, tt.want)
			}
		}
	} else {
		missingTool(t, "fish (Debian's fish package)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		missingTool(t, "bash")
	}
	script := filepath.Join(dir, "pvlint.bash")
	writeFiles(t, dir, map[string]string{"pvlint.bash": scripts["bash"], "manifests/app.yaml": ""})
	for _, tt := range []struct {
		line string // the words typed, the last one being completed
		want []string
	}{
		{"pvlint expl", []string{"explain"}},
		{"pvlint --fail-o", []string{"--fail-on"}},
		{"pvlint --fail-on n", []string{"note", "never"}},
		{"pvlint -f sa", []string{"sarif"}},
		{"pvlint --color a", []string{"auto", "always"}},
		{"pvlint --enable PVL00", nil}, // checked below: every PVL00x
		{"pvlint --config man", []string{"manifests"}},
		{"pvlint . --no-col", []string{"--no-color"}},
	} {
		words := strings.Split(tt.line, " ")
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+w+"'")
		}
		prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_pvlint\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.line, err, out)
		}
		got := strings.Fields(string(out))
		if tt.want == nil {
			if len(got) < 9 || !strings.HasPrefix(got[0], "PVL00") {
				t.Errorf("%q completes to %q, want the rules PVL00x", tt.line, got)
			}
			continue
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q completes to %q, want %q", tt.line, got, tt.want)
		}
	}
}

// TestNewFromPatch: with a diff that adds a hazardous Deployment, only that
// Deployment's findings are reported, those of the Deployment already there are not.
func TestNewFromPatch(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k8s/base.yaml": sharedClaim,
		"k8s/web.yaml":  hazardousDeployment,
		"add-web.diff": "diff --git a/k8s/web.yaml b/k8s/web.yaml\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/k8s/web.yaml\n@@ -0,0 +1,11 @@\n+" +
			strings.ReplaceAll(strings.TrimSuffix(hazardousDeployment, "\n"), "\n", "\n+") + "\n",
		"comment.diff": "--- a/k8s/base.yaml\n+++ b/k8s/base.yaml\n@@ -1,3 +1,4 @@\n+# claims\n apiVersion: v1\n kind: PersistentVolumeClaim\n metadata:\n",
	})
	_, all, _ := habitRun{}.run(t, dir, "-f", "json", "k8s")
	if !strings.Contains(all, "Deployment old") || !strings.Contains(all, "Deployment web") {
		t.Fatalf("fixture: both Deployments should have findings:\n%s", all)
	}
	code, stdout, stderr := habitRun{}.run(t, dir, "-f", "json", "--new-from-patch", "add-web.diff", "k8s")
	if code != ExitFindings {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	var rep struct {
		Findings []struct {
			RuleID string `json:"ruleId"`
			// Location is where the finding is; related locations may be elsewhere.
			Message  string `json:"message"`
			Location struct {
				File string `json:"file"`
			} `json:"location"`
			Resource struct{ Name string } `json:"resource"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 {
		t.Fatal("no finding kept")
	}
	for _, f := range rep.Findings {
		if !strings.Contains(f.Message, "Deployment web") {
			t.Errorf("kept %s at %s on %s: %s", f.RuleID, f.Location.File, f.Resource.Name, f.Message)
		}
	}
	// A patch that touches no finding's lines keeps none, and the run passes.
	code, stdout, _ = habitRun{}.run(t, dir, "--new-from-patch", "comment.diff", "k8s")
	if code != ExitOK || stdout != "no findings\n" {
		t.Errorf("comment-only patch: exit %d, %q", code, stdout)
	}
	code, _, stderr = habitRun{}.run(t, dir, "--new-from-patch", "missing.diff", "k8s")
	if code != ExitError || !strings.Contains(stderr, "--new-from-patch missing.diff: no such file") {
		t.Errorf("missing patch: exit %d, %q", code, stderr)
	}
}

// TestNewFromPatchUnreadable: a patch pvlint cannot read (a line over 16 MiB, a
// malformed hunk, a hunk that ends early) is one PVL000 at the patch, and every
// finding is reported as new: never no report, never nothing new.
func TestNewFromPatchUnreadable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k8s/base.yaml": sharedClaim,
		"k8s/web.yaml":  hazardousDeployment,
		"long.diff":     "--- a/k8s/web.yaml\n+++ b/k8s/web.yaml\n@@ -1,1 +1,2 @@\n+" + strings.Repeat("x", maxPatchLine+1) + "\n apiVersion: apps/v1\n",
		"header.diff":   "--- a/k8s/web.yaml\n+++ b/k8s/web.yaml\n@@ -1,x +1,2 @@\n",
		"early.diff":    "--- a/k8s/web.yaml\n+++ b/k8s/web.yaml\n@@ -1,1 +1,3 @@\n+a\n",
	})
	for patch, want := range map[string]string{
		"long.diff":   "long.diff:4: a line is longer than 16777216 bytes",
		"header.diff": "header.diff:3: malformed hunk header",
		"early.diff":  "the last hunk ends early",
	} {
		code, stdout, stderr := habitRun{}.run(t, dir, "-f", "json", "--new-from-patch", patch, "k8s")
		if code != ExitFindings {
			t.Fatalf("%s: exit %d, %s", patch, code, stderr)
		}
		var rep struct {
			Findings []struct {
				RuleID   string `json:"ruleId"`
				Message  string `json:"message"`
				Location struct {
					File string `json:"file"`
				} `json:"location"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		refusals, old, web := 0, 0, 0
		for _, f := range rep.Findings {
			switch {
			case f.RuleID == "PVL000":
				refusals++
				if !strings.Contains(f.Message, want) || !strings.Contains(f.Message, "every finding is reported as new") || f.Location.File != patch {
					t.Errorf("%s: PVL000 at %s: %q, want it at the patch saying %q", patch, f.Location.File, f.Message, want)
				}
			case strings.Contains(f.Message, "Deployment old"):
				old++
			case strings.Contains(f.Message, "Deployment web"):
				web++
			}
		}
		if refusals != 1 || old == 0 || web == 0 {
			t.Errorf("%s: %d PVL000, %d findings of old, %d of web; want one PVL000 and every finding", patch, refusals, old, web)
		}
	}
}

// TestVerboseContext: --verbose names the cluster context apart from the inputs.
func TestVerboseContext(t *testing.T) {
	t.Chdir(repoRoot)
	code, _, stderr := runCase(cliCase{args: []string{"--verbose", "--config", "none", "--cluster", "gke", "--context", "testdata/cluster/snapshot", "testdata/cluster/hpa"}})
	if code == ExitError {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"pvlint: read 1 input file: yaml 1 file, 2 objects; 0 unreadable inputs\n",
		"pvlint: cluster context: cluster snapshot testdata/cluster/snapshot/cluster.yaml (5 objects); GKE default classes (3 objects)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--verbose output lacks %q:\n%s", want, stderr)
		}
	}
}

// TestHabitsFromOtherLinters: spellings users bring from other linters give the same
// run as pvlint's own: -fjson (a short flag with its value attached) as -f json,
// -ojson.out as -o json.out, the gitlab and codeclimate formats as codequality,
// --fail-on none (and failOn: none in a configuration file) as never.
func TestHabitsFromOtherLinters(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"app.yaml": sharedClaim})
	same := func(name string, want, got []string) {
		t.Helper()
		wc, wout, werr := habitRun{}.run(t, dir, want...)
		gc, gout, gerr := habitRun{}.run(t, dir, got...)
		if wc != gc || wout != gout || werr != gerr {
			t.Errorf("%s: %v gave exit %d, %q, %q; %v gave exit %d, %q, %q", name, want, wc, wout, werr, got, gc, gout, gerr)
		}
		if wout == "" && name != "-o" {
			t.Errorf("%s: no output, the comparison cannot fail", name)
		}
	}
	same("-fjson", []string{"-f", "json", "."}, []string{"-fjson", "."})
	same("-fsarif=FILE", []string{"-f", "sarif", "."}, []string{"-fsarif=-", "."})
	same("gitlab", []string{"-f", "codequality", "."}, []string{"--format", "gitlab", "."})
	same("codeclimate", []string{"-f", "codequality", "."}, []string{"-f=codeclimate", "."})
	same("--fail-on none", []string{"--fail-on", "never", "."}, []string{"--fail-on", "none", "."})
	if code, _, _ := (habitRun{}).run(t, dir, "--fail-on", "none", "."); code != ExitOK {
		t.Errorf("--fail-on none: exit %d, want %d", code, ExitOK)
	}
	if code, _, stderr := (habitRun{}).run(t, dir, "-ojson.out", "-fjson", "."); code != ExitFindings || stderr != "" {
		t.Errorf("-ojson.out: exit %d, %q", code, stderr)
	} else if data, err := os.ReadFile(filepath.Join(dir, "json.out")); err != nil || !json.Valid(data) {
		t.Errorf("-ojson.out wrote no JSON report: %v", err)
	}
	writeFiles(t, dir, map[string]string{".pvlint.yaml": "failOn: none\n"})
	if code, _, stderr := (habitRun{}).run(t, dir, "."); code != ExitOK {
		t.Errorf("failOn: none in .pvlint.yaml: exit %d, %s", code, stderr)
	}
	// An unknown short flag with something attached is still an error, not a value.
	if code, _, stderr := (habitRun{}).run(t, dir, "-qx", "."); code != ExitError || !strings.Contains(stderr, "unknown flag -qx") {
		t.Errorf("-qx: exit %d, %q", code, stderr)
	}
}

// TestProgressLine: a run whose Env has a progress writer (Main's standard error on a
// terminal) writes its progress there on one line it clears at the end, and nothing
// else; --quiet and an Env without one (standard error not a terminal: CI logs)
// write none.
func TestProgressLine(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.yaml": sharedClaim, "b.yaml": hazardousDeployment})
	t.Chdir(dir)
	run := func(progress io.Writer, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" },
			IsTerminal: func(io.Writer) bool { return false }, Progress: progress, progressAfter: -1}
		return e.Run(args), out.String(), errb.String()
	}
	wantCode, wantOut, wantErr := run(nil, ".")
	var pb bytes.Buffer
	code, stdout, stderr := run(&pb, ".")
	if code != wantCode || stdout != wantOut || stderr != wantErr {
		t.Errorf("progress changed the run: exit %d, %q, %q; without: %d, %q, %q", code, stdout, stderr, wantCode, wantOut, wantErr)
	}
	p := pb.String()
	if !regexp.MustCompile(`^(\r\x1b\[Kpvlint: reading: (\d+ files found|manifests \d/2))+\r\x1b\[K$`).MatchString(p) {
		t.Errorf("progress line %q", p)
	}
	pb.Reset()
	if run(&pb, "-q", "."); pb.Len() != 0 {
		t.Errorf("--quiet wrote progress %q", pb.String())
	}
}
