// Package alerts is the Prometheus alert rule set that `pvlint alerts` prints: the
// runtime half of pvlint. Static checks stop most Multi-Attach outages before they
// ship, but a node can still die under a single-writer volume; these alerts page
// within minutes, before the attach/detach controller's 6-minute force-detach, and
// each links to the pvlint explain page that is its runbook.
//
// Every expression uses only kube-state-metrics series and labels that exist
// (rules/promql's table), joins with explicit group_left/group_right so a node with
// several attachments does not break evaluation, and filters with `== 1` rather than
// multiplying by a `== 0` filter. The rules are unit-tested with promtool (see
// alerts_test.go and testdata/alerts/).
//
// The package is data and rendering only; the CLI owns the flags.
package alerts

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
)

// Options configure the generated rule set. The zero value of each field means its
// default (see Defaults).
type Options struct {
	// Namespace and Name are the PrometheusRule's metadata (ignored for plain rules files).
	Namespace string
	Name      string
	// Labels go on the PrometheusRule's metadata.labels, so the Prometheus operator's
	// ruleSelector picks the rule up (e.g. release=kube-prometheus-stack).
	Labels map[string]string
	// AttachFor is how long a VolumeAttachment must stay on a not-Ready node before
	// VolumeAttachedToNotReadyNode fires. Prometheus duration syntax ("2m").
	AttachFor string
	// ContainerCreatingFor is how long a pod that mounts a claim must wait in
	// ContainerCreating before PodStuckContainerCreatingWithVolume fires.
	ContainerCreatingFor string
	// PendingFor is how long a claim that a pod mounts must stay Pending before
	// PersistentVolumeClaimPending fires.
	PendingFor string
	// RunbookBaseURL is prefixed to "<rule ID>.md#alert-and-runbook" to form each
	// alert's runbook_url; it should end in "/".
	RunbookBaseURL string
}

// Defaults are the values used for fields left empty.
var Defaults = Options{
	Namespace:            "monitoring",
	Name:                 "pvlint-storage",
	AttachFor:            "2m",
	ContainerCreatingFor: "5m",
	PendingFor:           "15m",
	RunbookBaseURL:       "https://github.com/pvlint/pvlint/blob/main/rules/docs/",
}

// RunbookAnchor is the heading anchor of the explain pages' "Alert and runbook" section.
const RunbookAnchor = "#alert-and-runbook"

// GroupName is the name of the one rule group.
const GroupName = "pvlint-storage"

// Rule is one alerting rule, in the order its fields are printed.
type Rule struct {
	Alert       string
	Expr        string
	For         string
	Labels      [][2]string // ordered key/value pairs
	Annotations [][2]string
	// RuleID is the pvlint rule whose explain page is the runbook.
	RuleID string
}

// withDefaults fills empty fields from Defaults.
func (o Options) withDefaults() Options {
	d := Defaults
	if o.Namespace != "" {
		d.Namespace = o.Namespace
	}
	if o.Name != "" {
		d.Name = o.Name
	}
	if o.AttachFor != "" {
		d.AttachFor = o.AttachFor
	}
	if o.ContainerCreatingFor != "" {
		d.ContainerCreatingFor = o.ContainerCreatingFor
	}
	if o.PendingFor != "" {
		d.PendingFor = o.PendingFor
	}
	if o.RunbookBaseURL != "" {
		d.RunbookBaseURL = o.RunbookBaseURL
	}
	d.Labels = o.Labels
	return d
}

var (
	dns1123Label     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	dns1123Subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	labelName        = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	labelValue       = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)
)

