package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// Config is what the command line asks for. Parsing fills it from flagSpecs; the lint
// run reads nothing else.
type Config struct {
	Paths []string // files and directories to lint; "-" is standard input
	// Targets are the reports to write, in order: --format NAME[=FILE], repeatable,
	// with --output as the file of the one format given without one. At most one
	// target writes to standard output (File "").
	Targets       []Target
	Output        string        // --output, as given (already applied to Targets)
	StdinFilename string        // --stdin-filename
	FailOn        lint.Severity // --fail-on; SeverityNone means never
	KubeVersion   lint.Version  // --kube-version
	Namespace     string        // --namespace
	// Enable and Disable are rule IDs or names as given (--enable, --disable), resolved
	// against the catalogue once the custom policies are loaded; an empty Enable means
	// every rule.
	Enable, Disable []string
	NoColor         bool          // --no-color
	Policies        []string      // --policy: directories or files of custom Rego policies
	PolicyTimeout   time.Duration // --policy-timeout: one custom policy's budget per world
	// Gatekeeper is --gatekeeper: evaluate the Gatekeeper ConstraintTemplates and
	// constraints of the inputs and the --policy paths.
	Gatekeeper bool
	// ExploreValues is --explore-values: also render each chart with the switches its
	// values.yaml documents and report what they reach (explore.go).
	ExploreValues bool
	// UnsafeFixes resolves (and with pvlint fix applies) fixes that need more than the
	// edit, such as PVL005's access-mode change, which needs a data migration.
	UnsafeFixes bool
	// Provisioners are the rows --provisioner-class declares, in order (a later row
	// for the same name wins).
	Provisioners []graph.Provisioner
	// Clusters are the platform profiles of --cluster (graph.Platform names or
	// aliases, checked when parsed), in command-line order.
	Clusters []string
	// Context are the cluster snapshot files and directories of --context.
	Context []string
	// Charts are the chart cache directories of --charts (docs/gitops.md).
	Charts []string
	// Repositories are gitops.repositories of the configuration file.
	Repositories []string
	// TerraformVars are --var and --var-file in command-line order: later ones win.
	TerraformVars []terraform.Var
	// Helm holds --values, --set, --set-string, --release-name and --include-tests;
	// its namespace and Kubernetes version come from --namespace and --kube-version.
	Helm helm.Options
	// Limits are the --limit settings in command-line order: a later one wins.
	Limits        []Limit
	ConfigFile    string // --config; "" finds .pvlint.yaml, "none" reads none
	NoInline      bool   // --no-inline-suppressions
	NoGitignore   bool   // --no-gitignore
	Baseline      string // --baseline
	WriteBaseline string // --write-baseline
	// Explicit names the flags given on the command line; they override the
	// configuration file, defaults do not.
	Explicit map[string]bool
	// RuleOptions are --rule-option values by rule and option name (a later value
	// for the same option wins).
	RuleOptions map[*lint.Rule]map[string]string
	// Color is --color: auto (colour the text report on a terminal), always or never.
	Color string
	// Quiet drops the summary line and the notes on standard error (--quiet);
	// Verbose adds where the time went and what was read (--verbose).
	Quiet, Verbose bool
	// FailIfNoObjects makes a run that found no Kubernetes object exit 1.
	FailIfNoObjects bool
	// ShowVersion is --version: print the version instead of linting.
	ShowVersion bool
	// NewFromPatch is --new-from-patch: report only findings on lines the unified
	// diff in this file adds.
	NewFromPatch string
	// NewFromRev is --new-from-rev: report only findings the same run at this Git
	// revision does not have.
	NewFromRev string

	// DryRun is pvlint fix's --dry-run (or --diff): print the changes, write nothing.
	DryRun bool
	// Picture is pvlint graph's --format: the name of a graphFormats drawing.
	Picture string
	// FindingsOnly is pvlint graph's --findings-only.
	FindingsOnly bool
}

