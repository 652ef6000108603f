package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

const fixtures = "../../../testdata/config"

func parse(t *testing.T, name string) (*config.Config, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatal(err)
	}
	return config.Parse(name, "/repo", data)
}

func TestParseFull(t *testing.T) {
	yes := true
	c, err := parse(t, "full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	never := lint.Error
	want := &config.Config{
		File: "full.yaml", Dir: "/repo",
		KubeVersion: lint.Version{Major: 1, Minor: 30},
		Namespace:   "shop",
		FailOn:      &never,
		Rules: []config.RuleSetting{
			{Rule: "PVL005", Off: true, Pos: config.Pos{Line: 6, Column: 3}},
			{Rule: "immediate-binding", Severity: lint.Note, Pos: config.Pos{Line: 7, Column: 3}},
		},
		Ignores: []config.Ignore{
			{Rule: "PVL002", Resources: []string{"Deployment/shop/cache", "StorageClass/gp2"}, Reason: "cache is rebuilt on start",
				Expires: time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), Pos: config.Pos{Line: 9, Column: 5}, RulePos: config.Pos{Line: 9, Column: 11}},
			{Rule: "all", Paths: []string{"vendor/**", "legacy"}, Reason: "third-party manifests",
				Pos: config.Pos{Line: 13, Column: 5}, RulePos: config.Pos{Line: 13, Column: 11}},
		},
		Paths:   []string{"/repo/deploy", "/shared/storage.yaml"},
		Exclude: []string{"**/testdata/**"},
		Helm: config.Helm{
			ChartValues: config.ChartValues{Values: []string{"/repo/values-common.yaml"}, ReleaseName: "app", Namespace: "prod"},
			Charts: []config.Chart{{Dir: "/repo/charts/web", ChartValues: config.ChartValues{
				Values: []string{"/repo/charts/web/values-prod.yaml"}, Set: []string{"replicaCount=3", "image.tag=1.2"},
				SetString: []string{"build=007"}, ReleaseName: "web"}}},
		},
		Terraform: config.Terraform{
			VarFiles: []string{"/repo/envs/prod.tfvars"},
			Vars:     []config.Var{{Name: "replicas", Value: "3"}, {Name: "zones", Value: `["a", "b"]`}},
		},
		Provisioners: []config.Provisioner{{Name: "csi.example.com", Kind: "attachable"}, {Name: "files.example.com", Kind: "file"}},
		Policies:     []string{"/repo/policy"},
		RuleOptions:  []config.RuleOption{{Rule: "missing-rwop", Name: "min-version", Value: "1.27", Pos: config.Pos{Line: 39, Column: 18}}},
		Files: []config.FileRef{
			{Key: "paths", Written: "deploy", Path: "/repo/deploy", Pos: config.Pos{Line: 16, Column: 9}},
			{Key: "paths", Written: "../shared/storage.yaml", Path: "/shared/storage.yaml", Pos: config.Pos{Line: 16, Column: 17}},
			{Key: "values", Written: "values-common.yaml", Path: "/repo/values-common.yaml", Pos: config.Pos{Line: 21, Column: 12}},
			{Key: "values", Written: "charts/web/values-prod.yaml", Path: "/repo/charts/web/values-prod.yaml", Pos: config.Pos{Line: 24, Column: 16}},
			{Key: "varFiles", Written: "envs/prod.tfvars", Path: "/repo/envs/prod.tfvars", Pos: config.Pos{Line: 29, Column: 14}},
			{Key: "policies", Written: "policy", Path: "/repo/policy", Pos: config.Pos{Line: 36, Column: 12}},
			{Key: "context", Written: "cluster/snapshot.yaml", Path: "/repo/cluster/snapshot.yaml", Pos: config.Pos{Line: 42, Column: 10}},
			{Key: "charts", Written: ".charts", Path: "/repo/.charts", Pos: config.Pos{Line: 48, Column: 10}},
		},
		Worlds:     []string{"examples/*"},
		Gatekeeper: &yes,
		Clusters:   []string{"gke", "k3s"},
		Context:    []string{"/repo/cluster/snapshot.yaml"},
		Explore:    &yes,
		ExploreLevels: []config.RuleSetting{
			{Rule: "rwo-multi-pod", Severity: lint.Warning, Pos: config.Pos{Line: 47, Column: 5}},
		},
		Charts:       []string{"/repo/.charts"},
		Repositories: []string{"git@github.com:example/cluster.git"},
	}
	if diff := cmp.Diff(want, c, cmpopts.IgnoreFields(config.Config{}, "Keys")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(c.Keys) != 19 || c.Keys["policies"] != (config.Pos{Line: 36, Column: 1}) {
		t.Errorf("keys %v", c.Keys)
	}
	if err := c.KeyError("policies", "not %s", "here"); err == nil || err.Error() != "full.yaml:36:1: not here" {
		t.Errorf("KeyError: %v", err)
	}
	if got := c.Helm.For("/repo/charts/web").ReleaseName; got != "web" {
		t.Errorf("chart entry: release %q", got)
	}
	if got := c.Helm.For("/repo/charts/api").ReleaseName; got != "app" {
		t.Errorf("top-level helm settings: release %q", got)
	}
}

func TestParseOther(t *testing.T) {
	c, err := parse(t, "anchors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/repo/values-common.yaml"}, c.Helm.Charts[0].Values); diff != "" {
		t.Errorf("alias (-want +got):\n%s", diff)
	}
	for _, name := range []string{"empty.yaml"} {
		c, err := parse(t, name)
		if err != nil || c.FailOn != nil || len(c.Rules) != 0 {
			t.Errorf("%s: %+v, %v", name, c, err)
		}
	}
	if c, err := config.Parse("x", "/repo", nil); err != nil || c.File != "x" {
		t.Errorf("no content: %+v, %v", c, err)
	}
	never, err := config.Parse("x", "/repo", []byte("failOn: never\n"))
	if err != nil || never.FailOn == nil || *never.FailOn != lint.SeverityNone {
		t.Errorf("failOn never: %+v, %v", never, err)
	}
}

