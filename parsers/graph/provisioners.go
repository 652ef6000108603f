package graph

import (
	"sort"
	"strings"
)

// BackendClass says whether ReadWriteOnce is enforced across nodes for a volume.
type BackendClass int

// Backend classes (rules.md "backend"). The zero value is BackendUnknown.
const (
	// BackendUnknown: the claim, its class or its PV is not in the linted set.
	BackendUnknown BackendClass = iota
	// Attachable: the attach layer enforces RWO across nodes (Multi-Attach errors).
	Attachable
	// NonAttachable: nothing enforces RWO across nodes (NFS, EFS, hostPath, local...).
	NonAttachable
)

func (b BackendClass) String() string {
	switch b {
	case Attachable:
		return "attachable"
	case NonAttachable:
		return "non-attachable"
	}
	return "unknown"
}

// Topology says where a backend's volumes can be used, which decides how much an
// Immediate binding mode hurts (rules.md Decision 1).
type Topology int

// Topologies. TopologyUnknown is used for drivers the table does not know.
const (
	TopologyUnknown Topology = iota
	NodeLocal                // one node: Immediate binding picks a node blindly
	Zonal                    // one zone: Immediate binding picks a zone blindly
	TopologyFree             // network storage reachable from every node
)

// InTree says whether a provisioner or volume plugin is an in-tree Kubernetes plugin.
type InTree int

// In-tree statuses (rules.md Decision 6).
const (
	NotInTree InTree = iota
	Migrated         // operations are redirected to the CSI driver named in CSIName
	Removed          // no longer supported by Kubernetes
)

// Provisioner is what pvlint knows about one provisioner or CSI driver name.
type Provisioner struct {
	Name     string
	Backend  BackendClass
	CSI      bool     // a CSI driver (RWOP is documented as CSI-only)
	Topology Topology // for PVL001's severity
	// BlockOnlyMulti: multi-node access modes (RWX) work only with volumeMode Block;
	// a Filesystem RWX claim never binds. ROXOK: ROX works in Filesystem mode.
	BlockOnlyMulti bool
	ROXOK          bool
	RWX            bool // RWX Filesystem volumes are supported
	InTree         InTree
	CSIName        string // for in-tree plugins: the CSI driver that replaces them
	// The in-tree timeline, as Kubernetes minors ("1.27"); "" where no source gives
	// one. MigrationOn: CSI migration is on by default, so every operation goes to
	// CSIName. Deprecated: the plugin is deprecated. Gone: the in-tree code is removed,
	// so a Migrated plugin works only through CSI migration and a Removed one not at all.
	MigrationOn, Deprecated, Gone string
	// Source names the domain.md source keys behind the row.
	Source string
}

// ProvisionerTable is the one table of backend knowledge; users extend it for their
// own drivers (--provisioner-class NAME=attachable|file|local).
type ProvisionerTable struct {
	rows map[string]Provisioner
}

// Lookup returns what the table knows about name, and whether it knows it. Names not
// in the table that are not in-tree ("kubernetes.io/...") are treated by callers as
// attachable CSI drivers, as rules.md's "unknown CSI" says.
func (t *ProvisionerTable) Lookup(name string) (Provisioner, bool) {
	p, ok := t.rows[name]
	return p, ok
}

// Classify returns the row for name, or the row an unknown driver gets: an attachable
// CSI driver of unknown topology (the attach layer runs unless a CSIDriver object says
// attachRequired: false).
func (t *ProvisionerTable) Classify(name string) Provisioner {
	if p, ok := t.rows[name]; ok {
		return p
	}
	if strings.HasPrefix(name, "kubernetes.io/") {
		return Provisioner{Name: name, Backend: BackendUnknown, Source: "unknown in-tree name"}
	}
	return Provisioner{Name: name, Backend: Attachable, CSI: true, Source: "rules.md: unknown CSI drivers attach"}
}

// Set adds or replaces a row, for user-declared drivers.
func (t *ProvisionerTable) Set(p Provisioner) { t.rows[p.Name] = p }