// flagSpec is one flag of `pvlint [flags] PATH...`. flagSpecs is the only place a flag
// is declared: parsing, defaults, --help and the flag table of docs/usage.md all come from it.
//
// To add a flag: add a field to Config, append a flagSpec whose Set validates the value
// and stores it (return an error for a bad value: the user gets exit code 2 and a
// one-line message), then read the field where the run needs it (an input-format flag
// in loadOptions, lint.go; every setting is resolved into the run's plan, plan.go), and run `make golden` to refresh docs/usage.md
// table and the help golden file.
type flagSpec struct {
	Name  string // long name, written --name
	Short string // optional one-letter alias, written -x
	// Arg names the value in help ("FORMAT"); "" makes the flag a switch that takes
	// no value (--no-color, or --no-color=false).
	Arg string
	// Default is applied through Set before parsing, and shown in help.
	Default string
	Usage   string // one line, no final period
	// Set validates value and stores it in c. Repeatable flags append.
	Set func(c *Config, value string) error
}

var flagSpecs = []flagSpec{
	{Name: "format", Short: "f", Arg: "FORMAT[=FILE]", Default: "text",
		Usage: "output format: " + formatNames() + " (mermaid and dot: the storage graph of the findings' parts, as pvlint graph --findings-only draws it); repeatable, FORMAT=FILE writes that report to FILE",
		Set: func(c *Config, v string) error {
			name, file, hasFile := strings.Cut(v, "=")
			t := Target{}
			if draw, ok := graphFormats[name]; ok {
				// The findings' storage graph, drawn from the run's own analysis.
				t.Format, t.Draw = output.Format{Name: name}, draw
			} else {
				f, err := output.Lookup(name)
				if err != nil {
					return fmt.Errorf("unknown format %q (want %s)%s", name, formatNames(), didYouMean(name, strings.Split(formatNames(), ", "), quoteFlag))
				}
				t.Format = f
			}
			if hasFile && file == "" {
				return fmt.Errorf("empty file name in %q", v)
			}
			if file == "-" {
				file = "" // standard output, as "-" means everywhere else
			}
			t.File = file
			c.Targets = append(c.Targets, t)
			return nil
		}},
	{Name: "output", Short: "o", Arg: "FILE", Usage: "write the report of the format given without =FILE to FILE instead of standard output (\"-\": standard output)",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty file name")
			}
			c.Output = v
			return nil
		}},
	{Name: "quiet", Short: "q", Usage: "print only the findings: no summary line, no notes on standard error (errors still are)",
		Set: func(c *Config, v string) (err error) { c.Quiet, err = strconv.ParseBool(v); return err }},
	{Name: "verbose", Short: "v", Usage: "say on standard error which configuration file was used, what was read (inputs and objects per format, worlds) and the time of each stage",
		Set: func(c *Config, v string) (err error) { c.Verbose, err = strconv.ParseBool(v); return err }},
	{Name: "stdin-filename", Arg: "NAME", Usage: "name to show for standard input (the path -); with no PATH, reads standard input",
		Set: func(c *Config, v string) error { c.StdinFilename = v; return nil }},
	{Name: "fail-on", Arg: "LEVEL", Default: "warning", Usage: "exit 1 when a finding is at least LEVEL: error, warning, note or never",
		Set: func(c *Config, v string) (err error) {
			if v == "never" || v == "none" { // none: the word other linters use
				c.FailOn = lint.SeverityNone
				return nil
			}
			c.FailOn, err = lint.ParseSeverity(v)
			if err != nil {
				return fmt.Errorf("unknown level %q (want error, warning, note or never)", v)
			}
			return nil
		}},
	{Name: "fail-if-no-objects", Usage: "exit 1 when the inputs hold no Kubernetes object at all (a wrong path, an empty render)",
		Set: func(c *Config, v string) (err error) { c.FailIfNoObjects, err = strconv.ParseBool(v); return err }},
	{Name: "kube-version", Arg: "X.Y", Default: lint.NewestKnown.String(), Usage: "Kubernetes version the manifests are applied to",
		Set: func(c *Config, v string) (err error) { c.KubeVersion, err = lint.ParseVersion(v); return err }},
	{Name: "namespace", Arg: "NAME", Default: "default", Usage: "namespace of resources that set none, as kubectl would apply them",
		Set: func(c *Config, v string) error {
			if !dnsLabel.MatchString(v) {
				return fmt.Errorf("invalid namespace %q (want a lowercase DNS label such as \"default\")", v)
			}
			c.Namespace = v
			return nil
		}},
	{Name: "provisioner-class", Arg: "NAME=KIND", Usage: "declare a provisioner or CSI driver: KIND is attachable (block storage), file (network file storage) or local (node-local disks); repeatable",
		Set: func(c *Config, v string) error {
			row, err := userProvisioner(v)
			if err != nil {
				return err
			}
			c.Provisioners = append(c.Provisioners, row)
			return nil
		}},
	{Name: "cluster", Arg: "NAME", Usage: "the platform the manifests are applied to: the StorageClasses it installs by default resolve claims (pvlint explain clusters lists them: eks, gke, aks, k3s, kind...); repeatable",
		Set: func(c *Config, v string) error {
			if graph.FindPlatform(v) == nil {
				return errors.New(config.UnknownPlatform(v))
			}
			c.Clusters = append(c.Clusters, v)
			return nil
		}},
	{Name: "context", Arg: "PATH", Usage: "read the cluster's objects from the file or directory PATH (kubectl get storageclass,persistentvolume,persistentvolumeclaim,horizontalpodautoscaler -A -o yaml): they resolve claims and classes and are never reported; repeatable",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty path")
			}
			c.Context = append(c.Context, v)
			return nil
		}},
	{Name: "charts", Arg: "DIR", Usage: "read the charts that GitOps releases (Flux HelmReleases, Argo CD Applications) take from Helm and OCI repositories from DIR, as helm pull writes them (NAME-VERSION.tgz) or unpacked; pvlint chart-pulls prints the helm pull lines; repeatable",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty path")
			}
			c.Charts = append(c.Charts, v)
			return nil
		}},
	{Name: "rule-option", Arg: "RULE.NAME=VALUE", Usage: "set an option of a rule (pvlint explain RULE documents them), e.g. missing-rwop.min-version=1.27; repeatable",
		Set: func(c *Config, v string) error {
			r, name, value, err := rules.ParseOption(v)
			if err != nil {
				return err
			}
			if c.RuleOptions == nil {
				c.RuleOptions = map[*lint.Rule]map[string]string{}
			}
			if c.RuleOptions[r] == nil {
				c.RuleOptions[r] = map[string]string{}
			}
			c.RuleOptions[r][name] = value
			return nil
		}},
	{Name: "enable", Arg: "RULES", Usage: "run only these rules: IDs or names, comma-separated, repeatable",
		Set: func(c *Config, v string) error { c.Enable = appendNames(c.Enable, v); return nil }},
	{Name: "disable", Arg: "RULES", Usage: "do not run these rules: IDs or names, comma-separated, repeatable",
		Set: func(c *Config, v string) error { c.Disable = appendNames(c.Disable, v); return nil }},
	{Name: "var", Arg: "NAME=VALUE", Usage: "set a variable of the Terraform root modules; repeatable, the last one wins",
		Set: func(c *Config, v string) error {
			tv, err := terraform.ParseVar(v)
			if err != nil {
				return err
			}
			c.TerraformVars = append(c.TerraformVars, tv)
			return nil
		}},
	{Name: "var-file", Arg: "FILE", Usage: "read Terraform variables from a .tfvars or .tfvars.json file; repeatable",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty file name")
			}
			c.TerraformVars = append(c.TerraformVars, terraform.Var{File: v})
			return nil
		}},
	{Name: "values", Arg: "FILE", Usage: "render Helm charts with this values file instead of their defaults and ci/*-values.yaml; repeatable, later files win",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty file name")
			}
			c.Helm.ValueFiles = append(c.Helm.ValueFiles, v)
			return nil
		}},
	{Name: "set", Arg: "KEY=VALUE", Usage: "set a Helm chart value, as helm template --set does; repeatable",
		Set: func(c *Config, v string) error {
			c.Helm.Set = append(c.Helm.Set, v)
			return helmValue(helm.Options{Set: []string{v}}, v)
		}},
	{Name: "set-string", Arg: "KEY=VALUE", Usage: "set a Helm chart value as a string, as helm template --set-string does; repeatable",
		Set: func(c *Config, v string) error {
			c.Helm.SetString = append(c.Helm.SetString, v)
			return helmValue(helm.Options{SetString: []string{v}}, v)
		}},
	{Name: "release-name", Arg: "NAME", Default: helm.DefaultReleaseName, Usage: "Helm release name charts are rendered with",
		Set: func(c *Config, v string) error {
			c.Helm.ReleaseName = v
			return (helm.Options{ReleaseName: v}).Check()
		}},
	{Name: "no-gitignore", Usage: "also walk the files and directories that .gitignore files ignore",
		Set: func(c *Config, v string) (err error) { c.NoGitignore, err = strconv.ParseBool(v); return err }},
	{Name: "include-tests", Usage: "also lint Helm test hooks (helm.sh/hook: test), which are skipped otherwise",
		Set: func(c *Config, v string) (err error) { c.Helm.IncludeTests, err = strconv.ParseBool(v); return err }},
	{Name: "limit", Arg: "NAME=VALUE", Usage: "change a safety limit on untrusted input, repeatable: " + limitHelp(),
		Set: func(c *Config, v string) error {
			l, err := parseLimit(v)
			if err != nil {
				return err
			}
			c.Limits = append(c.Limits, l)
			return nil
		}},
	{Name: "color", Arg: "WHEN", Default: "auto", Usage: "colour the text output: auto (on a terminal, unless NO_COLOR is set or FORCE_COLOR asks for it anywhere), always or never",
		Set: func(c *Config, v string) error {
			if v != "auto" && v != "always" && v != "never" {
				return fmt.Errorf("unknown value %q (want auto, always or never)", v)
			}
			c.Color = v
			return nil
		}},
	{Name: "no-color", Usage: "never colour the text output, as --color never",
		Set: func(c *Config, v string) (err error) { c.NoColor, err = strconv.ParseBool(v); return err }},
	{Name: "config", Short: "c", Arg: "FILE", Usage: "read settings from FILE instead of the nearest .pvlint.yaml; \"none\" reads none",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty file name (use \"none\" to read no configuration)")
			}
			c.ConfigFile = v
			return nil
		}},
	{Name: "unsafe-fixes", Usage: "also propose (SARIF) and apply (pvlint fix) fixes that need a migration, such as PVL005's ReadWriteOncePod",
		Set: func(c *Config, v string) (err error) { c.UnsafeFixes, err = strconv.ParseBool(v); return err }},
	{Name: "no-inline-suppressions", Usage: "ignore pvlint:ignore comments and ignore.pvlint.io annotations, to audit what they hide",
		Set: func(c *Config, v string) (err error) { c.NoInline, err = strconv.ParseBool(v); return err }},
	{Name: "baseline", Arg: "FILE", Usage: "report only findings that are not in the baseline FILE",
		Set: func(c *Config, v string) error { c.Baseline = v; return nonEmpty(v) }},
	{Name: "write-baseline", Arg: "FILE", Usage: "record the findings in the baseline FILE, then report none of them",
		Set: func(c *Config, v string) error { c.WriteBaseline = v; return nonEmpty(v) }},
	{Name: "new-from-patch", Arg: "FILE", Usage: "report only findings whose location or related locations are on lines the unified diff FILE adds (e.g. git diff main...HEAD)",
		Set: func(c *Config, v string) error { c.NewFromPatch = v; return nonEmpty(v) }},
	{Name: "new-from-rev", Arg: "REV", Usage: "report only findings the same run does not find at Git revision REV (a commit, branch or tag, e.g. origin/main), read from the repository without running git",
		Set: func(c *Config, v string) error { c.NewFromRev = v; return nonEmpty(v) }},
	{Name: "policy", Arg: "DIR", Usage: "also run the custom Rego policies of DIR (a directory or a .rego file; *_test.rego skipped), repeatable",
		Set: func(c *Config, v string) error {
			if v == "" {
				return errors.New("empty path")
			}
			c.Policies = append(c.Policies, v)
			return nil
		}},
	{Name: "gatekeeper", Usage: "also evaluate the Gatekeeper ConstraintTemplates and constraints found in the inputs and --policy paths against every linted resource, as Gatekeeper's audit would",
		Set: func(c *Config, v string) (err error) { c.Gatekeeper, err = strconv.ParseBool(v); return err }},
	{Name: "explore-values", Usage: "also render each chart with the switches its values.yaml documents (persistence, replicas, autoscaling, strategies, access modes), alone and in related pairs, within --limit explore-renders and explore-time, and report as notes the findings only those values reach, with the --set line that reaches them",
		Set: func(c *Config, v string) (err error) { c.ExploreValues, err = strconv.ParseBool(v); return err }},
	{Name: "policy-timeout", Arg: "DURATION", Default: "5s", Usage: "time one custom policy may take over one world (Helm variant or Kustomize build); one that takes longer is a PVL000 at its file",
		Set: func(c *Config, v string) (err error) {
			c.PolicyTimeout, err = time.ParseDuration(v)
			if err == nil && c.PolicyTimeout <= 0 {
				err = fmt.Errorf("%q is not positive", v)
			}
			return err
		}},
	{Name: "version", Usage: "print the version and exit, as pvlint version",
		Set: func(c *Config, v string) (err error) { c.ShowVersion, err = strconv.ParseBool(v); return err }},
}

