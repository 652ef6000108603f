package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/cmd/internal/rewrite"
)

// fixInputs are the fixture files of testdata/fix, relative to it.
var fixInputs = []string{"yaml/shop.yaml", "yaml/flow.yaml", "yaml/wiki.yaml", "json/ledger.json", "terraform/main.tf"}

// fixedRules are the rules whose findings pvlint fix removes from testdata/fix.
var fixedRules = []string{"PVL001", "PVL003", "PVL009", "PVL014", "PVL015", "PVL016", "PVL022"}

// copyFixtures copies testdata/fix into a fresh directory and makes it the working
// directory, so fix rewrites copies and the paths it shows are the fixtures' own.
func copyFixtures(t *testing.T) (dir string, before map[string][]byte) {
	t.Helper()
	dir = t.TempDir()
	before = map[string][]byte{}
	for _, f := range fixInputs {
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "fix", f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = data
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir, before
}

// lintRules runs pvlint -f json in the working directory and returns the rule IDs
// of its findings.
func lintRules(t *testing.T, args ...string) []string {
	t.Helper()
	code, stdout, stderr := runCase(cliCase{args: append([]string{"-f", "json", "--fail-on", "never"}, args...)})
	if code != ExitOK {
		t.Fatalf("lint: exit %d: %s", code, stderr)
	}
	var rep struct {
		Findings []struct {
			Rule string `json:"ruleId"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("lint output: %v\n%s", err, stdout)
	}
	var ids []string
	for _, f := range rep.Findings {
		ids = append(ids, f.Rule)
	}
	return ids
}

// TestFixInPlace applies every safe fix to copies of testdata/fix and compares the
// files with testdata/fix/want/*.golden (-update rewrites them). The fixed files
// differ from the inputs only in lines that name a fixed field, keep their mode,
// still parse, and re-linting them reports none of the fixed rules; a second run
// has nothing left to change.
func TestFixInPlace(t *testing.T) {
	_, before := copyFixtures(t)
	for _, id := range fixedRules {
		if !strings.Contains(strings.Join(lintRules(t, "."), " "), id) {
			t.Fatalf("the fixtures do not exercise %s", id)
		}
	}
	code, _, stderr := runCase(cliCase{args: []string{"fix", "."}})
	if code != ExitFixChanged {
		t.Fatalf("fix: exit %d, want %d: %s", code, ExitFixChanged, stderr)
	}
	if !strings.Contains(stderr, "fixed 17 findings in 5 files") {
		t.Errorf("fix summary: %s", stderr)
	}
	touched := regexp.MustCompile(`strategy|type|rolling|max_?[sS]urge|max_?[uU]navailable|^\s*},?$|volume_?[bB]inding_?[mM]ode|concurrency_?[pP]olicy|wait_until_bound|storageClassName|is-default-class`)
	for _, f := range fixInputs {
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join(repoRoot, "testdata", "fix", "want", filepath.Base(f)+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("read golden (run make golden): %v", err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s (-want +got):\n%s", f, d)
		}
		for line := range strings.SplitSeq(rewrite.Diff(f, before[f], got), "\n") {
			if (strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+")) && !strings.HasPrefix(line, "---") && !strings.HasPrefix(line, "+++") &&
				!touched.MatchString(line[1:]) {
				t.Errorf("%s: a line the fixes do not concern changed: %q", f, line)
			}
		}
		if err := rewrite.Check(f, got); err != nil {
			t.Errorf("%s does not parse after the fix: %v", f, err)
		}
		if info, err := os.Stat(f); err != nil || info.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v, want 0640 kept (%v)", f, info.Mode().Perm(), err)
		}
	}
	after := strings.Join(lintRules(t, "."), " ")
	for _, id := range append(fixedRules, "PVL000") {
		if strings.Contains(after, id) {
			t.Errorf("re-lint still reports %s: %s", id, after)
		}
	}
	if code, stdout, stderr := runCase(cliCase{args: []string{"fix", "."}}); code != ExitFixNone || stdout != "" {
		t.Errorf("second fix: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

// TestFixDryRunWritesNothing: --dry-run prints the diff the real run would apply and
// leaves every byte in place.
func TestFixDryRunWritesNothing(t *testing.T) {
	_, before := copyFixtures(t)
	code, stdout, stderr := runCase(cliCase{args: []string{"fix", "--dry-run", "."}})
	if code != ExitFixChanged || !strings.Contains(stdout, "+++ b/yaml/shop.yaml") {
		t.Fatalf("dry run: exit %d, stdout:\n%s\nstderr: %s", code, stdout, stderr)
	}
	for _, f := range fixInputs {
		got, err := os.ReadFile(f)
		if err != nil || string(got) != string(before[f]) {
			t.Errorf("%s changed by --dry-run (%v)", f, err)
		}
	}
	entries, err := os.ReadDir("yaml")
	if err != nil || len(entries) != 3 {
		t.Errorf("yaml/ holds %d entries after --dry-run, want the 3 inputs (%v)", len(entries), err)
	}
}

// TestFixUnsafe: PVL005's access-mode change is applied only with --unsafe-fixes, in
// a later round once the Recreate strategies it depends on are written.
func TestFixUnsafe(t *testing.T) {
	copyFixtures(t)
	if code, _, stderr := runCase(cliCase{args: []string{"fix", "--unsafe-fixes", "."}}); code != ExitFixChanged {
		t.Fatalf("fix: exit %d: %s", code, stderr)
	}
	if after := lintRules(t, "."); strings.Contains(strings.Join(after, " "), "PVL005") {
		t.Errorf("PVL005 left after --unsafe-fixes: %v", after)
	}
	data, err := os.ReadFile("yaml/flow.yaml")
	if err != nil || !strings.Contains(string(data), "- ReadWriteOncePod # one node at a time") {
		t.Errorf("flow.yaml not fixed in place (%v):\n%s", err, data)
	}
}

// TestWriteInRoot: fix writes regular files inside the working directory whose
// content is what was linted, and nothing else.
func TestWriteInRoot(t *testing.T) {
	outside := t.TempDir()
	root := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	for _, p := range []string{secret, filepath.Join(root, "ok.yaml")} {
		if err := os.WriteFile(p, []byte("a: 1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(root, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"link.yaml":  "not a regular file",
		secret:       "outside the working directory",
		"../x.yaml":  "no such file",
		"ok.yaml":    "",
		"stale.yaml": "no such file",
	}
	for file, want := range cases {
		err := writeInRoot(root, file, []byte("a: 1\n"), []byte("a: 2\n"))
		if got := ""; err != nil {
			got = err.Error()
			if want == "" || !strings.Contains(got, want) {
				t.Errorf("%s: error %q, want %q", file, got, want)
			}
		} else if want != "" {
			t.Errorf("%s: written, want error %q", file, want)
		}
	}
	if data, _ := os.ReadFile(secret); string(data) != "a: 1\n" {
		t.Errorf("the file outside the root was written: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "ok.yaml")); string(data) != "a: 2\n" {
		t.Errorf("ok.yaml not written: %q", data)
	}
	if err := writeInRoot(root, "ok.yaml", []byte("a: 1\n"), []byte("a: 3\n")); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("a file changed since it was read was written over (%v)", err)
	}
}

// TestFixOpenTofu fixes an OpenTofu module: the finding is in main.tofu, which
// OpenTofu reads instead of main.tf, so main.tofu is rewritten (and still parses) and
// main.tf is left as it is.
func TestFixOpenTofu(t *testing.T) {
	dir := t.TempDir()
	class := func(mode string) string {
		return "resource \"kubernetes_storage_class_v1\" \"gp3\" {\n  metadata {\n    name = \"gp3\"\n  }\n" +
			"  storage_provisioner = \"ebs.csi.aws.com\"\n" + mode + "}\n"
	}
	tf := class("  volume_binding_mode = \"WaitForFirstConsumer\"\n")
	// A class of an in-tree provisioner: a finding with no automatic fix.
	legacy := "resource \"kubernetes_storage_class_v1\" \"legacy\" {\n  metadata {\n    name = \"legacy\"\n  }\n" +
		"  storage_provisioner = \"kubernetes.io/aws-ebs\"\n  volume_binding_mode = \"WaitForFirstConsumer\"\n}\n"
	files := map[string]string{"main.tf": tf, "main.tofu": class(""), "legacy.tofu": legacy}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if got := lintRules(t, "."); !slices.Contains(got, "PVL001") {
		t.Fatalf("findings before the fix: %v, want PVL001 (main.tofu)", got)
	}
	code, stdout, stderr := runCase(cliCase{args: []string{"fix", "."}})
	if code == ExitError || !strings.Contains(stderr, "fixed 1 finding in 1 file") {
		t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
	}
	tofu, err := os.ReadFile("main.tofu")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tofu), `volume_binding_mode = "WaitForFirstConsumer"`) {
		t.Errorf("main.tofu not fixed:\n%s\nfix said:\n%s%s", tofu, stdout, stderr)
	}
	if err := rewrite.Check("main.tofu", tofu); err != nil {
		t.Errorf("fixed main.tofu does not parse: %v", err)
	}
	// The class's binding mode is immutable: fix says the class is replaced, and lists
	// the finding it has no fix for.
	if !strings.Contains(stderr, "main.tofu:1:1: StorageClass gp3 must be recreated for the fix to take effect: volumeBindingMode cannot be changed") ||
		!strings.Contains(stderr, "terraform apply replaces the resource") {
		t.Errorf("fix does not say the class must be recreated:\n%s", stderr)
	}
	if !regexp.MustCompile("legacy.tofu:\\d+:\\d+: (PVL\\d+) not fixed: no automatic fix; see `pvlint explain PVL\\d+`").MatchString(stderr) {
		t.Errorf("fix does not list the finding it has no fix for:\n%s", stderr)
	}
	if data, _ := os.ReadFile("main.tf"); string(data) != tf {
		t.Errorf("main.tf changed:\n%s", data)
	}
	if got := lintRules(t, "."); slices.Contains(got, "PVL001") {
		t.Errorf("findings after the fix: %v", got)
	}
}
