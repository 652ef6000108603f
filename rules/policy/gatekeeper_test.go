package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// echoTemplate reports, for every object its constraint matches, the review and
// parameters it was given, so that tests read what a template sees.
const echoTemplate = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: echo
spec:
  crd:
    spec:
      names:
        kind: Echo
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package echo

        violation[{"msg": msg}] {
          r := input.review
          msg := sprintf("%v|%v|%v|%v|%v|%v", [r.kind, r.name, object.get(r, "namespace", "-"), r.operation, input.parameters, r.object.metadata.name])
        }
`

func parseObjects(t *testing.T, file, src string) []*graph.Resource {
	t.Helper()
	rs, ds := manifest.Parse(file, []byte(src), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("parse %s: %v", file, ds)
	}
	return rs
}

// runGatekeeper compiles templates and constraints and runs every constraint over
// the objects, returning "rule level message" lines.
func runGatekeeper(t *testing.T, policies, objects string, opts GatekeeperOptions) ([]string, []GatekeeperProblem) {
	t.Helper()
	if opts.Isolate == nil {
		opts.Isolate = testIsolate
	}
	rules, problems := Gatekeeper(parseObjects(t, "policies.yaml", policies), opts)
	g := graph.New(parseObjects(t, "objects.yaml", objects), graph.Options{})
	var out []string
	for _, r := range rules {
		p := lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) {
			out = append(out, fmt.Sprintf("%s %s %s", f.Rule.ID, f.Severity, f.Message))
		})
		r.Check(p)
		if errs := p.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", r.ID, errs)
		}
	}
	return out, problems
}

const matchObjects = `apiVersion: v1
kind: Namespace
metadata: {name: prod, labels: {env: prod}}
---
apiVersion: v1
kind: Namespace
metadata: {name: kube-system}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: prod, labels: {tier: db}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: dev, labels: {tier: cache}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: kube-system}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: ebs.csi.aws.com
`

// TestGatekeeperMatch: spec.match selects objects as Gatekeeper's match does.
func TestGatekeeperMatch(t *testing.T) {
	cases := []struct {
		name, match string
		want        []string // metadata.name of the matched objects
	}{
		{"no match: everything", ``, []string{"prod", "kube-system", "data", "cache", "web", "fast-ssd"}},
		{"kinds", `kinds: [{apiGroups: [""], kinds: [PersistentVolumeClaim]}]`, []string{"data", "cache"}},
		{"kinds any group", `kinds: [{apiGroups: ["*"], kinds: [Deployment, StorageClass]}]`, []string{"web", "fast-ssd"}},
		{"kinds wrong group", `kinds: [{apiGroups: [extensions], kinds: [Deployment]}]`, nil},
		{"kinds without kinds", `kinds: [{apiGroups: [storage.k8s.io]}]`, []string{"fast-ssd"}},
		{"scope cluster", `scope: Cluster`, []string{"prod", "kube-system", "fast-ssd"}},
		{"scope namespaced", `scope: Namespaced`, []string{"data", "cache", "web"}},
		{"namespaces: Namespaces by name, cluster-scoped untouched", `namespaces: [prod]`, []string{"prod", "data", "fast-ssd"}},
		{"namespaces prefix glob", `namespaces: ["kube-*"]`, []string{"kube-system", "web", "fast-ssd"}},
		{"namespaces suffix glob", `namespaces: ["*-system"]`, []string{"kube-system", "web", "fast-ssd"}},
		{"excludedNamespaces", `excludedNamespaces: ["kube-*", dev]`, []string{"prod", "data", "fast-ssd"}},
		{"name glob", `name: "fast-*"`, []string{"fast-ssd"}},
		{"labelSelector matchLabels", `labelSelector: {matchLabels: {tier: db}}`, []string{"data"}},
		{"labelSelector In", `labelSelector: {matchExpressions: [{key: tier, operator: In, values: [db, cache]}]}`, []string{"data", "cache"}},
		{"labelSelector NotIn", `labelSelector: {matchExpressions: [{key: tier, operator: NotIn, values: [db]}]}`, []string{"prod", "kube-system", "cache", "web", "fast-ssd"}},
		{"labelSelector Exists", `labelSelector: {matchExpressions: [{key: env, operator: Exists}]}`, []string{"prod"}},
		{"labelSelector DoesNotExist", `labelSelector: {matchExpressions: [{key: tier, operator: DoesNotExist}]}`, []string{"prod", "kube-system", "web", "fast-ssd"}},
		// dev has no Namespace object: its labels are unknown, its claim not matched.
		{"namespaceSelector", `namespaceSelector: {matchLabels: {env: prod}}`, []string{"prod", "data", "fast-ssd"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			match := ""
			if tc.match != "" {
				match = "  match: {" + strings.Trim(tc.match, "{}") + "}\n"
				if !strings.HasPrefix(tc.match, "{") {
					match = "  match:\n    " + tc.match + "\n"
				}
			}
			constraint := "---\napiVersion: constraints.gatekeeper.sh/v1beta1\nkind: Echo\nmetadata: {name: c}\nspec:\n" + match
			got, problems := runGatekeeper(t, echoTemplate+constraint, matchObjects, GatekeeperOptions{})
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			var names []string
			for _, g := range got {
				names = append(names, g[strings.LastIndex(g, "|")+1:])
			}
			if !slices.Equal(names, tc.want) {
				t.Errorf("matched %v, want %v", names, tc.want)
			}
		})
	}
}

// TestGatekeeperInput: input.review and input.parameters as Gatekeeper's audit gives
// them, and enforcementAction as the level.
func TestGatekeeperInput(t *testing.T) {
	constraints := `---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: deny-by-default}