// helmValue checks one --set or --set-string assignment.
func helmValue(o helm.Options, v string) error {
	if err := o.Check(); err != nil {
		return fmt.Errorf("invalid value %q: %w", v, errors.Unwrap(err))
	}
	return nil
}

// dnsLabel is the RFC 1123 label Kubernetes requires of namespace names.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// userProvisioner reads NAME=KIND into a provisioner table row
// (graph.UserProvisioner), the one shape of a user-declared driver.
func userProvisioner(v string) (graph.Provisioner, error) {
	name, kind, ok := strings.Cut(v, "=")
	name, kind = strings.TrimSpace(name), strings.TrimSpace(kind)
	if !ok || name == "" {
		return graph.Provisioner{}, fmt.Errorf("invalid value %q (want NAME=attachable, NAME=file or NAME=local)", v)
	}
	row, ok := graph.UserProvisioner(name, kind)
	if !ok {
		return graph.Provisioner{}, fmt.Errorf("unknown kind %q for %s (want attachable, file or local)", kind, name)
	}
	return row, nil
}

// fixFlagSpecs are the flags of `pvlint fix`: its own, then every flag of a lint run.
var fixFlagSpecs = append([]flagSpec{
	{Name: "dry-run", Usage: "print the changes as a unified diff and write nothing", Set: setDryRun},
	{Name: "diff", Usage: "same as --dry-run", Set: setDryRun},
}, flagSpecs...)

func setDryRun(c *Config, v string) (err error) { c.DryRun, err = strconv.ParseBool(v); return err }

// graphFlagSpecs are the flags of `pvlint graph`: its own, then every flag of a lint
// run but --format, which here names the picture instead of a report.
var graphFlagSpecs = append([]flagSpec{
	{Name: "format", Short: "f", Arg: "mermaid or dot", Default: "mermaid", Usage: "the picture: mermaid (GitHub and GitLab render it in Markdown) or dot (Graphviz)",
		Set: func(c *Config, v string) error {
			if _, ok := graphFormats[v]; !ok {
				return fmt.Errorf("unknown graph format %q (want mermaid or dot)", v)
			}
			c.Picture = v
			return nil
		}},
	{Name: "findings-only", Usage: "draw only the connected parts with a finding; nothing at all when none has",
		Set: func(c *Config, v string) (err error) { c.FindingsOnly, err = strconv.ParseBool(v); return err }},
}, slices.DeleteFunc(slices.Clone(flagSpecs), func(s flagSpec) bool { return s.Name == "format" })...)