// badFiles maps each fixture of testdata/config/bad to its error.
var badFiles = map[string]string{
	"unknown-key.yaml":        `unknown-key.yaml:2:1: unknown key "failon" in the configuration (did you mean "failOn"?)`,
	"unknown-ignore-key.yaml": `unknown-ignore-key.yaml:4:5: unknown key "path" in an ignore entry (known keys: expires, paths, reason, resources, rule)`,
	"bad-level.yaml":          `bad-level.yaml:1:9: unknown level "critical" for failOn (want error, warning, note or never)`,
	"bad-version.yaml":        `bad-version.yaml:1:14: invalid Kubernetes version "one" (want MAJOR.MINOR, e.g. 1.31)`,
	"bad-rule-setting.yaml":   `bad-rule-setting.yaml:2:11: unknown setting "disabled" for rule PVL005 (want off, error, warning or note)`,
	"gatekeeper-string.yaml":  `gatekeeper-string.yaml:2:13: gatekeeper must be true or false, not a string`,
	"rule-bool.yaml":          `rule-bool.yaml:2:11: unknown setting "false" for rule PVL005 (want off, error, warning or note)`,
	"no-reason.yaml":          `no-reason.yaml:2:5: ignore entry for PVL002 has no reason: say why the finding is accepted`,
	"no-rule.yaml":            `no-rule.yaml:2:5: ignore entry has no rule (an ID, a name or "all")`,
	"bad-date.yaml":           `bad-date.yaml:4:14: invalid date "31/01/2027" for expires (want YYYY-MM-DD)`,
	"bad-resource.yaml":       `bad-resource.yaml:4:17: invalid resource "web" (want Kind/namespace/name or Kind/name)`,
	"absolute-glob.yaml":      `absolute-glob.yaml:1:11: path pattern "/abs/**" is absolute (want a path relative to the configuration file)`,
	"not-a-list.yaml":         `not-a-list.yaml:1:8: paths must be a list, not a string`,
	"bad-provisioner.yaml":    `bad-provisioner.yaml:2:20: unknown kind "block" for provisioner csi.example.com (want attachable, file or local)`,
	"bad-set.yaml":            `bad-set.yaml:4:13: invalid set entry "replicaCount" (want key=value)`,
	"bad-namespace.yaml":      `bad-namespace.yaml:1:12: invalid namespace "Shop" (want a lowercase DNS label such as "default")`,
	"duplicate.yaml":          `duplicate.yaml:2:1: key "failOn" appears twice in the configuration`,
	"two-documents.yaml":      `two-documents.yaml:2:1: the configuration must be a single YAML document`,
	"syntax.yaml":             `syntax.yaml:1:1: invalid YAML: did not find expected ',' or ']'`,
	"not-a-mapping.yaml":      `not-a-mapping.yaml:1:1: the configuration must be a mapping, not a list`,
	"null-value.yaml":         `null-value.yaml:1:13: kubeVersion must be a string, not empty`,
	"var-list.yaml":           `var-list.yaml:3:12: variable zones must be a scalar (write lists and maps as a quoted HCL string), not a list`,
	"chart-typo.yaml":         `chart-typo.yaml:4:7: unknown key "valuse" in chart charts/web (known keys: namespace, releaseName, set, setString, values)`,
	"unknown-cluster.yaml":    `unknown-cluster.yaml:1:16: unknown cluster "eksx" (did you mean "eks"? known clusters: akamai, aks, autopilot, aws, azure, cinder, digitalocean, doks, eks, gcp, gke, gke-autopilot, gke-standard, k3s, kind, linode, lke, microk8s, minikube, openshift, openshift-aws, openstack, rancher-desktop, rosa)`,
	"rule-option-scalar.yaml": `rule-option-scalar.yaml:2:17: the options of rule missing-rwop must be a mapping, not a string`,
}

