package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/kustomize"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/parsers/terraform"
)

// limitSpec is one safety limit --limit NAME=VALUE sets. The defaults are generous
// for real repositories and small for attacks (.github/SECURITY.md); an input over a
// limit is a PVL000 finding at that input and the other inputs are still linted.
type limitSpec struct {
	Name    string
	Size    bool   // VALUE is a byte size (1048576, 64KiB, 32MiB, 1GiB)
	Time    bool   // VALUE is a duration (20s, 1m); else VALUE is a count
	Default int64  // shown in help
	Max     int64  // the largest value accepted, when not the 32-bit bound of sizes and counts
	Usage   string // what is bounded
	apply   func(o *load.Options, n int64)
}

var limitSpecs = []limitSpec{
	{Name: "file-size", Size: true, Default: load.DefaultMaxFileSize, Usage: "bytes of one file or standard input",
		apply: func(o *load.Options, n int64) { o.MaxFileSize = n }},
	{Name: "yaml-nodes", Default: int64(manifest.DefaultLimits.MaxNodes), Usage: "nodes of one YAML document after aliases are expanded",
		apply: func(o *load.Options, n int64) { o.Limits.MaxNodes = int(n) }},
	{Name: "yaml-depth", Default: int64(manifest.DefaultLimits.MaxDepth), Usage: "nesting depth of a YAML document",
		apply: func(o *load.Options, n int64) { o.Limits.MaxDepth = int(n) }},
	{Name: "yaml-expanded-size", Size: true, Default: int64(manifest.DefaultLimits.MaxBytes), Usage: "bytes of the scalars of one YAML document after aliases are expanded",
		apply: func(o *load.Options, n int64) { o.Limits.MaxBytes = int(n) }},
	{Name: "documents", Default: int64(manifest.DefaultLimits.MaxDocs), Usage: "YAML documents in one file",
		apply: func(o *load.Options, n int64) { o.Limits.MaxDocs = int(n) }},
	{Name: "helm-render-time", Time: true, Default: int64(helm.DefaultTimeout), Usage: "time to render one chart variant",
		apply: func(o *load.Options, n int64) { o.Helm.Timeout = time.Duration(n) }},
	{Name: "explore-renders", Default: helm.DefaultExploreRenders, Usage: "renders of one chart's values combinations with --explore-values",
		apply: func(o *load.Options, n int64) {
			if o.Helm.Explore != nil {
				o.Helm.Explore.MaxRenders = int(n)
			}
		}},
	{Name: "explore-time", Time: true, Default: int64(helm.DefaultExploreTime), Usage: "time spent exploring one chart's values with --explore-values",
		apply: func(o *load.Options, n int64) {
			if o.Helm.Explore != nil {
				o.Helm.Explore.MaxTime = time.Duration(n)
			}
		}},
	{Name: "helm-output-size", Size: true, Default: helm.DefaultMaxOutput, Usage: "bytes one chart variant renders to",
		apply: func(o *load.Options, n int64) { o.Helm.MaxOutput = n }},
	{Name: "kustomize-output-size", Size: true, Default: kustomize.DefaultMaxOutput, Usage: "bytes one kustomize build outputs",
		apply: func(o *load.Options, n int64) { o.MaxKustomizeOutput = n }},
	{Name: "terraform-instances", Default: terraform.DefaultMaxInstances, Usage: "instances one Terraform count or for_each expands to",
		apply: func(o *load.Options, n int64) { o.Terraform.MaxInstances = int(n) }},
	{Name: "eval-memory", Size: true, Default: load.DefaultBudgets.Eval.Memory, Max: 1 << 40, Usage: "memory of one chart render, kustomize build or Terraform evaluation, each in a worker process",
		apply: func(o *load.Options, n int64) { o.Budgets.Eval.Memory = n }},
	{Name: "eval-time", Time: true, Default: int64(load.DefaultBudgets.Eval.Wall), Usage: "time of one kustomize build or Terraform evaluation in a worker process",
		apply: func(o *load.Options, n int64) { o.Budgets.Eval.Wall = time.Duration(n) }},
	{Name: "run-memory", Size: true, Default: load.DefaultBudgets.Run, Max: 1 << 40, Usage: "memory of all worker processes together, which sets how many run at once",
		apply: func(o *load.Options, n int64) { o.Budgets.Run = n }},
	{Name: "policy-memory", Size: true, Default: DefaultPolicyMemory, Max: 1 << 40, Usage: "memory of the worker process that evaluates a custom policy or Gatekeeper template",
		apply: func(*load.Options, int64) {}}, // read by the policy compiler (limitValue)
	{Name: "run-time", Time: true, Default: int64(DefaultRunTime), Usage: "time of the whole run; what is not linted by then is a PVL000 each and the exit code is 3",
		apply: func(*load.Options, int64) {}}, // read when the run begins (runTime)
	{Name: "terraform-module-depth", Default: terraform.DefaultMaxModuleDepth, Usage: "nesting of Terraform module calls",
		apply: func(o *load.Options, n int64) { o.Terraform.MaxModuleDepth = int(n) }},
}