// Validate reports the first invalid option, in the words a user of the flags needs.
func (o Options) Validate() error {
	o = o.withDefaults()
	if len(o.Namespace) > 63 || !dns1123Label.MatchString(o.Namespace) {
		return fmt.Errorf("invalid namespace %q: want a DNS-1123 label (lower-case letters, digits and '-')", o.Namespace)
	}
	if len(o.Name) > 253 || !dns1123Subdomain.MatchString(o.Name) {
		return fmt.Errorf("invalid name %q: want a DNS-1123 subdomain (lower-case letters, digits, '-' and '.')", o.Name)
	}
	for _, k := range sortedKeys(o.Labels) {
		if err := validLabel(k, o.Labels[k]); err != nil {
			return err
		}
	}
	for _, d := range []struct{ flag, v string }{
		{"attach", o.AttachFor}, {"container-creating", o.ContainerCreatingFor}, {"pending", o.PendingFor},
	} {
		v, err := model.ParseDuration(d.v)
		if err != nil {
			return fmt.Errorf("invalid %s duration %q: want a Prometheus duration such as 2m or 1h30m", d.flag, d.v)
		}
		if v <= 0 {
			return fmt.Errorf("invalid %s duration %q: must be longer than zero", d.flag, d.v)
		}
	}
	u, err := url.Parse(o.RunbookBaseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("invalid runbook base URL %q: want an absolute http(s) URL", o.RunbookBaseURL)
	}
	return nil
}

