package rules_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/linttest"
	"github.com/pvlint/pvlint/rules/suppress"
)

// fixtures holds one directory of fixtures per rule ID.
const fixtures = "../testdata/rules"

var (
	// targetDir names a fixture directory linted for another Kubernetes version:
	// PVL007@1.24 holds PVL007's fixtures for --kube-version 1.24.
	targetDir   = regexp.MustCompile(`^(PVL\d{3})@(\d+\.\d+)$`)
	idPattern   = regexp.MustCompile(`^PVL\d{3}$`)
	namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// fixtureFormats are the input formats with a loader of their own into the graph:
// every rule is tested in each (Helm charts and kustomizations render to YAML).
var fixtureFormats = []struct {
	name  string
	match func(name string) bool
}{
	{"YAML", func(n string) bool {
		return (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) && n != "Chart.yaml" && n != "kustomization.yaml"
	}},
	{"Terraform", func(n string) bool { return strings.HasSuffix(n, ".tf") || strings.HasSuffix(n, ".tf.json") }},
}

// noFixture says why a rule has no fixture of a format.
var noFixture = map[string]string{
	"PVL000 Terraform": "each format's parse errors are tested in its parser's package (parsers/terraform) and the CLI's broken-* goldens",
	"PVL021 Terraform": "reads Prometheus alerting rules (PrometheusRule objects and rule files), which the Terraform loader does not read",
	"PVL023 Terraform": "the rule reads plain YAML manifests only, which kubectl or a GitOps tool applies together so that one silently replaces the other; Terraform manages each object under its own address",
	"PVL024 Terraform": "the loader reads Argo CD and Flux objects from the repository's YAML, where GitOps tools read them; a kubernetes_manifest that creates one is applied by Terraform, not synced from the repository",
	"PVL030 Terraform": "reads a Helm chart's values.yaml: Terraform has no charts (a helm_release's values are the user's, not a chart's interface)",
	"PVL900 Terraform": "suppression comments in Terraform are tested in rules/suppress (testdata/suppress/terraform)",
}

// hasFixture reports whether dir holds a file that match accepts, at any depth.
func hasFixture(t *testing.T, dir string, match func(string) bool) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && match(d.Name()) {
			found = true
		}
		return err
	})
	if err != nil {
		t.Errorf("%s: %v", dir, err)
	}
	return found
}

// TestCatalogue checks the public contract of every rule: a unique ID and kebab-case
// name, the texts users see, an explain page, a default level and a fixture directory.
func TestCatalogue(t *testing.T) {
	ids, names := map[string]bool{}, map[string]bool{}
	for _, r := range rules.All() {
		if !idPattern.MatchString(r.ID) || ids[r.ID] {
			t.Errorf("rule ID %q is malformed or duplicated", r.ID)
		}
		if !namePattern.MatchString(r.Name) || names[r.Name] {
			t.Errorf("%s: name %q is not kebab-case or is duplicated", r.ID, r.Name)
		}
		ids[r.ID], names[r.Name] = true, true
		for field, v := range map[string]string{"Summary": r.Summary, "Description": r.Description, "Remediation": r.Remediation} {
			if v == "" {
				t.Errorf("%s: empty %s", r.ID, field)
			}
		}
		if r.Doc == "" || r.Doc != docs.Page(r.ID) {
			t.Errorf("%s: Doc is not the rules/docs page %s.md", r.ID, r.ID)
		}
		if r.Severity.String() == "none" {
			t.Errorf("%s: no default severity", r.ID)
		}
		if r != rules.ParseError && r != suppress.Problem && (r.Check == nil || len(r.Kinds) == 0) {
			t.Errorf("%s: no Check or no Kinds", r.ID)
		}
		for _, format := range fixtureFormats {
			why, exempt := noFixture[r.ID+" "+format.name]
			has := hasFixture(t, filepath.Join(fixtures, r.ID), format.match)
			switch {
			case !has && !exempt:
				t.Errorf("%s: no %s fixture in %s/%s (add one, or say in noFixture why the rule cannot see that format)", r.ID, format.name, fixtures, r.ID)
			case has && exempt:
				t.Errorf("%s: has a %s fixture but noFixture says %q", r.ID, format.name, why)
			}
		}
		opts := map[string]bool{}
		for _, o := range r.Options {
			if !namePattern.MatchString(o.Name) || opts[o.Name] || o.Usage == "" {
				t.Errorf("%s: option %q is not kebab-case, is duplicated or has no usage", r.ID, o.Name)
			}
			opts[o.Name] = true
			if o.Check != nil && o.Check(o.Default) != nil {
				t.Errorf("%s: option %s's default %q fails its own check", r.ID, o.Name, o.Default)
			}
			if !strings.Contains(r.Doc, "`"+o.Name+"`") {
				t.Errorf("%s: the explain page does not document option %s", r.ID, o.Name)
			}
		}
		if got := rules.Find(r.ID); got != r {
			t.Errorf("Find(%q) = %v", r.ID, got)
		}
		if got := rules.Find(r.Name); got != r {
			t.Errorf("Find(%q) = %v", r.Name, got)
		}
	}
	for _, id := range docs.IDs() {
		if !ids[id] {
			t.Errorf("explain page %s.md belongs to no rule", id)
		}
	}
	// A scaffold (rules/internal/newrule) is not a rule until every text it could not
	// know is written.
	for _, dir := range []string{"storage", "docs", fixtures, filepath.Join("..", "docs")} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(data), "TODO(newrule)") {
				t.Errorf("%s: a scaffold's TODO(newrule) is left", path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestRules runs each rule over its fixture directory.
func TestRules(t *testing.T) {
	for _, r := range rules.All() {
		t.Run(r.ID+"-"+r.Name, func(t *testing.T) {
			linttest.Run(t, filepath.Join(fixtures, r.ID), r)
		})
	}
}

// TestRulesAtTargets runs each PVLnnn@X.Y fixture directory with its rule for target
// version X.Y, and fails on directories that name no rule or are malformed.
func TestRulesAtTargets(t *testing.T) {
	entries, err := os.ReadDir(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || idPattern.MatchString(e.Name()) {
			continue
		}
		m := targetDir.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("fixture directory %s is neither PVLnnn nor PVLnnn@X.Y", e.Name())
			continue
		}
		r := rules.Find(m[1])
		v, err := lint.ParseVersion(m[2])
		if r == nil || err != nil {
			t.Errorf("fixture directory %s: no rule %s or bad version (%v)", e.Name(), m[1], err)
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			linttest.RunAt(t, filepath.Join(fixtures, e.Name()), v, r)
		})
	}
}