spec:
  match: {kinds: [{apiGroups: [""], kinds: [PersistentVolumeClaim]}]}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: warn}
spec:
  enforcementAction: warn
  match: {kinds: [{apiGroups: [storage.k8s.io], kinds: [StorageClass]}]}
  parameters: {max: 3, names: [a]}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: dryrun}
spec:
  enforcementAction: dryrun
  match: {name: web}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: scoped}
spec:
  enforcementAction: scoped
  scopedEnforcementActions:
    - {action: deny, enforcementPoints: [{name: validation.gatekeeper.sh}]}
    - {action: warn, enforcementPoints: [{name: audit.gatekeeper.sh}]}
  match: {name: prod}
`
	got, problems := runGatekeeper(t, echoTemplate+constraints, matchObjects, GatekeeperOptions{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := []string{
		`Echo/deny-by-default error {"group": "", "kind": "PersistentVolumeClaim", "version": "v1"}|data|prod|CREATE|{}|data`,
		`Echo/deny-by-default error {"group": "", "kind": "PersistentVolumeClaim", "version": "v1"}|cache|dev|CREATE|{}|cache`,
		`Echo/dryrun note {"group": "apps", "kind": "Deployment", "version": "v1"}|web|kube-system|CREATE|{}|web`,
		`Echo/scoped warning {"group": "", "kind": "Namespace", "version": "v1"}|prod|-|CREATE|{}|prod`,
		`Echo/warn warning {"group": "storage.k8s.io", "kind": "StorageClass", "version": "v1"}|fast-ssd|-|CREATE|{"max": 3, "names": ["a"]}|fast-ssd`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGatekeeperInventory: data.inventory holds the graph's resources and the
// context's, the graph's winning on a shared key; a lib is compiled with its template.
func TestGatekeeperInventory(t *testing.T) {
	policies := `apiVersion: templates.gatekeeper.sh/v1beta1
kind: ConstraintTemplate
metadata: {name: knownclass}
spec:
  crd: {spec: {names: {kind: KnownClass}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package knownclass
        import data.lib.classes.provisioner
        violation[{"msg": msg}] {
          name := input.review.object.spec.storageClassName
          msg := sprintf("%v: %v", [name, provisioner(name)])
        }
      libs:
        - |
          package lib.classes
          provisioner(name) = p {
            p := data.inventory.cluster["storage.k8s.io/v1"].StorageClass[name].provisioner
          } else = "not in the inventory"
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: KnownClass
metadata: {name: c}
spec:
  match: {kinds: [{apiGroups: [""], kinds: [PersistentVolumeClaim]}]}
`
	objects := `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: from.the.graph
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: a}
spec: {storageClassName: local}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: b}
spec: {storageClassName: premium-rwo}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c}
spec: {storageClassName: missing}
`
	context := parseObjects(t, "context.yaml", `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: premium-rwo}
provisioner: pd.csi.storage.gke.io
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: from.the.context
`)
	got, _ := runGatekeeper(t, policies, objects, GatekeeperOptions{Context: context})
	want := []string{
		"KnownClass/c error local: from.the.graph",
		"KnownClass/c error premium-rwo: pd.csi.storage.gke.io",
		"KnownClass/c error missing: not in the inventory",
	}
	if !slices.Equal(got, want) {
		t.Errorf("with context: got %q, want %q", got, want)
	}
	got, _ = runGatekeeper(t, policies, objects, GatekeeperOptions{})
	if want[1] = "KnownClass/c error premium-rwo: not in the inventory"; !slices.Equal(got, want) {
		t.Errorf("without context: got %q, want %q", got, want)
	}
}

// TestGatekeeperProblems: what cannot be evaluated is a problem at its place, once.
func TestGatekeeperProblems(t *testing.T) {
	policies := `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: network}
