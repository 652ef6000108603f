package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/cli"
)

// TestReviewdogRecipe runs the reviewdog recipe of docs/output.md with the real reviewdog, its
// reporter swapped for the local one (which prints the comments it would post) and
// the diff of the last commit: on a pull request that adds a Deployment sharing a
// ReadWriteOnce claim, only the new file's finding is commented, not the finding
// that was already on the base branch. The Checkstyle format is run the same way.
func TestReviewdogRecipe(t *testing.T) {
	reviewdog := tool(t, "reviewdog")
	recipe := strings.TrimSpace(readmeBlock(t, "reviewdog"))
	lint, review, ok := strings.Cut(recipe, " | ")
	if !ok || !strings.HasPrefix(lint, "pvlint ") || !strings.HasPrefix(review, "reviewdog ") {
		t.Fatalf("the README's recipe is not `pvlint ... | reviewdog ...`: %q", recipe)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "k8s", "storage.yaml"), claim("old-data")+"---\n"+claim("new-data"))
	writeFile(t, filepath.Join(dir, "k8s", "old.yaml"), sharedClaimDeployment("old", "old-data"))
	gitRepo(t, dir)
	writeFile(t, filepath.Join(dir, "k8s", "new.yaml"), sharedClaimDeployment("new", "new-data"))
	env := []string{"GIT_AUTHOR_NAME=pvlint test", "GIT_AUTHOR_EMAIL=test@pvlint.invalid", "GIT_COMMITTER_NAME=pvlint test", "GIT_COMMITTER_EMAIL=test@pvlint.invalid"}
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-m", "add new")

	for _, format := range []string{"rdjson", "checkstyle"} {
		t.Run(format, func(t *testing.T) {
			args := strings.Fields(strings.TrimPrefix(lint, "pvlint "))
			rargs := strings.Fields(strings.TrimPrefix(review, "reviewdog "))
			for i, a := range args {
				if a == "rdjson" {
					args[i] = format
				}
			}
			for i, a := range rargs {
				switch {
				case a == "-f=rdjson":
					rargs[i] = "-f=" + format
				case strings.HasPrefix(a, "-reporter="):
					rargs[i] = "-reporter=local"
				}
			}
			rargs = append(rargs, "-diff=git diff HEAD~1")
			t.Chdir(dir)
			var report, errb bytes.Buffer
			if code := cli.Main(args, strings.NewReader(""), &report, &errb); code != cli.ExitOK {
				t.Fatalf("pvlint %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
			}
			if !strings.Contains(report.String(), "old.yaml") || !strings.Contains(report.String(), "new.yaml") {
				t.Fatalf("pvlint's %s report lacks a finding of either Deployment:\n%s", format, report.String())
			}
			cmd := exec.Command(reviewdog, rargs...)
			cmd.Dir = dir
			cmd.Stdin = &report
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("reviewdog %s: %v\n%s", strings.Join(rargs, " "), err, out)
			}
			got := string(out)
			t.Logf("reviewdog:\n%s", got)
			if !strings.Contains(got, "k8s/new.yaml:") || !strings.Contains(got, "PVL002") {
				t.Errorf("reviewdog does not comment the new Deployment's PVL002:\n%s", got)
			}
			if strings.Contains(got, "old.yaml") {
				t.Errorf("reviewdog comments a finding the pull request did not add:\n%s", got)
			}
		})
	}
}

func claim(name string) string {
	return "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: " + name +
		"\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n"
}

func sharedClaimDeployment(name, claim string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\nspec:\n  replicas: 2\n" +
		"  selector:\n    matchLabels: {app: " + name + "}\n  template:\n    metadata:\n      labels: {app: " + name + "}\n" +
		"    spec:\n      containers:\n        - name: app\n          image: nginx:1.27\n" +
		"          volumeMounts: [{name: data, mountPath: /data}]\n" +
		"      volumes:\n        - name: data\n          persistentVolumeClaim:\n            claimName: " + claim + "\n"
}