func TestParseErrors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "bad", "*.yaml"))
	if len(files) != len(badFiles) {
		t.Errorf("%d fixtures, %d expected errors", len(files), len(badFiles))
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, err = config.Parse(name, "/repo", data)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *config.Error", err)
			}
			if err.Error() != badFiles[name] {
				t.Errorf("error\n got %s\nwant %s", err, badFiles[name])
			}
		})
	}
}

func TestResolve(t *testing.T) {
	c, err := parse(t, "full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pvl002 := &lint.Rule{ID: "PVL002", Name: "rwo-multi-pod"}
	pvl005 := &lint.Rule{ID: "PVL005", Name: "missing-rwop", Options: []lint.Option{{Name: "min-version", Default: "1.29",
		Check: func(v string) error {
			if v < "1.27" {
				return errors.New("too old")
			}
			return nil
		}}}}
	pvl001 := &lint.Rule{ID: "PVL001", Name: "immediate-binding"}
	res, err := c.Resolve([]*lint.Rule{pvl001, pvl002, pvl005})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Off[pvl005] || len(res.Off) != 1 || res.Severity[pvl001] != lint.Note || len(res.Severity) != 1 {
		t.Errorf("rules: off %v, severity %v", res.Off, res.Severity)
	}
	if res.Explore[pvl002] != lint.Warning || len(res.Explore) != 1 {
		t.Errorf("explore levels %v", res.Explore)
	}
	want := []suppress.Ignore{
		{Rule: pvl002, Resources: []string{"Deployment/shop/cache", "StorageClass/gp2"}, Reason: "cache is rebuilt on start",
			Expires: time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), Root: "/repo",
			Location: graph.Range{File: "full.yaml", Start: graph.Pos{Line: 9, Column: 5}}},
		{Rule: nil, Paths: []string{"vendor/**", "legacy"}, Reason: "third-party manifests", Root: "/repo",
			Location: graph.Range{File: "full.yaml", Start: graph.Pos{Line: 13, Column: 5}}},
	}
	if diff := cmp.Diff(want, res.Ignores); diff != "" {
		t.Errorf("ignores (-want +got):\n%s", diff)
	}
	if got := res.Options[pvl005]["min-version"]; got != "1.27" || len(res.Options) != 1 {
		t.Errorf("rule options %v", res.Options)
	}
	for value, msg := range map[string]string{
		"1.26": `full.yaml:39:18: option min-version of rule PVL005: too old`,
	} {
		c.RuleOptions[0].Value = value
		if _, err := c.Resolve([]*lint.Rule{pvl001, pvl002, pvl005}); err == nil || err.Error() != msg {
			t.Errorf("option value %s: %v, want %s", value, err, msg)
		}
	}
	c.RuleOptions[0] = config.RuleOption{Rule: "missing-rwop", Name: "since", Value: "1.27", Pos: config.Pos{Line: 39, Column: 5}}
	if _, err := c.Resolve([]*lint.Rule{pvl001, pvl002, pvl005}); err == nil || !strings.HasPrefix(err.Error(), `full.yaml:39:5: rule PVL005 has no option "since"`) {
		t.Errorf("unknown option: %v", err)
	}
	c.RuleOptions[0].Rule = "nope"
	if _, err := c.Resolve([]*lint.Rule{pvl001, pvl002, pvl005}); err == nil || !strings.HasPrefix(err.Error(), `full.yaml:39:5: unknown rule "nope" in ruleOptions`) {
		t.Errorf("unknown rule in ruleOptions: %v", err)
	}
	c.RuleOptions = nil
	_, err = c.Resolve([]*lint.Rule{pvl001, pvl002})
	if err == nil || err.Error() != `full.yaml:6:3: unknown rule "PVL005" in rules (see `+"`pvlint rules`"+`)` {
		t.Errorf("unknown rule in rules: %v", err)
	}
	_, err = c.Resolve([]*lint.Rule{pvl001, pvl005})
	if err == nil || !strings.HasPrefix(err.Error(), `full.yaml:9:11: unknown rule "PVL002" in ignore`) {
		t.Errorf("unknown rule in ignore: %v", err)
	}
}

