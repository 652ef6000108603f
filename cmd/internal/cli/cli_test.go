package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/worker"
	"github.com/pvlint/pvlint/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/cli and the generated README sections")

// repoRoot is the module root; golden runs execute there so that displayed paths read
// testdata/... as a user at the root would see them.
var repoRoot = func() string {
	abs, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

func TestMain(m *testing.M) {
	// Runs that isolate evaluations start this test binary as their worker.
	worker.ServeIfWorker()
	// A fixed version keeps SARIF goldens independent of how the test was built.
	version = "v0.0.0-test"
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// cliCase is one golden run: arguments, optional standard input and environment, and
// whether standard output is a terminal.
type cliCase struct {
	name     string
	args     []string
	stdin    string
	env      map[string]string
	terminal bool
}

var cliCases = []cliCase{
	{name: "demo-text", args: []string{"testdata/demo"}},
	{name: "demo-json", args: []string{"--format", "json", "testdata/demo"}},
	{name: "demo-sarif", args: []string{"testdata/demo", "-f=sarif"}},
	// An OpenTofu module mixing .tf and .tofu files: the findings are those of the
	// .tofu content (main.tofu over main.tf, claim.tofu.json over claim.tf.json,
	// override.tofu over override.tf).
	{name: "opentofu-text", args: []string{"testdata/terraform/opentofu"}},
	{name: "broken-text", args: []string{"testdata/cli/inputs/broken"}},
	{name: "broken-json", args: []string{"testdata/cli/inputs/broken", "--format=json"}},
	{name: "broken-sarif", args: []string{"-f", "sarif", "testdata/cli/inputs/broken"}},
	{name: "broken-color", args: []string{"testdata/cli/inputs/broken"}, terminal: true},
	{name: "broken-no-color-flag", args: []string{"testdata/cli/inputs/broken", "--no-color"}, terminal: true},
	{name: "broken-no-color-env", args: []string{"testdata/cli/inputs/broken"}, env: map[string]string{"NO_COLOR": "1"}, terminal: true},
	{name: "broken-fail-on-never", args: []string{"--fail-on", "never", "testdata/cli/inputs/broken"}},
	{name: "broken-disable-parse-error", args: []string{"testdata/cli/inputs/broken", "--disable", "parse-error"}},
	{name: "missing-path", args: []string{"testdata/cli/inputs/does-not-exist.yaml"}},
	{name: "empty-dir", args: []string{"testdata/cli/inputs/empty"}},
	{name: "empty-dir-sarif", args: []string{"testdata/cli/inputs/empty", "--format", "sarif"}},
	{name: "stdin", args: []string{"-", "--stdin-filename", "rendered.yaml"}, stdin: "kind: [\n"},
	{name: "stdin-implied", args: []string{"--stdin-filename", "rendered.yaml"}, stdin: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"},
	{name: "double-dash", args: []string{"--", "-"}, stdin: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"},
	{name: "gitops-text", args: []string{"--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-text", args: []string{"--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "--charts", "testdata/cli/inputs/gitops-cache", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-sarif", args: []string{"--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "--charts", "testdata/cli/inputs/gitops-cache", "-f", "sarif", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-command-filled", args: []string{"chart-pulls", "--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "--charts", "testdata/cli/inputs/gitops-cache", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-command-no-cache", args: []string{"chart-pulls", "--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "testdata/cli/inputs/gitops"}},
	// A chart cache that does not exist: a usage error on the command line, a warning
	// (and the notes of the releases it would render) from the configuration.
	{name: "gitops-charts-missing", args: []string{"--charts", "testdata/cli/inputs/gitops-cach", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-not-dir", args: []string{"--charts", "testdata/cli/inputs/gitops/storage.yaml", "testdata/cli/inputs/gitops"}},
	{name: "gitops-charts-config-missing", args: []string{"testdata/cli/inputs/gitops-nocache"}},
	// Directories GitOps objects build with settings of their own: a Flux Kustomization
	// of a directory without kustomization.yaml and postBuild substitution, Argo CD
	// kustomize and directory settings.
	{name: "gitops-builds-text", args: []string{"--config", "testdata/cli/inputs/gitops-builds/.pvlint.yaml", "testdata/cli/inputs/gitops-builds"}},
	{name: "gitops-builds-sarif", args: []string{"--config", "testdata/cli/inputs/gitops-builds/.pvlint.yaml", "-f", "sarif", "testdata/cli/inputs/gitops-builds"}},
	{name: "rules", args: []string{"rules"}},
	{name: "explain", args: []string{"explain", "PVL000"}},
	{name: "explain-by-name", args: []string{"explain", "parse-error"}},
	{name: "explain-unknown", args: []string{"explain", "PVL999"}},
	{name: "explain-no-arg", args: []string{"explain"}},
	{name: "help", args: []string{"--help"}},
	{name: "unknown-flag", args: []string{"testdata/demo", "--colour"}},
	{name: "missing-value", args: []string{"testdata/demo", "--format"}},
	{name: "unknown-format", args: []string{"--format", "xml"}},
	{name: "unknown-rule", args: []string{"--enable", "PVL000,no-such-rule"}},
	{name: "bad-kube-version", args: []string{"--kube-version", "latest"}},
	{name: "bad-fail-on", args: []string{"--fail-on", "critical"}},
	{name: "bad-namespace", args: []string{"--namespace", "Prod_1"}},
	{name: "bad-no-color-value", args: []string{"--no-color=maybe"}},
	{name: "rules-extra-arg", args: []string{"rules", "PVL001"}},
	{name: "custom-driver", args: []string{"testdata/cli/inputs/custom-driver"}},
	{name: "provisioner-class", args: []string{"--provisioner-class", "files.example.com=file", "testdata/cli/inputs/custom-driver"}},
	{name: "rwop-advice-1.28", args: []string{"--kube-version", "1.28", "testdata/cli/inputs/single-writer"}},
	{name: "rule-option", args: []string{"--kube-version", "1.28", "--rule-option", "missing-rwop.min-version=1.27", "testdata/cli/inputs/single-writer"}},
	{name: "rule-option-config", args: []string{"--config", "testdata/cli/inputs/rwop-advice.pvlint.yaml", "testdata/cli/inputs/single-writer"}},
	{name: "rule-option-flag-wins", args: []string{"--config", "testdata/cli/inputs/rwop-advice.pvlint.yaml", "--rule-option", "PVL005.min-version=1.29", "testdata/cli/inputs/single-writer"}},
	{name: "bad-rule-option", args: []string{"--rule-option", "missing-rwop.min-version=1.22", "testdata/cli/inputs/single-writer"}},
	{name: "bad-provisioner-class", args: []string{"--provisioner-class", "files.example.com=nfs", "testdata/cli/inputs/custom-driver"}},
	// One value per field, the one kubectl sends (docs/yaml.md): merge keys, duplicate
	// keys, JSON streams, "\/", alias keys, directives and YAML 1.1 integers.
	{name: "yaml-truth", args: []string{"--disable", "PVL008", "testdata/cli/inputs/yaml-truth"}},
	{name: "yaml-truth-json", args: []string{"--disable", "PVL008", "-f", "json", "testdata/cli/inputs/yaml-truth/duplicate-key.yaml", "testdata/cli/inputs/yaml-truth/storage.yaml"}},
	// The cluster beside the repository: platform profiles and snapshots (testdata/cluster).
	{name: "cluster-gke", args: []string{"--cluster", "gke", "testdata/cluster/gke"}},
	{name: "cluster-none", args: []string{"testdata/cluster/gke"}},
	{name: "cluster-gke-recreate", args: []string{"--cluster", "gke", "testdata/cluster/gke-recreate"}},
	{name: "cluster-gke-sarif", args: []string{"--cluster", "gke", "-f", "sarif", "testdata/cluster/gke", "testdata/cluster/gke-recreate"}},
	{name: "cluster-autopilot-json", args: []string{"--cluster", "autopilot", "-f", "json", "testdata/cluster/gke"}},
	{name: "cluster-eks-default", args: []string{"--cluster", "eks", "testdata/cluster/eks-default"}},
	{name: "cluster-k3s-default", args: []string{"--cluster", "k3s", "testdata/cluster/k3s-default"}},
	{name: "cluster-kind-default", args: []string{"--cluster", "kind", "testdata/cluster/k3s-default"}},
	{name: "cluster-minikube-default", args: []string{"--cluster", "minikube", "testdata/cluster/k3s-default"}},
	{name: "cluster-microk8s-default", args: []string{"--cluster", "microk8s", "testdata/cluster/k3s-default"}},
	{name: "cluster-rancher-desktop-default", args: []string{"--cluster", "rancher-desktop", "testdata/cluster/k3s-default"}},
	{name: "cluster-digitalocean-default", args: []string{"--cluster", "digitalocean", "testdata/cluster/k3s-default"}},
	{name: "cluster-linode-default", args: []string{"--cluster", "linode", "testdata/cluster/k3s-default"}},
	{name: "cluster-openstack-no-default", args: []string{"--cluster", "openstack", "testdata/cluster/k3s-default"}},
	{name: "cluster-aks", args: []string{"--cluster", "aks", "testdata/cluster/aks"}},
	{name: "cluster-rosa", args: []string{"--cluster", "rosa", "testdata/cluster/openshift"}},
	{name: "cluster-linted-default-wins", args: []string{"--cluster", "minikube", "testdata/cluster/minikube"}},
	{name: "cluster-first-profile-default", args: []string{"--cluster", "k3s", "--cluster", "eks", "testdata/cluster/k3s-default"}},
	{name: "cluster-config", args: []string{"--config", "testdata/cluster/cluster.pvlint.yaml", "testdata/cluster/gke", "testdata/cluster/existing-claim"}},
	{name: "cluster-unknown", args: []string{"--cluster", "gkee", "testdata/cluster/gke"}},
	{name: "explain-clusters", args: []string{"explain", "clusters"}},
	{name: "explain-context", args: []string{"explain", "context"}},
	{name: "context-existing-claim", args: []string{"--context", "testdata/cluster/snapshot", "testdata/cluster/existing-claim"}},
	{name: "context-none", args: []string{"testdata/cluster/existing-claim"}},
	{name: "context-existing-claim-sarif", args: []string{"--context", "testdata/cluster/snapshot/cluster.yaml", "-f", "sarif", "testdata/cluster/existing-claim"}},
	{name: "context-shared-existing", args: []string{"--context", "testdata/cluster/snapshot", "testdata/cluster/shared-existing"}},
	{name: "graph-context", args: []string{"graph", "--cluster", "gke", "--context", "testdata/cluster/snapshot", "testdata/cluster/hpa", "testdata/cluster/existing-claim"}},
	{name: "context-json-hpa", args: []string{"--context", "testdata/cluster/snapshot-json/cluster.json", "testdata/cluster/hpa"}},
	{name: "context-wins-over-profile", args: []string{"--cluster", "eks", "--context", "testdata/cluster/snapshot", "testdata/cluster/k3s-default"}},
	{name: "context-missing", args: []string{"--context", "testdata/cluster/nothing-here", "testdata/cluster/gke"}},
	{name: "context-broken", args: []string{"--context", "testdata/cluster/broken-snapshot", "testdata/cluster/gke"}},
	// Suppressions, the configuration file and baselines.
	{name: "suppress-text", args: []string{"--config", "testdata/suppress/cli/.pvlint.yaml", "testdata/suppress/cli"}},
	{name: "suppress-json", args: []string{"--config", "testdata/suppress/cli/.pvlint.yaml", "-f", "json", "testdata/suppress/cli"}},
	{name: "suppress-sarif", args: []string{"--config", "testdata/suppress/cli/.pvlint.yaml", "-f", "sarif", "testdata/suppress/cli"}},
	{name: "suppress-flags-override", args: []string{"--config", "testdata/suppress/cli/.pvlint.yaml", "--fail-on", "never", "testdata/suppress/cli"}},
	{name: "suppress-no-inline", args: []string{"--config", "testdata/suppress/cli/.pvlint.yaml", "--no-inline-suppressions", "testdata/suppress/cli"}},
	{name: "suppress-config-none", args: []string{"--config", "none", "testdata/suppress/cli"}},
	{name: "config-strict-error", args: []string{"--config", "testdata/config/bad/unknown-key.yaml", "testdata/demo"}},
	{name: "config-bad-value", args: []string{"--config", "testdata/config/bad/bad-date.yaml", "testdata/demo"}},
	{name: "config-unknown-rule", args: []string{"--config", "testdata/config/unknown-rule.yaml", "testdata/demo"}},
	{name: "config-policies", args: []string{"--config", "testdata/config/policies.yaml", "--enable", "ACME001,ACME003",
		"testdata/policies/inputs/suppressed", "testdata/policies/inputs/stateful"}},
	{name: "config-policies-json", args: []string{"--config", "testdata/config/policies.yaml", "--enable", "ACME001,ACME003", "-f", "json",
		"testdata/policies/inputs/suppressed", "testdata/policies/inputs/stateful"}},
	{name: "config-missing", args: []string{"--config", "testdata/config/missing.yaml", "testdata/demo"}},
	{name: "config-empty-flag", args: []string{"--config=", "testdata/demo"}},
	{name: "config-no-command", args: []string{"config"}},
	{name: "config-unknown-command", args: []string{"config", "validate"}},
	{name: "baseline-missing", args: []string{"--baseline", "testdata/baseline/missing.json", "testdata/demo"}},
	// Helm charts, helm template output and Kustomize overlays.
	{name: "helm-chart", args: []string{"--enable", "PVL002,PVL003", "testdata/helm/app"}},
	{name: "helm-values", args: []string{"--values", "testdata/helm/values/prod-values.yaml", "--set", "replicaCount=2", "--release-name", "shop", "--enable", "PVL002", "-f", "json", "testdata/helm/app"}},
	{name: "helm-stdin", args: []string{"-", "--stdin-filename", "rendered.yaml", "--enable", "PVL002"}, stdin: helmTemplateOutput},
	{name: "kustomize-overlay", args: []string{"--enable", "PVL002", "testdata/kustomize/overlays/prod"}},
	{name: "bad-set", args: []string{"--set", "persistence[=true", "testdata/helm/app"}},
	{name: "bad-release-name", args: []string{"--release-name", "Shop_1", "testdata/helm/app"}},
	// The storage graph.
	{name: "graph-demo", args: []string{"graph", "testdata/demo"}},
	{name: "graph-demo-dot", args: []string{"graph", "testdata/demo", "--format=dot"}},
	{name: "graph-overlays", args: []string{"graph", "-f", "mermaid", "testdata/kustomize/overlays"}},
	{name: "graph-overlays-dot", args: []string{"graph", "-f", "dot", "testdata/kustomize/overlays"}},
	{name: "graph-hostile", args: []string{"graph", "testdata/graph/hostile"}},
	{name: "graph-hostile-dot", args: []string{"graph", "--format", "dot", "testdata/graph/hostile"}},
	{name: "graph-disabled", args: []string{"graph", "--disable", "PVL002,PVL003", "testdata/demo"}},
	{name: "graph-bad-format", args: []string{"graph", "--format", "sarif", "testdata/demo"}},
	{name: "graph-help", args: []string{"graph", "--help"}},
	{name: "graph-findings-only", args: []string{"graph", "--findings-only", "testdata/helm/app"}},
	{name: "graph-findings-only-clean", args: []string{"graph", "--findings-only", "testdata/ci/sample/clean"}},
	// Custom policies (--policy, testdata/policies).
	{name: "policy-labels-yaml-terraform", args: []string{"--policy", "testdata/policies/labels", "--enable", "owner-label",
		"testdata/policies/inputs/yaml", "testdata/policies/inputs/terraform"}},
	{name: "policy-inventory", args: []string{"--policy", "testdata/policies/backup", "--enable", "ACME002", "testdata/policies/inputs/stateful"}},
	// What ConfigMaps embed is read for custom policies only (load.Options.SkipConfigData).
	{name: "policy-config-data", args: []string{"--policy", "testdata/policies/configdata", "--enable", "ACME003", "testdata/policies/inputs/config"}},
	{name: "policy-path", args: []string{"--policy=testdata/policies/claim-size/size.rego", "--enable", "claim-size-limit", "testdata/policies/inputs/stateful"}},
	{name: "policy-conftest-v0", args: []string{"--policy", "testdata/policies/conftest-v0", "--enable", "user.main", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-conftest-v1", args: []string{"--policy", "testdata/policies/conftest-v1", "--enable", "user.main", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-sarif", args: []string{"-f", "sarif", "--policy", "testdata/policies/labels", "--policy", "testdata/policies/backup",
		"--policy", "testdata/policies/conftest-v0", "--enable", "ACME001,ACME002,user.main", "testdata/policies/inputs/stateful",
		"testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-broken", args: []string{"--policy", "testdata/policies/broken", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-timeout", args: []string{"--policy", "testdata/policies/loop", "--policy-timeout", "100ms", "--enable", "user.acme.loop",
		"testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-network", args: []string{"--policy", "testdata/policies/network", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-collision", args: []string{"--policy", "testdata/policies/collision", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-missing", args: []string{"--policy", "testdata/policies/does-not-exist", "testdata/policies/inputs/deployment.yaml"}},
	{name: "policy-bad-timeout", args: []string{"--policy-timeout", "0s"}},
	{name: "policy-rules", args: []string{"rules", "--policy", "testdata/policies/labels", "--policy", "testdata/policies/conftest-v0"}},
	{name: "policy-rules-bad-flag", args: []string{"rules", "--namespace", "prod"}},
	{name: "policy-explain", args: []string{"explain", "owner-label", "--policy", "testdata/policies/labels"}},
	{name: "explain-input", args: []string{"explain", "input"}},
	{name: "test-pass", args: []string{"test", "testdata/policies/tested"}},
	{name: "test-pass-verbose", args: []string{"test", "-v", "testdata/policies/tested"}},
	{name: "test-fail", args: []string{"test", "testdata/policies/failing-test"}},
	{name: "test-no-tests", args: []string{"test", "testdata/policies/labels"}},
	{name: "test-broken", args: []string{"test", "testdata/policies/broken"}},
	{name: "test-no-dir", args: []string{"test"}},
	// Gatekeeper ConstraintTemplates and constraints (--gatekeeper, testdata/gatekeeper).
	{name: "gatekeeper-text", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--enable", "PVL023", "testdata/gatekeeper/inputs"}},
	// A cluster snapshot answers data.inventory and namespaceSelector; its own
	// constraint is not evaluated.
	{name: "gatekeeper-context", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--context", "testdata/gatekeeper/context", "--enable", "PVL023", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-json", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--enable", "PVL023", "-f", "json", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-sarif", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--enable", "PVL023", "-f", "sarif", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-codequality", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--enable", "PVL023", "-f", "codequality", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-config", args: []string{"--config", "testdata/gatekeeper/pvlint.yaml", "--enable", "PVL023", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-suppress", args: []string{"--config", "testdata/gatekeeper/suppress.pvlint.yaml", "--enable", "PVL023", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-suppress-typo", args: []string{"--config", "testdata/gatekeeper/typo.pvlint.yaml", "--enable", "PVL023", "testdata/gatekeeper/inputs"}},
	{name: "gatekeeper-config-flag-off", args: []string{"--config", "testdata/gatekeeper/pvlint.yaml", "--gatekeeper=false", "testdata/gatekeeper/inputs/constraints.yaml"}},
	// Without --gatekeeper, templates and constraints are inert: no finding, no PVL000.
	{name: "gatekeeper-off", args: []string{"testdata/gatekeeper/policies", "testdata/gatekeeper/loop", "testdata/gatekeeper/inputs/constraints.yaml"}},
	{name: "gatekeeper-timeout", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/loop", "--policy-timeout", "100ms", "--enable", "PVL023", "testdata/gatekeeper/inputs/app.yaml"}},
	{name: "gatekeeper-runtime-error", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/conflict", "--enable", "PVL023", "testdata/policies/inputs/deployment.yaml"}},
	{name: "gatekeeper-policy-no-template", args: []string{"--gatekeeper", "--policy", "testdata/gatekeeper/inputs/app.yaml", "testdata/gatekeeper/inputs/app.yaml"}},
	{name: "gatekeeper-policy-empty", args: []string{"--gatekeeper", "--policy", "testdata/cli/inputs/empty", "testdata/gatekeeper/inputs/app.yaml"}},
	{name: "explain-gatekeeper", args: []string{"explain", "gatekeeper"}},
	// Fixes: proposed in SARIF, shown as a diff; rendered inputs are not rewritten.
	// Custom resources of stateful operators in every input form (docs/operators.md).
	{name: "operators-text", args: []string{"testdata/operators"}},
	{name: "operators-sarif", args: []string{"-f", "sarif", "testdata/operators"}},
	{name: "operators-graph", args: []string{"graph", "testdata/operators/yaml"}},
	{name: "operators-fix", args: []string{"fix", "--diff", "testdata/operators/yaml", "testdata/operators/terraform"}},
	{name: "fix-sarif", args: []string{"-f", "sarif", "--fail-on", "never", "testdata/fix"}},
	{name: "fix-sarif-unsafe", args: []string{"-f", "sarif", "--unsafe-fixes", "--enable", "PVL005", "testdata/fix/yaml"}},
	{name: "fix-dry-run", args: []string{"fix", "--dry-run", "testdata/fix"}},
	{name: "fix-dry-run-unsafe", args: []string{"fix", "--diff", "--unsafe-fixes", "--enable", "PVL005", "testdata/fix/yaml"}},
	{name: "fix-helm", args: []string{"fix", "--dry-run", "--enable", "PVL003", "testdata/helm/app"}},
	{name: "fix-kustomize", args: []string{"fix", "--dry-run", "--enable", "PVL001,PVL003", "testdata/kustomize/overlays/prod", "testdata/kustomize/overlays/staging"}},
	{name: "fix-stdin", args: []string{"fix", "-"}},
	{name: "fix-help", args: []string{"fix", "--help"}},
	// Real repositories, round three (issue 28): what waits for a Terraform claim,
	// independent root modules, patch fragments, templatefile() inputs.
	{name: "realrepo-tfwait", args: []string{"testdata/realrepo/tfwait"}},
	{name: "realrepo-roots", args: []string{"testdata/realrepo/roots"}},
	{name: "realrepo-roots-json", args: []string{"--format", "json", "testdata/realrepo/roots"}},
	{name: "realrepo-fragments", args: []string{"testdata/realrepo/fragments"}},
	{name: "realrepo-templatefile", args: []string{"testdata/realrepo/templatefile"}},
	// Kustomize's deprecation warnings are notes at their fields (issue 28, item 9);
	// TestKustomizeQuietBinary checks that the real binary's standard error is empty.
	{name: "kustomize-deprecated", args: []string{"testdata/cli/inputs/kustomize-deprecated"}},
}

// helmTemplateOutput is what `helm template shop ./app` prints for a chart whose
// Deployment shares its claim between two replicas.
const helmTemplateOutput = `---
# Source: app/templates/pvc.yaml
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: shop-app-data
spec:
  accessModes: ["ReadWriteOnce"]
  resources: {requests: {storage: 10Gi}}
---
# Source: app/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-app
spec:
  replicas: 2
  strategy: {type: Recreate}
  template:
    spec:
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: shop-app-data
`

// TestGolden runs every case in-process and compares exit code, standard output and
// standard error with testdata/cli/<name>.golden (-update rewrites them). SARIF and
// JSON output is also compared decoded, so a failure names the differing field.
func TestGolden(t *testing.T) {
	t.Chdir(repoRoot)
	for _, tc := range cliCases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc)
			stdout = withoutBuiltinTable(withoutCatalogue(t, stdout))
			got := formatGolden(tc, code, stdout, stderr)
			path := filepath.Join("testdata", "cli", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run make golden): %v", err)
			}
			if wantOut, ok := section(string(want), "stdout"); ok && json.Valid([]byte(wantOut)) && json.Valid([]byte(stdout)) {
				if d := cmp.Diff(decode(t, wantOut), decode(t, stdout)); d != "" {
					t.Errorf("decoded output differs (-want +got):\n%s", d)
				}
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("golden %s differs (-want +got):\n%s", path, d)
			}
		})
	}
}

// No golden holds the whole rule catalogue, so that adding a rule changes no golden:
// SARIF goldens keep only the descriptors of the rules their results name, and no
// ruleIndex (the SARIF validator test checks the real indices); a `pvlint rules`
// listing keeps its header and the custom rules it adds, and TestRulesListing checks
// the built-in rows against the catalogue itself.

// withoutBuiltinTable cuts the built-in rules out of a `pvlint rules` listing, which
// TestRulesListing checks against the catalogue; a golden keeps the header and the
// custom rules a listing adds.
func withoutBuiltinTable(out string) string {
	header, rest, ok := strings.Cut(out, "\n")
	if !ok || !strings.HasPrefix(header, "ID ") || !strings.HasPrefix(rest, "PVL000 ") {
		return out
	}
	_, custom, found := strings.Cut(rest, "\nCustom rules")
	if !found {
		return header + "\n(the built-in rules: TestRulesListing)\n"
	}
	return header + "\n(the built-in rules: TestRulesListing)\n\nCustom rules" + custom
}

// withoutCatalogue returns a SARIF log with each run's rules cut down to those its
// results name and the results' ruleIndex left out, indented as pvlint writes it
// (keys sorted); other output is returned as it is.
func withoutCatalogue(t *testing.T, out string) string {
	t.Helper()
	var log map[string]any
	if json.Unmarshal([]byte(out), &log) != nil || log["runs"] == nil || log["version"] != "2.1.0" {
		return out
	}
	for _, run := range log["runs"].([]any) {
		run := run.(map[string]any)
		named := map[any]bool{}
		results, _ := run["results"].([]any)
		for _, r := range results {
			r := r.(map[string]any)
			named[r["ruleId"]] = true
			delete(r, "ruleIndex")
		}
		driver := run["tool"].(map[string]any)["driver"].(map[string]any)
		var kept []any
		rules, _ := driver["rules"].([]any)
		for _, r := range rules {
			if named[r.(map[string]any)["id"]] {
				kept = append(kept, r)
			}
		}
		driver["rules"] = kept
	}
	data, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

func runCase(tc cliCase) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e := &Env{
		Stdin:      strings.NewReader(tc.stdin),
		Stdout:     &out,
		Stderr:     &errb,
		Getenv:     func(k string) string { return tc.env[k] },
		IsTerminal: func(io.Writer) bool { return tc.terminal },
	}
	code = e.Run(tc.args)
	return code, out.String(), errb.String()
}

// formatGolden lays a run out as the golden file does.
func formatGolden(tc cliCase, code int, stdout, stderr string) string {
	var b strings.Builder
	b.WriteString("args: " + strconv.Quote(strings.Join(tc.args, " ")) + "\n")
	b.WriteString("exit: " + strconv.Itoa(code) + "\n")
	b.WriteString("-- stdout --\n" + stdout)
	b.WriteString("-- stderr --\n" + stderr)
	return b.String()
}

// section returns the text of "-- name --" up to the next section.
func section(golden, name string) (string, bool) {
	_, rest, ok := strings.Cut(golden, "-- "+name+" --\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n-- "); i >= 0 {
		rest = rest[:i+1]
	}
	return rest, true
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// TestGoldenCasesHaveFiles keeps testdata/cli free of goldens no case writes.
func TestGoldenCasesHaveFiles(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range cliCases {
		if names[tc.name] {
			t.Errorf("duplicate case %q", tc.name)
		}
		names[tc.name] = true
	}
	files, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "cli", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".golden"); !names[name] {
			t.Errorf("%s belongs to no case; delete it", f)
		}
	}
}

// TestRulesListing checks `pvlint rules` against the catalogue: a header, then one row
// per rule in ID order with its ID, name, default level and summary in aligned columns.
func TestRulesListing(t *testing.T) {
	code, stdout, stderr := runCase(cliCase{args: []string{"rules"}})
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	all := rules.All()
	if len(lines) != len(all)+1 {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(all), stdout)
	}
	columns := regexp.MustCompile(`\S+(?: \S+)*`)
	if got := columns.FindAllString(lines[0], -1); !slices.Equal(got, []string{"ID", "NAME", "SEVERITY", "SUMMARY"}) {
		t.Errorf("header %q", lines[0])
	}
	starts := func(line string) []int {
		var out []int
		for _, m := range columns.FindAllStringIndex(line, 4) {
			out = append(out, m[0])
		}
		return out
	}
	for i, r := range all {
		line := lines[i+1]
		want := []string{r.ID, r.Name, r.Severity.String(), r.Summary}
		if got := columns.FindAllString(line, -1); !slices.Equal(got, want) {
			t.Errorf("row %d = %q, want the columns %q", i+1, line, want)
		}
		if !slices.Equal(starts(line), starts(lines[0])) {
			t.Errorf("row %d %q is not aligned with the header %q", i+1, line, lines[0])
		}
	}
}
