package storage

import (
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// InTreeProvisioner (PVL013) reports StorageClasses, PersistentVolumes and inline pod
// volumes that use an in-tree cloud or volume plugin. Its verdict depends on the target
// version (--kube-version) through the provisioner table's timeline: a migrated plugin
// is a warning naming the CSI driver that serves it, a removed plugin is an error from
// the release that removed it and a warning before. It is Go rather than Rego because
// the verdict needs Pass.Target and the graph's volume-source table.
//
// nfs, hostPath, local, iscsi, fc and kubernetes.io/no-provisioner are not in-tree
// provider hazards (docs/rules.md#decision-6): the table marks none of them in-tree.
var InTreeProvisioner = &lint.Rule{
	ID:       "PVL013",
	Name:     "in-tree-provisioner",
	Severity: lint.Warning,
	Summary:  "a StorageClass or volume uses an in-tree storage plugin",
	Description: "A StorageClass provisioner (kubernetes.io/aws-ebs, kubernetes.io/gce-pd...), a PersistentVolume " +
		"source or a pod's inline volume (awsElasticBlockStore, rbd, glusterfs...) names a storage plugin that was " +
		"built into Kubernetes. The cloud plugins are migrated: every operation is redirected to their CSI driver, " +
		"which must be installed, and their in-tree code is gone in recent releases. The others are removed: from " +
		"the release that removed them, claims of such a class stay Pending and such volumes never mount. Warning " +
		"for migrated plugins and for removed ones before the target release removes them, error once it has.",
	Remediation: "Use the CSI driver instead: provisioner ebs.csi.aws.com for kubernetes.io/aws-ebs, " +
		"pd.csi.storage.gke.io for gce-pd, disk.csi.azure.com for azure-disk, file.csi.azure.com for azure-file, " +
		"cinder.csi.openstack.org for cinder, csi.vsphere.vmware.com for vsphere-volume, pxd.portworx.com for " +
		"portworx-volume, rbd.csi.ceph.com and cephfs.csi.ceph.com for rbd and cephfs; a PersistentVolume's " +
		"source becomes a csi source with that driver.",
	Tags:  []string{"migration", "storage-class", "deprecation"},
	Kinds: []string{"StorageClass", "PersistentVolume", "Pod", "Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job", "CronJob", "Rollout"},
	Check: checkInTreeProvisioner,
}

func checkInTreeProvisioner(p *lint.Pass) {
	g := p.Graph
	for _, r := range g.Resources {
		switch {
		case r.Kind == "StorageClass":
			prov := r.Get("provisioner")
			row, ok := g.Provisioners.Lookup(prov.Str())
			if !ok || row.InTree == graph.NotInTree {
				continue
			}
			sev, status := inTreeVerdict(row, p.Target)
			msg := "StorageClass " + r.Name + " uses provisioner " + row.Name + ", " + status
			p.Report(r, r.Locate("provisioner"), sev, msg)
		case r.Kind == "PersistentVolume":
			name, src := graph.PVPlugin(r.Get("spec"))
			row, ok := g.Provisioners.Lookup(name)
			if !ok || row.InTree == graph.NotInTree {
				continue
			}
			sev, status := inTreeVerdict(row, p.Target)
			key, at := sourceField(r.Get("spec"), src)
			msg := "PV " + r.Name + " has an in-tree " + key + " source (" + row.Name + "), " + status
			p.Report(r, at, sev, msg)
		case graph.IsWorkload(r.Kind):
			checkInlineVolumes(p, r)
		}
	}
}

// checkInlineVolumes reports a workload's pod-template volumes with an in-tree source,
// one finding per volume.
func checkInlineVolumes(p *lint.Pass, w *graph.Resource) {
	base := graph.PodSpecPath(w.Kind)
	for i, v := range graph.PodSpec(w).Get("volumes").List() {
		name, src := graph.PVPlugin(v)
		row, ok := p.Graph.Provisioners.Lookup(name)
		if !ok || row.InTree == graph.NotInTree {
			continue
		}
		sev, status := inTreeVerdict(row, p.Target)
		key, at := sourceField(v, src)
		msg := w.Kind + " " + w.Name + " volume " + v.Get("name").Str() + " has an in-tree " + key +
			" source (" + row.Name + "), " + status
		path := append(append(base[:len(base):len(base)], "volumes"), strconv.Itoa(i))
		p.ReportPath(w, at, path, sev, msg)
	}
}

// sourceField is the field of parent that holds a volume source (awsElasticBlockStore,
// rbd...): its key names the source and its key range is the line a user edits. A csi
// source's driver sits one level deeper and yields the csi field.
func sourceField(parent, src *graph.Node) (key string, at graph.Range) {
	for _, f := range parent.Fields() {
		if f.Value == src || f.Key == "csi" && f.Value.Get("driver") == src {
			return f.Key, f.KeyRange
		}
	}
	return "volume", src.Range
}

// inTreeVerdict decides a plugin's level at the target version and says why, with the
// CSI driver to use (docs/storage-facts.md#f2 timeline; docs/rules.md#decision-6):
//   - migrated: warning. Before CSI migration is on by default the in-tree plugin serves
//     the volume; then migration redirects it to the CSI driver, which must be
//     installed; once the in-tree code is gone, only migration serves it.
//   - removed: warning before the release that removed it (deprecated), error from that
//     release on, and at every target when no source gives the release.
func inTreeVerdict(row graph.Provisioner, target lint.Version) (lint.Severity, string) {
	use := ""
	if row.CSIName != "" {
		use = "; use the CSI driver " + row.CSIName
	}
	if row.InTree == graph.Migrated {
		switch {
		case reached(target, row.Gone):
			return lint.Warning, "whose in-tree plugin is not available since Kubernetes " + row.Gone +
				" (target " + target.String() + "): only CSI migration to " + row.CSIName + " serves it, and only where that driver is installed" + use
		case reached(target, row.MigrationOn):
			return lint.Warning, "which CSI migration redirects to " + row.CSIName + " (on by default since Kubernetes " +
				row.MigrationOn + "): it works only where that driver is installed" + use
		}
		return lint.Warning, "a deprecated in-tree plugin" + use
	}
	if row.Gone != "" && !reached(target, row.Gone) {
		status := "an in-tree plugin"
		if reached(target, row.Deprecated) {
			status += " deprecated since Kubernetes " + row.Deprecated + " and"
		}
		return lint.Warning, status + " removed in Kubernetes " + row.Gone + " (target " + target.String() +
			"): upgrading to " + row.Gone + " breaks it" + use
	}
	removed := "an in-tree plugin Kubernetes no longer supports"
	if row.Gone != "" {
		removed = "an in-tree plugin removed in Kubernetes " + row.Gone + " (target " + target.String() + ")"
	}
	if row.CSIName == "" {
		return lint.Error, removed + ": nothing provisions or mounts it, and Kubernetes names no CSI replacement"
	}
	return lint.Error, removed + ": nothing provisions or mounts it, and no CSI migration exists" + use
}

// reached reports whether target is at or after the minor version v ("1.27"); false
// when v is empty or malformed.
func reached(target lint.Version, v string) bool {
	if v == "" {
		return false
	}
	min, err := lint.ParseVersion(v)
	return err == nil && !target.Less(min)
}