func TestExcluded(t *testing.T) {
	c := &config.Config{Dir: "/repo", Exclude: []string{"**/testdata/**", "vendor"}}
	for path, want := range map[string]bool{
		"/repo/a/testdata/x.yaml": true,
		"/repo/vendor/chart":      true,
		"/repo/vendor2/x.yaml":    false,
		"/repo/deploy/app.yaml":   false,
		"/elsewhere/vendor/x":     false,
	} {
		if got := c.Excluded(path); got != want {
			t.Errorf("Excluded(%s) = %v", path, got)
		}
	}
}

func TestProvisioners(t *testing.T) {
	c := &config.Config{Provisioners: []config.Provisioner{{Name: "nas.example.com", Kind: "file"}}}
	rows := c.ProvisionerRows()
	if len(rows) != 1 || rows[0].Name != "nas.example.com" || rows[0].Backend != graph.NonAttachable || !rows[0].RWX {
		t.Errorf("rows %+v", rows)
	}
}

// TestFind checks the search from a subdirectory up to the repository root.
func TestFind(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "deploy", "apps")
	nested := filepath.Join(repo, "vendor", "other")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, filepath.Join(nested, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("failOn: error\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A file above the repository root never applies.
	write(filepath.Join(root, config.FileName))
	if got, err := config.Find(sub); err != nil || got != "" {
		t.Errorf("above the root: %q, %v", got, err)
	}
	write(filepath.Join(repo, config.FileName))
	if got, err := config.Find(sub); err != nil || got != filepath.Join(repo, config.FileName) {
		t.Errorf("from a subdirectory: %q, %v", got, err)
	}
	// A nested repository is its own root.
	if got, err := config.Find(nested); err != nil || got != "" {
		t.Errorf("nested repository: %q, %v", got, err)
	}
	write(filepath.Join(sub, config.FileName))
	if got, err := config.Find(sub); err != nil || got != filepath.Join(sub, config.FileName) {
		t.Errorf("nearest file: %q, %v", got, err)
	}
	c, err := config.Load(filepath.Join(sub, config.FileName), "deploy/apps/.pvlint.yaml")
	if err != nil || c.Dir != sub || c.File != "deploy/apps/.pvlint.yaml" {
		t.Errorf("Load: %+v, %v", c, err)
	}
	if _, err := config.Load(filepath.Join(root, "missing.yaml"), "missing.yaml"); err == nil || err.Error() != "read configuration missing.yaml: no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
}

// TestWorlds: worlds: is a list of directory globs relative to the file; the
// directory of the file itself and directories outside it are never worlds.
func TestWorlds(t *testing.T) {
	c, err := config.Parse(".pvlint.yaml", "/repo", []byte("worlds: [\"examples/*\", \"**/samples/*/\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"examples/*", "**/samples/*/"}, c.Worlds); diff != "" {
		t.Errorf("worlds (-want +got):\n%s", diff)
	}
	for dir, want := range map[string]bool{
		"/repo/examples/wordpress":      true,
		"/repo/examples":                false,
		"/repo/examples/wordpress/base": false,
		"/repo/a/b/samples/one":         true,
		"/repo":                         false,
		"/elsewhere/examples/x":         false,
	} {
		if got := c.IsWorld(dir); got != want {
			t.Errorf("IsWorld(%s) = %v", dir, got)
		}
	}
	if _, err := config.Parse(".pvlint.yaml", "/repo", []byte("worlds: examples\n")); err == nil || !strings.Contains(err.Error(), "worlds must be a list") {
		t.Errorf("worlds as a string: %v", err)
	}
}

// TestNoProfile: a distribution that installs no StorageClass is answered with that
// fact and the way to give its classes, not with a near name.
func TestNoProfile(t *testing.T) {
	msg := config.UnknownPlatform("RKE2")
	if !strings.Contains(msg, "installs no StorageClass") || !strings.Contains(msg, "--context") || strings.Contains(msg, "did you mean") {
		t.Errorf("message %q", msg)
	}
	if msg := config.UnknownPlatform("eksx"); !strings.Contains(msg, `did you mean "eks"`) {
		t.Errorf("a near name is still suggested: %q", msg)
	}
}