// Names lists the known names, sorted.
func (t *ProvisionerTable) Names() []string {
	out := make([]string, 0, len(t.rows))
	for n := range t.rows {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Clone returns an independent copy, so per-run user additions never leak.
func (t *ProvisionerTable) Clone() *ProvisionerTable {
	c := &ProvisionerTable{rows: make(map[string]Provisioner, len(t.rows))}
	for k, v := range t.rows {
		c.rows[k] = v
	}
	return c
}

// UserProvisioner builds the row for a user-declared driver of the given kind:
// "attachable" (zonal block storage), "file" (network file storage, RWX) or "local"
// (node-local disks). It reports false for any other kind.
func UserProvisioner(name, kind string) (Provisioner, bool) {
	p := Provisioner{Name: name, CSI: true, Source: "user configuration"}
	switch kind {
	case "attachable":
		p.Backend, p.Topology, p.ROXOK = Attachable, Zonal, true
	case "file":
		p.Backend, p.Topology, p.RWX, p.ROXOK = NonAttachable, TopologyFree, true, true
	case "local":
		p.Backend, p.Topology, p.BlockOnlyMulti = NonAttachable, NodeLocal, true
	default:
		return Provisioner{}, false
	}
	return p, true
}

// DefaultProvisioners returns a fresh copy of the built-in table.
func DefaultProvisioners() *ProvisionerTable {
	t := &ProvisionerTable{rows: make(map[string]Provisioner, len(builtin))}
	for _, p := range builtin {
		t.rows[p.Name] = p
	}
	return t
}

// builtin is the provisioner knowledge, one row per name, each with its source
// (keys of domain.md's Sources table).
var builtin = []Provisioner{
	// Zonal block storage: attachable, RWX only as raw block.
	{Name: "ebs.csi.aws.com", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, Source: "EBS controller.go, multi-attach.md; CSI-DRV"},
	{Name: "pd.csi.storage.gke.io", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, ROXOK: true, Source: "PD gce-pd-driver.go, utils.go"},
	{Name: "disk.csi.azure.com", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, Source: "AZD azure_disk_utils.go"},
	{Name: "cinder.csi.openstack.org", Backend: Attachable, CSI: true, Topology: Zonal, Source: "CTL; domain.md rule 1(b)"},
	{Name: "csi.vsphere.vmware.com", Backend: Attachable, CSI: true, Topology: TopologyFree, ROXOK: true, Source: "VS types.go, util.go (multi-node requests become CNS file volumes)"},
	{Name: "rbd.csi.ceph.com", Backend: Attachable, CSI: true, Topology: TopologyFree, BlockOnlyMulti: true, Source: "CEPH driver.go, controllerserver.go; attachRequired true"},
	{Name: "driver.longhorn.io", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "LH util.go (multi-node = shared volumes); attachRequired unset"},
	{Name: "cstor.csi.openebs.io", Backend: Attachable, CSI: true, Topology: TopologyUnknown, Source: "CSI-DRV (single-node)"},
	{Name: "topolvm.io", Backend: Attachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "CSI-DRV (single-node); domain.md rule 1(a)"},
	{Name: "local.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "domain.md rule 1(a) (OpenEBS local)"},
	{Name: "openebs.io/local", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "domain.md rule 1(a) (OpenEBS local hostpath)"},
	{Name: "zfs.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "domain.md rule 1(a) (OpenEBS local)"},
	{Name: "lvm.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "domain.md rule 1(a) (OpenEBS local)"},
	{Name: "pxd.portworx.com", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV (RWX)"},
	{Name: "csi.trident.netapp.io", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV (RWX)"},

	// Network file storage: attachRequired false, RWX capable.
	{Name: "efs.csi.aws.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV; CSIDriver attachRequired false (domain.md §6)"},
	{Name: "file.csi.azure.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV"},
	{Name: "filestore.csi.storage.gke.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV"},
	{Name: "cephfs.csi.ceph.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CEPH cephfs/driver.go; deploy/cephfs csidriver.yaml attachRequired false"},
	{Name: "nfs.csi.ceph.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CEPH deploy/nfs csidriver.yaml attachRequired false"},
	{Name: "nfs.csi.k8s.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV"},
	{Name: "smb.csi.k8s.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "CSI-DRV"},
	{Name: "cluster.local/nfs-subdir-external-provisioner", Backend: NonAttachable, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "NFS external provisioner (not CSI)"},

	// Node-local.
	{Name: "rancher.io/local-path", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "LP provisioner.go, README (NodePath allows RWO/RWOP only; PVs are hostPath/local)"},
	{Name: "kubernetes.io/no-provisioner", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "DOC-SC (local volumes need WFFC)"},
	{Name: "kubernetes.io/host-path", Backend: NonAttachable, Topology: NodeLocal, Source: "DOC-PV (hostPath)"},

	// In-tree plugins redirected to CSI (rules.md Decision 6; CTL, CSI-CHG, DOC-PV).
	{Name: "kubernetes.io/aws-ebs", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, InTree: Migrated, CSIName: "ebs.csi.aws.com", MigrationOn: "1.23", Gone: "1.27", Source: "CTL; CSI-CHG (migration on by default 1.23); DOC-PV (not available in v1.27)"},
	{Name: "kubernetes.io/gce-pd", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, ROXOK: true, InTree: Migrated, CSIName: "pd.csi.storage.gke.io", MigrationOn: "1.23", Gone: "1.28", Source: "CTL; CSI-CHG (migration on by default 1.23, in-tree code removed 1.28)"},
	{Name: "kubernetes.io/azure-disk", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, InTree: Migrated, CSIName: "disk.csi.azure.com", MigrationOn: "1.23", Gone: "1.27", Source: "CTL; CSI-CHG (migration on by default 1.23); DOC-PV (not available in v1.27)"},
	{Name: "kubernetes.io/azure-file", Backend: NonAttachable, Topology: TopologyFree, RWX: true, ROXOK: true, InTree: Migrated, CSIName: "file.csi.azure.com", MigrationOn: "1.26", Source: "CTL; CSI-CHG (migration GA 1.26)"},
	{Name: "kubernetes.io/cinder", Backend: Attachable, Topology: Zonal, InTree: Migrated, CSIName: "cinder.csi.openstack.org", MigrationOn: "1.24", Gone: "1.26", Source: "CTL; CSI-CHG (migration GA 1.24); DOC-PV (not available in v1.26)"},
	{Name: "kubernetes.io/vsphere-volume", Backend: Attachable, Topology: TopologyFree, InTree: Migrated, CSIName: "csi.vsphere.vmware.com", MigrationOn: "1.25", Source: "CTL; CSI-CHG (migration beta on by default 1.25, GA 1.26)"},
	{Name: "kubernetes.io/portworx-volume", Backend: Attachable, Topology: TopologyFree, RWX: true, InTree: Migrated, CSIName: "pxd.portworx.com", Source: "CTL; CSI-CHG (migration beta, off by default, 1.25)"},

	// In-tree plugins no longer supported (API-CORE); no CSI migration exists for them.
	{Name: "kubernetes.io/glusterfs", Backend: NonAttachable, Topology: TopologyFree, RWX: true, InTree: Removed, Deprecated: "1.25", Gone: "1.26", Source: "API-CORE; Kubernetes 1.26 removals (in-tree GlusterFS driver removed)"},
	{Name: "kubernetes.io/rbd", Backend: Attachable, Topology: TopologyFree, BlockOnlyMulti: true, InTree: Removed, CSIName: "rbd.csi.ceph.com", Deprecated: "1.28", Gone: "1.31", Source: "API-CORE; DOC-PV (deprecated v1.28); kubernetes/website #46304 (removed v1.31)"},
	{Name: "kubernetes.io/cephfs", Backend: NonAttachable, Topology: TopologyFree, RWX: true, InTree: Removed, CSIName: "cephfs.csi.ceph.com", Deprecated: "1.28", Gone: "1.31", Source: "API-CORE; DOC-PV (deprecated v1.28); kubernetes/kubernetes #124544 (removed v1.31)"},
	{Name: "kubernetes.io/flocker", Backend: Attachable, InTree: Removed, Gone: "1.25", Source: "API-CORE; Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/quobyte", Backend: NonAttachable, RWX: true, InTree: Removed, Gone: "1.25", Source: "API-CORE; Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/scaleio", Backend: Attachable, InTree: Removed, Source: "API-CORE"},
	{Name: "kubernetes.io/storageos", Backend: Attachable, InTree: Removed, Gone: "1.25", Source: "API-CORE; Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/photon-pd", Backend: Attachable, InTree: Removed, Source: "API-CORE"},
}
