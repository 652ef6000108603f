package graph_test

import (
	"regexp"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

// TestClassifyUnknown checks what names missing from the table get: a name in CSI's
// domain-name notation is an attachable CSI driver (docs/rules.md#backend: unknown CSI
// drivers count as attachable), an in-tree, slashed or domain-less name ("nfs", a
// label for static volumes) is not a CSI driver and its backend is unknown.
func TestClassifyUnknown(t *testing.T) {
	tests := []struct {
		name    string
		backend graph.BackendClass
		csi     bool
	}{
		{"rook-ceph.rbd.csi.ceph.com", graph.Attachable, true},
		{"csi.example.com", graph.Attachable, true},
		{"kubernetes.io/made-up", graph.BackendUnknown, false},
		{"k8s.io/minikube-hostpath", graph.NonAttachable, false},
		{"microk8s.io/hostpath", graph.BackendUnknown, false},
		{"nfs", graph.BackendUnknown, false},
		{"manual", graph.BackendUnknown, false},
		{"rancher.io/local-path", graph.NonAttachable, false},
		{"ebs.csi.aws.com", graph.Attachable, true},
	}
	tab := graph.DefaultProvisioners()
	for _, tt := range tests {
		p := tab.Classify(tt.name)
		if p.Backend != tt.backend || p.CSI != tt.csi || p.Source == "" {
			t.Errorf("Classify(%s) = %v, CSI %v (source %q); want %v, CSI %v", tt.name, p.Backend, p.CSI, p.Source, tt.backend, tt.csi)
		}
	}
}

func TestPVClass(t *testing.T) {
	pv := func(meta, spec string) string {
		return "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv" + meta + "}\nspec: {capacity: {storage: 1Gi}" + spec + "}"
	}
	tests := []struct {
		name, doc, want string
		set             bool
	}{
		{"no class", pv("", ""), "", false},
		{"empty class", pv("", `, storageClassName: ""`), "", true},
		{"spec class", pv("", ", storageClassName: slow"), "slow", true},
		{"annotation wins", pv(", annotations: {volume.beta.kubernetes.io/storage-class: fast}", ", storageClassName: slow"), "fast", true},
	}
	for _, tt := range tests {
		g := build(t, tt.doc)
		got, n := graph.PVClass(g.ByKind("PersistentVolume")[0])
		if got != tt.want || (n != nil) != tt.set {
			t.Errorf("%s: PVClass = %q (node %v), want %q (set %v)", tt.name, got, n != nil, tt.want, tt.set)
		}
	}
}

// TestInTreeTimeline checks the in-tree rows: every in-tree name has a status, a
// source, versions that read as Kubernetes minors, and a migrated plugin names the CSI
// driver it is redirected to, which is itself a CSI row of the table.
func TestInTreeTimeline(t *testing.T) {
	minor := regexp.MustCompile(`^1\.[0-9]{2}$`)
	tab := graph.DefaultProvisioners()
	inTree := 0
	for _, name := range tab.Names() {
		p, _ := tab.Lookup(name)
		if p.Source == "" {
			t.Errorf("%s: no source", name)
		}
		for _, v := range []string{p.MigrationOn, p.Deprecated, p.Gone} {
			if v != "" && !minor.MatchString(v) {
				t.Errorf("%s: version %q is not a Kubernetes minor", name, v)
			}
		}
		if p.InTree == graph.NotInTree {
			if p.MigrationOn != "" || p.Deprecated != "" || p.Gone != "" {
				t.Errorf("%s: a timeline on a plugin that is not in-tree", name)
			}
			continue
		}
		inTree++
		if p.InTree == graph.Migrated {
			csi, ok := tab.Lookup(p.CSIName)
			if !ok || !csi.CSI {
				t.Errorf("%s: migrated to %q, which is not a CSI row", name, p.CSIName)
			}
		}
	}
	// docs/rules.md#decision-6: seven migrated plugins and eight removed ones.
	if inTree != 15 {
		t.Errorf("%d in-tree rows, want 15 (docs/rules.md#decision-6)", inTree)
	}
}

// TestClassifyPrefixedDrivers checks that a driver deployed under a prefixed name
// (Rook's "<namespace>.rbd.csi.ceph.com") is classified as the driver, under its own
// name, while a name that only ends alike is an unknown driver.
func TestClassifyPrefixedDrivers(t *testing.T) {
	tab := graph.DefaultProvisioners()
	rbd, _ := tab.Lookup("rbd.csi.ceph.com")
	got := tab.Classify("rook-ceph.rbd.csi.ceph.com")
	if got.Name != "rook-ceph.rbd.csi.ceph.com" || got.Backend != rbd.Backend || got.Topology != rbd.Topology || !got.CSI {
		t.Errorf("Classify(rook-ceph.rbd.csi.ceph.com) = %+v, want the rbd.csi.ceph.com row under its own name", got)
	}
	if got := tab.Classify("ns.cephfs.csi.ceph.com"); got.Backend != graph.NonAttachable || !got.RWX {
		t.Errorf("Classify(ns.cephfs.csi.ceph.com) = %+v, want CephFS", got)
	}
	if got := tab.Classify("fake-rbd.csi.ceph.com"); got.Topology != graph.TopologyUnknown || got.Backend != graph.Attachable {
		t.Errorf("Classify(fake-rbd.csi.ceph.com) = %+v, want an unknown attachable driver", got)
	}
}