// DefaultRunTime is the run's time budget unless --limit run-time says otherwise.
// Real repositories lint in seconds (docs/performance.md: 10k objects in
// seconds, 100k in a few minutes on a shared machine), and per-input limits let a
// single hostile input cost a minute or two (a chart's helm-render-time per variant, a
// module's eval-time, a policy's --policy-timeout per world); but two dozen such
// inputs together would hold a CI job for tens of minutes. Ten minutes is above any
// honest run, below the patience of a CI step, and leaves the job time to upload what
// was linted (docs/limits.md).
const DefaultRunTime = 10 * time.Minute

// runTime is the run's time budget: --limit run-time, else DefaultRunTime.
func runTime(limits []Limit) time.Duration {
	if v := limitValue(limits, "run-time"); v > 0 {
		return time.Duration(v)
	}
	return DefaultRunTime
}

// Limit is one --limit setting.
type Limit struct {
	spec  *limitSpec
	Value int64
}

// Name is the limit's name, as written on the command line.
func (l Limit) Name() string { return l.spec.Name }

// parseLimit reads NAME=VALUE.
func parseLimit(v string) (Limit, error) {
	name, value, ok := strings.Cut(v, "=")
	if !ok {
		return Limit{}, fmt.Errorf("invalid value %q (want NAME=VALUE, NAME one of %s)", v, limitNames())
	}
	for i := range limitSpecs {
		s := &limitSpecs[i]
		if s.Name != strings.TrimSpace(name) {
			continue
		}
		n, err := parseLimitValue(strings.TrimSpace(value), s)
		if err != nil {
			return Limit{}, fmt.Errorf("limit %s: %w", s.Name, err)
		}
		return Limit{spec: s, Value: n}, nil
	}
	return Limit{}, fmt.Errorf("unknown limit %q (want one of %s)", name, limitNames())
}

// sizeUnits are the suffixes a byte size may carry.
var sizeUnits = []struct {
	suffix string
	factor int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}}

// maxLimit keeps every count representable as an int on any platform Go supports.
// maxSize bounds every byte size: graph.Pos records lines, columns and byte offsets
// as int32, so no file, standard input or rendered Helm or Kustomize output that
// pvlint parses may be longer than math.MaxInt32 bytes (2 GiB less one byte).
const (
	maxLimit = math.MaxInt32
	maxSize  = math.MaxInt32
)

func parseLimitValue(v string, s *limitSpec) (int64, error) {
	if s.Time {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("invalid value %q (want a positive duration such as 30s or 2m)", v)
		}
		return int64(d), nil
	}
	size := s.Size
	factor := int64(1)
	if size {
		for _, u := range sizeUnits {
			if num, ok := strings.CutSuffix(v, u.suffix); ok {
				v, factor = strings.TrimSpace(num), u.factor
				break
			}
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	want := "a positive whole number"
	if size {
		want = "a positive number of bytes, optionally with KiB, MiB or GiB"
	}
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid value %q (want %s)", v, want)
	}
	limit := int64(maxLimit)
	if size {
		limit = maxSize
	}
	if s.Max > 0 {
		limit = s.Max
	}
	if n > limit/factor {
		if s.Max > 0 {
			return 0, fmt.Errorf("value %q is too large (at most %d bytes)", v, s.Max)
		}
		if size {
			return 0, fmt.Errorf("value %q is too large (at most %d bytes: positions in a file are 32-bit)", v, limit)
		}
		return 0, fmt.Errorf("value %q is too large", v)
	}
	return n * factor, nil
}

func limitNames() string {
	names := make([]string, len(limitSpecs))
	for i, s := range limitSpecs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// limitHelp describes every limit and its default, for --help.
func limitHelp() string {
	parts := make([]string, len(limitSpecs))
	for i, s := range limitSpecs {
		d := strconv.FormatInt(s.Default, 10)
		if s.Time {
			d = time.Duration(s.Default).String()
		}
		if s.Size && s.Default%(1<<20) == 0 {
			d = strconv.FormatInt(s.Default>>20, 10) + "MiB"
		}
		parts[i] = fmt.Sprintf("%s (%s, default %s)", s.Name, s.Usage, d)
	}
	return strings.Join(parts, "; ")
}

// applyLimits sets the limits of the command line on the loader's options.
func applyLimits(o *load.Options, limits []Limit) {
	for _, l := range limits {
		l.spec.apply(o, l.Value)
	}
}