// TestParseOption checks RULE.NAME=VALUE parsing: by ID or name, with the rule's own
// validation, and one-line errors for everything else.
func TestParseOption(t *testing.T) {
	r, name, value, err := rules.ParseOption("missing-rwop.min-version=1.27")
	if err != nil || r == nil || r.ID != "PVL005" || name != "min-version" || value != "1.27" {
		t.Errorf("ParseOption = %v %q %q %v", r, name, value, err)
	}
	if _, _, _, err := rules.ParseOption("PVL005.min-version=1.29"); err != nil {
		t.Errorf("by ID: %v", err)
	}
	for s, want := range map[string]string{
		"missing-rwop":                  "want RULE.NAME=VALUE",
		"missing-rwop=1.27":             "want RULE.NAME=VALUE",
		"nope.min-version=1.27":         `unknown rule "nope"`,
		"PVL005.since=1.27":             `has no option "since" (it has min-version)`,
		"PVL002.x=1":                    "has no options",
		"missing-rwop.min-version=1.22": "before 1.27",
	} {
		if _, _, _, err := rules.ParseOption(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseOption(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}

// TestWithCustom: a user's rule joins the catalogue unless it takes an ID or a name
// the catalogue uses, in either role.
func TestWithCustom(t *testing.T) {
	ok := &lint.Rule{ID: "user.main", Name: "main", Policy: "p/main.rego"}
	all, err := rules.WithCustom(rules.All(), []*lint.Rule{ok})
	if err != nil || all[len(all)-1] != ok || len(all) != len(rules.All())+1 {
		t.Fatalf("WithCustom = %d rules, %v", len(all), err)
	}
	if rules.Lookup(all, "USER.MAIN") != ok || rules.Lookup(all, "main") != ok || rules.Lookup(all, "Main") != nil {
		t.Error("Lookup does not find the custom rule by ID (any case) and name (exact)")
	}
	for _, bad := range []*lint.Rule{
		{ID: "ACME001", Name: "immediate-binding", Policy: "p.rego"},
		{ID: "immediate-binding", Name: "x", Policy: "p.rego"},
		{ID: "acme", Name: "pvl001", Policy: "p.rego"},
	} {
		if _, err := rules.WithCustom(rules.All(), []*lint.Rule{bad}); err == nil {
			t.Errorf("%s %s joined the catalogue", bad.ID, bad.Name)
		}
	}
	if _, err := rules.WithCustom(rules.All(), []*lint.Rule{ok, {ID: "user.other", Name: "main"}}); err == nil {
		t.Error("two custom rules share a name")
	}
}

// TestRulesDoc keeps the catalogue of docs/rules.md equal to the rules: its summary
// table has one row per rule with the rule's ID, name and an
// anchor, and each rule has its section (`### PVLnnn name`). The levels and "reported
// on" columns are prose the rule's author writes; the IDs and names are public and
// come from the rule value.
func TestRulesDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, summary, ok := strings.Cut(doc, "### Summary\n")
	if !ok {
		t.Fatal("docs/rules.md has no Summary table")
	}
	summary, _, _ = strings.Cut(summary, "\n\n\n")
	row := regexp.MustCompile(`(?m)^\| \[(PVL\d{3})\]\(#(pvl\d{3})\) \| ([a-z0-9-]+) \|`)
	var got []string
	for _, m := range row.FindAllStringSubmatch(summary, -1) {
		if strings.ToLower(m[1]) != m[2] {
			t.Errorf("docs/rules.md: summary row %s links #%s", m[1], m[2])
		}
		got = append(got, m[1]+" "+m[3])
	}
	var want []string
	for _, r := range rules.All() {
		want = append(want, r.ID+" "+r.Name)
		if !strings.Contains(doc, "\n### "+r.ID+" "+r.Name+"\n") {
			t.Errorf("docs/rules.md has no section `### %s %s`", r.ID, r.Name)
		}
		if !strings.Contains(doc, `<a id="`+strings.ToLower(r.ID)+`"></a>`) {
			t.Errorf("docs/rules.md has no anchor for %s", r.ID)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("docs/rules.md's summary table differs from the catalogue (-want +got):\n%s", d)
	}
}