spec:
  crd: {spec: {names: {kind: Network}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package network

        violation[{"msg": "x"}] {
          opa.runtime().env.HOME
        }
---
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: badlib}
spec:
  crd: {spec: {names: {kind: BadLib}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: "package badlib\nviolation[{\"msg\": \"x\"}] { true }"
      libs:
        - |
          package lib.bad

          f(x) = y {
            y := x +
          }
---
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: cel}
spec:
  crd: {spec: {names: {kind: Cel}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
        - engine: K8sNativeValidation
          source: {validations: [{expression: "true"}]}
---
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: noviolation}
spec:
  crd: {spec: {names: {kind: NoViolation}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package noviolation
        deny[msg] { msg := "x" }
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Cel
metadata: {name: one}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Cel
metadata: {name: two}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Orphan
metadata: {name: o}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Network
metadata: {name: n}
spec:
  enforcementAction: block
`
	rules, problems := Gatekeeper(parseObjects(t, "policies.yaml", policies), GatekeeperOptions{})
	if len(rules) != 0 {
		t.Errorf("rules %v, want none", rules)
	}
	var got []string
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s %v %s", p.Range, p.Unsupported, p.Message))
	}
	want := []string{
		"policies.yaml:12:11 false ConstraintTemplate network: rego_type_error: undefined function opa.runtime (pvlint denies builtin opa.runtime: it reads the process's environment; policies run without network, file system or the process's environment)",
		"policies.yaml:29:11 false ConstraintTemplate badlib: rego_parse_error: unexpected } token",
		"policies.yaml:33:12 true ConstraintTemplate cel: its only code is K8sNativeValidation (CEL), which pvlint does not evaluate; its constraints are not checked (add a Rego version of the template to check them)",
		"policies.yaml:50:9 false ConstraintTemplate noviolation: package noviolation has no violation rule: Gatekeeper reports violation[{\"msg\": ...}]",
		"policies.yaml:62:1 false constraint Orphan/o: no ConstraintTemplate defines kind Orphan in the inputs or the --policy paths",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A constraint pvlint cannot read is a problem at the field, its template fine.
	bad := `---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: block}
spec:
  enforcementAction: block
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: everywhere}
spec:
  match: {scope: Everywhere}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Echo
metadata: {name: like}
spec:
  match: {labelSelector: {matchExpressions: [{key: a, operator: Like}]}}
`
	rules, problems = Gatekeeper(parseObjects(t, "policies.yaml", echoTemplate+bad), GatekeeperOptions{})
	got = nil
	for _, p := range problems {
		got = append(got, fmt.Sprintf("%s %s", p.Range, p.Message))
	}
	want = []string{
		`policies.yaml:24:22 constraint Echo/block: enforcementAction "block" is none of deny, warn, dryrun, scoped`,
		`policies.yaml:30:18 constraint Echo/everywhere: match.scope "Everywhere" is none of *, Cluster, Namespaced`,
		`policies.yaml:36:55 constraint Echo/like: selector operator "Like" is none of In, NotIn, Exists, DoesNotExist`,
	}
	if len(rules) != 0 || !slices.Equal(got, want) {
		t.Errorf("rules %v, problems\n%s\nwant\n%s", rules, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGatekeeperBudget: a constraint past its time budget fails with an *EvalError at
// its template, as a custom policy does.
func TestGatekeeperBudget(t *testing.T) {
	policies := `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: loop}
spec:
  crd: {spec: {names: {kind: Loop}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package loop
        violation[{"msg": "never"}] {
          i := numbers.range(1, 100000)[_]
          j := numbers.range(1, 100000)[_]
          i == j + 100000
        }
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: Loop
metadata: {name: forever}
`
	rules, problems := Gatekeeper(parseObjects(t, "policies.yaml", policies), GatekeeperOptions{Budget: 50 * time.Millisecond, Isolate: testIsolate})
	if len(rules) != 1 || len(problems) != 0 {
		t.Fatalf("rules %v, problems %v", rules, problems)
	}
	p := lint.NewPass(rules[0], graph.New(parseObjects(t, "objects.yaml", matchObjects), graph.Options{}), lint.NewestKnown, func(lint.Finding) {})
	start := time.Now()
	rules[0].Check(p)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("stopped after %s, want near 50ms", elapsed)
	}
	var ee *EvalError
	if errs := p.Errors(); len(errs) != 1 || !errors.As(errs[0], &ee) || ee.Budget != 50*time.Millisecond {
		t.Fatalf("errors %v, want one *EvalError with the budget", errs)
	}
	if ee.At.String() != "policies.yaml:3:12" || ee.File != "policies.yaml" || ee.Rule.ID != "Loop/forever" {
		t.Errorf("error at %s in %s for %s", ee.At, ee.File, ee.Rule.ID)
	}
}
