package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// RWXOnBlockStorage (PVL010) reports claims that ask a block-only provisioner for a
// volume several nodes mount: a Filesystem-mode ReadWriteMany claim (or ReadOnlyMany
// where the driver cannot serve it) on EBS, Azure Disk, Persistent Disk, Ceph RBD or a
// node-local provisioner is never provisioned and stays Pending. A Block-mode
// ReadWriteMany claim on EBS or Azure Disk provisions only with the class parameter
// that enables multi-attach (io2, maxShares).
//
// What each driver supports is the provisioner table's (graph.Provisioner
// BlockOnlyMulti, ROXOK, RWXNeeds, BlockMulti). Claims pre-bound to a volume
// (volumeName) are not provisioned, so EBS node-local volumes never fire; claims whose
// class is not in the linted set cannot be judged.
var RWXOnBlockStorage = &lint.Rule{
	ID:       "PVL010",
	Name:     "rwx-on-block-storage",
	Severity: lint.Error,
	Summary:  "a multi-node access mode is asked of block-only storage",
	Description: "A claim in Filesystem mode (the default volumeMode) asks for ReadWriteMany, or " +
		"ReadOnlyMany where the driver does not serve it, from a provisioner that attaches a disk to one " +
		"node: EBS, Azure Disk, Persistent Disk (ReadWriteMany only; it serves ReadOnlyMany), Ceph RBD, " +
		"local-path in its default node-path mode, local volumes, TopoLVM, OpenEBS local. The driver " +
		"rejects the request, provisioning fails and the claim stays Pending, so its pods never start. " +
		"In Block mode EBS attaches a volume to several nodes only when the class sets type: io2, and Azure " +
		"Disk only with maxShares of 2 or more. vSphere serves ReadWriteMany only through vSAN file " +
		"services, which manifests cannot show (warning).",
	Remediation: "Use a class backed by file storage for ReadWriteMany (EFS, Filestore, Azure Files, " +
		"CephFS, NFS), or ReadWriteOnce if one node is enough. For shared block devices, set volumeMode: " +
		"Block and the class parameter the driver needs (EBS type: io2, Azure Disk maxShares of 2 or more), " +
		"and make the application fence its writes.",
	Tags:  []string{"access-modes", "provisioning"},
	Kinds: append([]string{"PersistentVolumeClaim", "StatefulSet", "Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "Job", "CronJob", "Pod", "Rollout"}, operatorKindNames...),
	Check: checkRWXOnBlockStorage,
}

func checkRWXOnBlockStorage(p *lint.Pass) {
	g := p.Graph
	for _, s := range allSites(g) {
		spec := s.Claim.Spec()
		if vn := spec.Get("volumeName"); vn != nil && !vn.IsNull() {
			continue // pre-bound: nothing is provisioned
		}
		ref := g.ClassOf(s.Claim)
		if ref.Class == nil {
			continue
		}
		prov := ref.Class.Get("provisioner")
		b := g.BackendOf(s.Claim)
		if prov.IsUnknown() || b.Provisioner == "" {
			continue
		}
		modes := g.AccessModes(s.Claim).Claim
		vm := spec.Get("volumeMode")
		if vm.IsUnknown() {
			continue
		}
		at, path := s.field("spec", "accessModes")
		related := exceptAt(claimLinks(g, s.Claim), at)
		row := b.Row
		switch mode := vm.Str(); {
		case mode == "" || mode == "Filesystem":
			var bad []string
			if contains(modes, graph.RWX) {
				bad = append(bad, graph.RWX)
			}
			if contains(modes, graph.ROX) && !row.ROXOK && !row.ROXUnverified {
				bad = append(bad, graph.ROX)
			}
			if len(bad) == 0 {
				continue
			}
			if b.Provisioner == graph.LocalPathProvisioner {
				lp, cm := g.LocalPathModeOf(ref.Name)
				if lp != graph.LocalPathNodePath {
					continue
				}
				if cm != nil {
					related = append(related, lint.Link(cm, "ConfigMap "+cm.Name+": no sharedFileSystemPath for class "+ref.Name))
				}
			}
			switch {
			case row.BlockOnlyMulti:
				msg := s.chain(g) + " asks for " + strings.Join(bad, " and ") + " in Filesystem mode, which " + b.Provisioner +
					" cannot provide (it attaches each volume to one node): provisioning fails and the claim stays Pending"
				p.ReportPath(s.Owner, at, path, lint.Error, msg, related...)
			case row.RWXNeeds != "" && bad[0] == graph.RWX:
				msg := s.chain(g) + " asks for ReadWriteMany in Filesystem mode, which " + b.Provisioner +
					" provides only with " + row.RWXNeeds + ": without them the claim stays Pending"
				p.ReportPath(s.Owner, at, path, lint.Warning, msg, related...)
			}
		case mode == "Block":
			if !contains(modes, graph.RWX) || row.BlockMulti.IsZero() {
				continue
			}
			n, ok, known := row.BlockMulti.Check(ref.Class.Get("parameters"))
			if ok || !known {
				continue
			}
			got := "parameters." + row.BlockMulti.Key + " is unset"
			if n != nil {
				got = "parameters." + row.BlockMulti.Key + " is " + n.Str()
				related = append(related, lint.Related{Range: n.Range, Message: "StorageClass " + ref.Name + ": " + got})
			}
			msg := s.chain(g) + " asks for ReadWriteMany in Block mode, which " + b.Provisioner + " attaches to several nodes only with " +
				row.BlockMulti.Want() + ", and class " + ref.Name + "'s " + got + ": provisioning fails and the claim stays Pending"
			p.ReportPath(s.Owner, at, path, lint.Error, msg, related...)
		}
	}
}
