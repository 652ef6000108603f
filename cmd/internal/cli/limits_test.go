package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// TestLimitFlags checks that every --limit reaches the loader's options, with sizes,
// counts and durations parsed, and that bad values are refused with a message.
func TestLimitFlags(t *testing.T) {
	c, err := parseFlags([]string{
		"--limit", "file-size=64MiB", "--limit", "yaml-nodes=500", "--limit", "yaml-depth=50",
		"--limit", "documents=7", "--limit", "helm-render-time=1m", "--limit", "helm-output-size=2048",
		"--limit", "kustomize-output-size=1KiB", "--limit", "terraform-instances=9",
		"--limit", "terraform-module-depth=3", "--limit", "documents=8", ".",
	})
	if err != nil {
		t.Fatal(err)
	}
	var o load.Options
	applyLimits(&o, c.Limits)
	want := load.Options{MaxFileSize: 64 << 20, Limits: manifest.Limits{MaxNodes: 500, MaxDepth: 50, MaxDocs: 8},
		MaxKustomizeOutput: 1024}
	want.Helm.Timeout, want.Helm.MaxOutput = time.Minute, 2048
	want.Terraform.MaxInstances, want.Terraform.MaxModuleDepth = 9, 3
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	for arg, msg := range map[string]string{
		"file-size":                     `invalid value "file-size" (want NAME=VALUE`,
		"memory=1":                      `unknown limit "memory"`,
		"documents=0":                   `limit documents: invalid value "0" (want a positive whole number)`,
		"documents=1KiB":                `limit documents: invalid value "1KiB"`,
		"file-size=-1":                  `limit file-size: invalid value "-1"`,
		"file-size=2000GiB":             `limit file-size: value "2000" is too large`,
		"file-size=2GiB":                `limit file-size: value "2" is too large (at most 2147483647 bytes: positions in a file are 32-bit)`,
		"helm-output-size=2147483648":   `limit helm-output-size: value "2147483648" is too large (at most 2147483647 bytes`,
		"kustomize-output-size=2048MiB": `limit kustomize-output-size: value "2048" is too large (at most 2147483647 bytes`,
		"yaml-nodes=3000000000":         `limit yaml-nodes: value "3000000000" is too large`,
		"helm-render-time=10":           `limit helm-render-time: invalid value "10" (want a positive duration`,
	} {
		_, err := parseFlags([]string{"--limit", arg})
		if err == nil || !strings.HasPrefix(err.Error(), "--limit: "+msg) {
			t.Errorf("--limit %s: error %v, want it to start with %q", arg, err, msg)
		}
	}
	// The largest sizes whose every byte offset still fits graph.Pos's int32.
	for arg, want := range map[string]int64{
		"file-size=2047MiB":                1<<31 - 1<<20,
		"helm-output-size=1GiB":            1 << 30,
		"kustomize-output-size=2147483647": 1<<31 - 1,
	} {
		l, err := parseLimit(arg)
		if err != nil || l.Value != want {
			t.Errorf("--limit %s = %d, %v; want %d", arg, l.Value, err, want)
		}
	}
}

// TestLimitHit lowers limits on the command line: each input over one is a PVL000
// finding at that input, and the other inputs are still linted.
func TestLimitHit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"docs.yaml":  "a: 1\n---\nb: 2\n---\nc: 3\n",
		"deep.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata: {a: [[[[[[[[[[1]]]]]]]]]]}\n",
		"nodes.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nodes}\ndata: {a: &a [1, 2, 3, 4, 5], b: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]}\n",
		"big.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {a: \"" + strings.Repeat("x", 2000) + "\"}\n",
		"ok.yaml": "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n---\n" +
			"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: ok}\nspec:\n  replicas: 2\n  template:\n    spec:\n" +
			"      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n",
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCase(cliCase{args: []string{"-f", "json", "--limit", "documents=2", "--limit", "yaml-depth=9",
		"--limit", "yaml-nodes=40", "--limit", "file-size=1KiB", "."}})
	if code != ExitFindings || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got []string
	for _, f := range decodeFindings(t, []byte(stdout)) {
		if f.RuleID != "PVL000" && f.RuleID != "PVL004" {
			continue // the rules this test is about: the limits, and linting going on
		}
		if f.Location.File == "ok.yaml" {
			got = append(got, f.RuleID+" ok.yaml") // still linted: its own findings
			continue
		}
		got = append(got, f.RuleID+" "+f.Location.File+": "+f.Message)
	}
	want := []string{
		"PVL000 big.yaml: file is 2067 bytes, larger than the 1024-byte limit; not read",
		"PVL000 deep.yaml: document nests deeper than 9 levels",
		"PVL000 docs.yaml: file has 3 documents, more than the limit of 2",
		"PVL000 nodes.yaml: document expands to more than 40 nodes (YAML alias expansion limit)",
		"PVL004 ok.yaml",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
