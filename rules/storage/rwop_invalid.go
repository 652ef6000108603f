package storage

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// RWOPInvalid (PVL007) reports ReadWriteOncePod where it cannot work as written:
// combined with another access mode (the API server rejects the object), on a target
// Kubernetes version that does not know it or needs a feature gate for it, or on a
// backend that is not a CSI driver, for which ReadWriteOncePod is not documented.
var RWOPInvalid = &lint.Rule{
	ID:       "PVL007",
	Name:     "rwop-invalid",
	Severity: lint.Error,
	Summary:  "ReadWriteOncePod is used where it cannot work as written",
	Description: "ReadWriteOncePod must be a claim's only access mode: combined with another mode the " +
		"API server rejects the claim or volume (error). It is an unknown value before Kubernetes 1.22 " +
		"(error) and an alpha feature behind the ReadWriteOncePod feature gate from 1.22 to 1.26 " +
		"(warning); it is beta and on by default from 1.27 and GA from 1.29. It is documented for CSI " +
		"volumes only: on local-path, hostPath, local, in-tree NFS or other in-tree plugins single-pod " +
		"access is not guaranteed (warning). The target version is --kube-version.",
	Remediation: "List ReadWriteOncePod alone, on a class whose provisioner is a CSI driver, on Kubernetes " +
		"1.27 or later (1.29 for GA).",
	Tags:  []string{"access-modes", "rwop", "compatibility"},
	Kinds: append([]string{"PersistentVolumeClaim", "PersistentVolume", "StatefulSet", "Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "Job", "CronJob", "Pod", "Rollout"}, operatorKindNames...),
	Check: checkRWOPInvalid,
}

// rwopAlpha is the version ReadWriteOncePod arrived in, behind a feature gate
// (Kubernetes blog: RWOP alpha in 1.22; docs/storage-facts.md#f2).
var rwopAlpha = lint.Version{Major: 1, Minor: 22}

func checkRWOPInvalid(p *lint.Pass) {
	g := p.Graph
	for _, s := range allSites(g) {
		modes := s.Claim.Spec().Get("accessModes")
		if !modesCheck(p, s.Owner, s.fieldPath("spec", "accessModes"), s.label(), modes) {
			continue
		}
		rwopBackend(p, s)
	}
	for _, pv := range g.ByKind("PersistentVolume") {
		modesCheck(p, pv, []string{"spec", "accessModes"}, "PV "+pv.Name, pv.Get("spec", "accessModes"))
	}
}

// modesCheck reports a mode mix and a target version without RWOP for one accessModes
// list (at listPath within owner), and whether the list asks for RWOP at all.
func modesCheck(p *lint.Pass, owner *graph.Resource, listPath []string, label string, modes *graph.Node) bool {
	idx := -1
	var others []string
	for i, m := range modes.List() {
		switch {
		case m.Str() == graph.RWOP && idx < 0:
			idx = i
		case m.Str() != graph.RWOP && m.Str() != "" && !contains(others, m.Str()):
			others = append(others, m.Str())
		}
	}
	if idx < 0 {
		return false
	}
	if len(others) > 0 {
		msg := label + " asks for ReadWriteOncePod together with " + strings.Join(others, ", ") +
			": ReadWriteOncePod cannot be combined with other access modes, so the API server rejects it"
		p.ReportPath(owner, owner.Locate(listPath...), listPath, lint.Error, msg)
	}
	itemPath := append(listPath[:len(listPath):len(listPath)], strconv.Itoa(idx))
	at := owner.Locate(itemPath...)
	switch {
	case p.Target.Less(rwopAlpha):
		msg := label + " asks for ReadWriteOncePod, which Kubernetes " + p.Target.String() +
			" does not know (it arrived as alpha in 1.22): the API server rejects the access mode"
		p.ReportPath(owner, at, itemPath, lint.Error, msg)
	case p.Target.Less(rwopBeta):
		msg := label + " asks for ReadWriteOncePod, which is alpha in Kubernetes " + p.Target.String() +
			": it works only with the ReadWriteOncePod feature gate on kube-apiserver, kube-scheduler, kube-controller-manager and kubelet (beta and on by default from 1.27)"
		p.ReportPath(owner, at, itemPath, lint.Warning, msg)
	}
	return true
}

// rwopBackend reports an RWOP claim whose backend is known and is not a CSI driver.
func rwopBackend(p *lint.Pass, s site) {
	g := p.Graph
	b := g.BackendOf(s.Claim)
	if b.Provisioner == "" || b.Row.CSI {
		return
	}
	var at graph.Range
	var path []string
	switch ref := g.ClassOf(s.Claim); {
	case b.Via == "pv":
		at, path = s.field("spec", "volumeName")
	case ref.Via == "annotation":
		at, path = s.field("metadata", "annotations", graph.AnnBetaClass)
	default:
		at, path = s.field("spec", "storageClassName")
	}
	what := b.Provisioner + " is not a CSI driver"
	if b.Row.InTree != graph.NotInTree || b.Via == "pv" && strings.HasPrefix(b.Provisioner, "kubernetes.io/") {
		what = b.Provisioner + " is an in-tree volume plugin, not a CSI driver"
	}
	msg := s.chain(g) + ": " + what + ", and ReadWriteOncePod is documented for CSI volumes only, so single-pod access is not guaranteed"
	p.ReportPath(s.Owner, at, path, lint.Warning, msg, exceptAt(claimLinks(g, s.Claim), at)...)
}

func contains(l []string, s string) bool {
	return slices.Contains(l, s)
}
