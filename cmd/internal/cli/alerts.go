package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/alerts"
)

// alertsFlag is one flag of `pvlint alerts`; alertsFlags is the only place they are
// declared (parsing and help both read it).
type alertsFlag struct {
	Name, Arg, Usage string
	Default          string // shown in help; alerts.Defaults applies it
	// CRDOnly flags set PrometheusRule metadata and are refused with --format rules.
	CRDOnly bool
	Set     func(c *alertsConfig, v string) error
}

// alertsConfig is what `pvlint alerts` was asked for.
type alertsConfig struct {
	format  alerts.Format
	opts    alerts.Options
	crdOnly []string // CRD-only flags given, for the --format rules check
	output  string   // --output: the file to write; "" or "-" is standard output
}

var alertsFlags = []alertsFlag{
	{Name: "format", Arg: "FORMAT", Default: string(alerts.FormatPrometheusRule),
		Usage: "prometheusrule (a monitoring.coreos.com/v1 PrometheusRule) or rules (a plain Prometheus rules file)",
		Set:   func(c *alertsConfig, v string) (err error) { c.format, err = alerts.ParseFormat(v); return err }},
	{Name: "namespace", Arg: "NAME", Default: alerts.Defaults.Namespace, CRDOnly: true,
		Usage: "namespace of the PrometheusRule",
		Set:   func(c *alertsConfig, v string) error { c.opts.Namespace = v; return nonEmpty(v) }},
	{Name: "name", Arg: "NAME", Default: alerts.Defaults.Name, CRDOnly: true,
		Usage: "name of the PrometheusRule",
		Set:   func(c *alertsConfig, v string) error { c.opts.Name = v; return nonEmpty(v) }},
	{Name: "label", Arg: "KEY=VALUE", CRDOnly: true,
		Usage: "label of the PrometheusRule, for the operator's ruleSelector (repeatable)",
		Set: func(c *alertsConfig, v string) error {
			k, val, ok := strings.Cut(v, "=")
			if !ok || k == "" {
				return fmt.Errorf("invalid label %q (want KEY=VALUE, e.g. release=kube-prometheus-stack)", v)
			}
			if c.opts.Labels == nil {
				c.opts.Labels = map[string]string{}
			}
			c.opts.Labels[k] = val
			return nil
		}},
	{Name: "attach-for", Arg: "DURATION", Default: alerts.Defaults.AttachFor,
		Usage: "how long a volume stays attached to a not-Ready node before VolumeAttachedToNotReadyNode fires",
		Set:   func(c *alertsConfig, v string) error { c.opts.AttachFor = v; return nonEmpty(v) }},
	{Name: "container-creating-for", Arg: "DURATION", Default: alerts.Defaults.ContainerCreatingFor,
		Usage: "how long a pod with a claim waits in ContainerCreating before PodStuckContainerCreatingWithVolume fires",
		Set:   func(c *alertsConfig, v string) error { c.opts.ContainerCreatingFor = v; return nonEmpty(v) }},
	{Name: "pending-for", Arg: "DURATION", Default: alerts.Defaults.PendingFor,
		Usage: "how long a claim a pod mounts stays Pending before PersistentVolumeClaimPending fires",
		Set:   func(c *alertsConfig, v string) error { c.opts.PendingFor = v; return nonEmpty(v) }},
	{Name: "runbook-base-url", Arg: "URL", Default: alerts.Defaults.RunbookBaseURL,
		Usage: "prefix of each runbook_url, followed by PVLxxx.md" + alerts.RunbookAnchor,
		Set:   func(c *alertsConfig, v string) error { c.opts.RunbookBaseURL = v; return nonEmpty(v) }},
	{Name: "output", Arg: "FILE",
		Usage: "write the rules to FILE instead of standard output (-o FILE)",
		Set:   func(c *alertsConfig, v string) error { c.output = v; return nonEmpty(v) }},
}

func nonEmpty(v string) error {
	if v == "" {
		return errors.New("empty value")
	}
	return nil
}

// alertsCmd prints the storage alert rule set (package rules/alerts).
func (e *Env) alertsCmd(args []string) int {
	c := &alertsConfig{format: alerts.FormatPrometheusRule}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-h" || a == "--help" || a == "-help" {
			alertsUsage(e.Stdout)
			return ExitOK
		}
		if len(a) < 2 || a[0] != '-' {
			return e.fail(fmt.Errorf("alerts takes no arguments, got %q (see `pvlint alerts --help`)", a))
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := lookupAlertsFlag(name)
		if f == nil {
			return e.fail(fmt.Errorf("unknown flag %s for alerts (see `pvlint alerts --help`)", a))
		}
		if !hasValue {
			if i+1 >= len(args) {
				return e.fail(fmt.Errorf("flag --%s needs a value (%s)", f.Name, f.Arg))
			}
			i++
			value = args[i]
		}
		if err := f.Set(c, value); err != nil {
			return e.fail(fmt.Errorf("--%s: %w", f.Name, err))
		}
		if f.CRDOnly {
			c.crdOnly = append(c.crdOnly, "--"+f.Name)
		}
	}
	if c.format == alerts.FormatRules && len(c.crdOnly) > 0 {
		return e.fail(fmt.Errorf("%s set PrometheusRule metadata, which a plain rules file has not (drop them or use --format prometheusrule)", strings.Join(c.crdOnly, ", ")))
	}
	if err := c.opts.Validate(); err != nil {
		return e.fail(err)
	}
	if c.output == "" || c.output == "-" {
		if err := alerts.Render(e.Stdout, c.format, c.opts); err != nil {
			fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
			return ExitError
		}
		return ExitOK
	}
	var buf bytes.Buffer
	if err := alerts.Render(&buf, c.format, c.opts); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	if err := os.WriteFile(c.output, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	return ExitOK
}

func lookupAlertsFlag(name string) *alertsFlag {
	if name == "o" {
		name = "output"
	}
	for i := range alertsFlags {
		if alertsFlags[i].Name == name {
			return &alertsFlags[i]
		}
	}
	return nil
}

func alertsUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: pvlint alerts [flags]

Print Prometheus alerts for storage outages, built on kube-state-metrics: a volume
still attached to a node that is not Ready, a pod with a claim stuck in
ContainerCreating, and a claim a pod needs stuck Pending. Each alert's runbook_url is
its pvlint explain page. Apply the default output with kubectl apply -f -, or check
the plain file with: pvlint alerts --format rules | promtool check rules /dev/stdin

Flags:
`)
	width := 0
	for _, f := range alertsFlags {
		width = max(width, len(f.Name)+len(f.Arg)+3)
	}
	for _, f := range alertsFlags {
		usage := f.Usage
		if f.Default != "" {
			usage += " (default " + f.Default + ")"
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, "--"+f.Name+" "+f.Arg, usage)
	}
}