// validLabel checks a Kubernetes label: an optional DNS-subdomain prefix and a name.
func validLabel(k, v string) error {
	name := k
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if len(prefix) > 253 || !dns1123Subdomain.MatchString(prefix) {
			return fmt.Errorf("invalid label key %q: the prefix must be a DNS subdomain", k)
		}
	}
	if len(name) > 63 || !labelName.MatchString(name) {
		return fmt.Errorf("invalid label key %q: want a name of letters, digits, '-', '_' and '.' (at most 63)", k)
	}
	if len(v) > 63 || !labelValue.MatchString(v) {
		return fmt.Errorf("invalid value %q for label %q: want letters, digits, '-', '_' and '.' (at most 63)", v, k)
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// normalDuration prints a valid Prometheus duration the way Prometheus does ("120s" → "2m").
func normalDuration(s string) string {
	d, err := model.ParseDuration(s)
	if err != nil {
		return s
	}
	return d.String()
}

// Rules returns the alerting rules for opts, which must be valid (see Validate).
func Rules(opts Options) []Rule {
	o := opts.withDefaults()
	runbook := func(id string) string { return o.RunbookBaseURL + id + ".md" + RunbookAnchor }
	attachFor, creatingFor, pendingFor := normalDuration(o.AttachFor), normalDuration(o.ContainerCreatingFor), normalDuration(o.PendingFor)
	return []Rule{
		{
			Alert:  "VolumeAttachedToNotReadyNode",
			Expr:   exprAttachedToNotReadyNode,
			For:    attachFor,
			RuleID: "PVL017",
			Labels: [][2]string{{"severity", "critical"}},
			Annotations: [][2]string{
				{"summary", "Volume {{ $labels.volumename }} is still attached to node {{ $labels.node }}, which is not Ready."},
				{"description", "VolumeAttachment {{ $labels.volumeattachment }} ({{ $labels.attacher }}) holds PersistentVolume {{ $labels.volumename }}" +
					"{{ if $labels.persistentvolumeclaim }} of claim {{ $labels.namespace }}/{{ $labels.persistentvolumeclaim }}{{ end }}" +
					" on node {{ $labels.node }}, which has not been Ready (or no longer exists) for " + attachFor + ". " +
					"Pods that need the volume cannot start on another node until it is detached, and the controller force-detaches only after 6 minutes. " +
					"If the node is down, taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute."},
				{"runbook_url", runbook("PVL017")},
			},
		},
		{
			Alert:  "PodStuckContainerCreatingWithVolume",
			Expr:   exprContainerCreating,
			For:    creatingFor,
			RuleID: "PVL003",
			Labels: [][2]string{{"severity", "warning"}},
			Annotations: [][2]string{
				{"summary", "Pod {{ $labels.namespace }}/{{ $labels.pod }} on node {{ $labels.node }} is stuck in ContainerCreating with claim {{ $labels.persistentvolumeclaim }}."},
				{"description", "Pod {{ $labels.namespace }}/{{ $labels.pod }} has waited in ContainerCreating on node {{ $labels.node }} for " + creatingFor +
					" and mounts claim {{ $labels.namespace }}/{{ $labels.persistentvolumeclaim }} (volume {{ $labels.volumename }}). " +
					"kube-state-metrics exports no attach or mount events: look for Multi-Attach or FailedMount in kubectl describe pod " +
					"(ContainerCreating can also be a network or sandbox problem)."},
				{"runbook_url", runbook("PVL003")},
			},
		},
		{
			Alert:  "PersistentVolumeClaimPending",
			Expr:   exprClaimPending,
			For:    pendingFor,
			RuleID: "PVL011",
			Labels: [][2]string{{"severity", "warning"}},
			Annotations: [][2]string{
				{"summary", "Claim {{ $labels.namespace }}/{{ $labels.persistentvolumeclaim }} is Pending and pod {{ $labels.pod }} needs it."},
				{"description", "PersistentVolumeClaim {{ $labels.namespace }}/{{ $labels.persistentvolumeclaim }} (class {{ $labels.storageclass }}) has been Pending for " + pendingFor +
					" while pod {{ $labels.namespace }}/{{ $labels.pod }} mounts it. A WaitForFirstConsumer claim binds only once its pod is scheduled " +
					"(a pod with nodeName never is); otherwise provisioning failed: check kubectl describe pvc."},
				{"runbook_url", runbook("PVL011")},
			},
		},
	}
}

// exprAttachedToNotReadyNode: one series per attached VolumeAttachment whose node is
// not Ready or gone, labelled with the node, the PV and (when one exists) its claim.
// kube_volumeattachment_info carries only volumeattachment, attacher and node; the
// attachment state is kube_volumeattachment_status_attached and the PV is
// kube_volumeattachment_spec_source_persistentvolume (volumename). Migrated inline
// volumes have no PV and are labelled volumename="inline". max by() removes duplicate
// series while two kube-state-metrics pods are scraped during a rollout.
const exprAttachedToNotReadyNode = `(
  max by (volumeattachment, node, attacher) (kube_volumeattachment_info)
  * on (volumeattachment) group_left ()
    (max by (volumeattachment) (kube_volumeattachment_status_attached) == 1)
)
* on (volumeattachment) group_left (volumename)
  (
      max by (volumeattachment, volumename) (kube_volumeattachment_spec_source_persistentvolume)
    or on (volumeattachment)
      label_replace(max by (volumeattachment) (kube_volumeattachment_info), "volumename", "inline", "", "")
  )
* on (volumename) group_left (namespace, persistentvolumeclaim)
  (
      max by (volumename, namespace, persistentvolumeclaim) (kube_persistentvolumeclaim_info{volumename!=""})
    or
      label_replace(vector(1), "volumename", "inline", "", "")
  )
unless on (node)
  (max by (node) (kube_node_status_condition{condition="Ready",status="true"}) == 1)`

// exprContainerCreating: one series per (pod, claim) for pods with a container waiting
// in ContainerCreating that mount a claim. kube-state-metrics has no attach/mount
// failure metric; this is the closest honest signal.
const exprContainerCreating = `(
  (max by (namespace, pod) (kube_pod_container_status_waiting_reason{reason="ContainerCreating"}) == 1)
  * on (namespace, pod) group_right ()
    max by (namespace, pod, persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info)
)
* on (namespace, pod) group_left (node)
  max by (namespace, pod, node) (kube_pod_info)
* on (namespace, persistentvolumeclaim) group_left (volumename)
  max by (namespace, persistentvolumeclaim, volumename) (kube_persistentvolumeclaim_info)`

// exprClaimPending: one series per (claim, pod) for Pending claims that a pod mounts.
// A WaitForFirstConsumer claim with no pod is Pending by design, so claims nobody
// mounts are left out.
const exprClaimPending = `(
  max by (namespace, persistentvolumeclaim, storageclass) (kube_persistentvolumeclaim_info)
  * on (namespace, persistentvolumeclaim) group_left ()
    (max by (namespace, persistentvolumeclaim) (kube_persistentvolumeclaim_status_phase{phase="Pending"}) == 1)
)
* on (namespace, persistentvolumeclaim) group_right (storageclass)
  max by (namespace, persistentvolumeclaim, pod) (kube_pod_spec_volumes_persistentvolumeclaims_info)`
