package graph

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// BackendClass says whether ReadWriteOnce is enforced across nodes for a volume.
type BackendClass int

// Backend classes (docs/rules.md#backend). The zero value is BackendUnknown.
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
// Immediate binding mode hurts (docs/rules.md#decision-1).
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

// In-tree statuses (docs/rules.md#decision-6; timeline in docs/storage-facts.md#f2).
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
	// ROXUnverified: whether ROX Filesystem volumes work is not established, so PVL010
	// says nothing about ROX on this driver.
	ROXUnverified bool
	RWX           bool // RWX Filesystem volumes are supported
	// RWXNeeds names a cluster feature that RWX Filesystem volumes depend on and that
	// manifests cannot show ("vSAN file services"): PVL010 warns instead of erroring.
	RWXNeeds string
	// BlockMulti is the StorageClass parameter a block-only driver needs to attach one
	// volumeMode: Block volume to several nodes (EBS type io2, Azure Disk maxShares
	// of at least 2); the zero value when block RWX needs none.
	BlockMulti ParamRule
	InTree     InTree
	CSIName    string // for in-tree plugins: the CSI driver that replaces them
	// The in-tree timeline, as Kubernetes minors ("1.27"); "" where no source gives
	// one. MigrationOn: CSI migration is on by default, so every operation goes to
	// CSIName. Deprecated: the plugin is deprecated. Gone: the in-tree code is removed,
	// so a Migrated plugin works only through CSI migration and a Removed one not at all.
	MigrationOn, Deprecated, Gone string
	// Source names the public sources behind the row: upstream driver files and docs
	// (docs/storage-facts.md#sources).
	Source string
}

// ParamRule is a requirement on one StorageClass parameter: its value is one of OneOf,
// or an integer of at least AtLeast.
type ParamRule struct {
	Key     string
	OneOf   []string
	AtLeast int
}

// IsZero reports whether the rule requires nothing.
func (r ParamRule) IsZero() bool { return r.Key == "" }

// Check reads the rule's parameter from a StorageClass's parameters map. It returns
// the parameter's node (nil when unset), whether the rule holds, and whether that is
// known: a value Terraform computes at apply time is not.
func (r ParamRule) Check(params *Node) (n *Node, ok, known bool) {
	if r.IsZero() {
		return nil, true, true
	}
	n = params.Get(r.Key)
	if n.IsUnknown() {
		return n, false, false
	}
	v := strings.TrimSpace(n.Str())
	if slices.Contains(r.OneOf, v) {
		return n, true, true
	}
	if r.AtLeast > 0 {
		if i, err := strconv.Atoi(v); err == nil && i >= r.AtLeast {
			return n, true, true
		}
	}
	return n, false, true
}

// Want describes what the rule asks for: "type io2", "maxShares of at least 2".
func (r ParamRule) Want() string {
	if r.AtLeast > 0 {
		return r.Key + " of at least " + strconv.Itoa(r.AtLeast)
	}
	return r.Key + " " + strings.Join(r.OneOf, " or ")
}

// ProvisionerTable is the one table of backend knowledge; users extend it for their
// own drivers (--provisioner-class NAME=attachable|file|local).
type ProvisionerTable struct {
	rows map[string]Provisioner
}

// Lookup returns what the table knows about name, and whether it knows it. Names not
// in the table that are not in-tree ("kubernetes.io/...") are treated by callers as
// attachable CSI drivers, as docs/rules.md#backend says.
func (t *ProvisionerTable) Lookup(name string) (Provisioner, bool) {
	p, ok := t.rows[name]
	return p, ok
}

// Classify returns the row for name, the row of the driver a prefixed name deploys
// (Rook's "<namespace>.rbd.csi.ceph.com"), or the row an unknown driver gets: an
// attachable CSI driver of unknown topology (the attach layer runs unless a CSIDriver
// object says attachRequired: false). Unknown names that cannot be CSI drivers
// (in-tree kubernetes.io/ names, names with a slash) get an unknown backend.
func (t *ProvisionerTable) Classify(name string) Provisioner {
	if p, ok := t.rows[name]; ok {
		return p
	}
	for _, base := range prefixedDrivers {
		if p, ok := t.rows[base]; ok && strings.HasSuffix(name, "."+base) {
			p.Name, p.Source = name, p.Source+"; Rook names the driver <operator namespace>."+base
			return p
		}
	}
	if strings.HasPrefix(name, "kubernetes.io/") {
		return Provisioner{Name: name, Backend: BackendUnknown, Source: "unknown in-tree name"}
	}
	if nfsProvisioner(name) {
		return Provisioner{Name: name, Backend: NonAttachable, Topology: TopologyFree, RWX: true, ROXOK: true,
			Source: "an NFS external provisioner, recognised by its name (nfs-subdir-external-provisioner, nfs-client-provisioner, nfs-server-provisioner and their charts name it freely)"}
	}
	if strings.Contains(name, "/") {
		// CSI driver names follow domain name notation (CSI spec, GetPluginInfo), so a
		// name with a slash is an external provisioner that is not a CSI driver
		// (microk8s.io/hostpath): nothing is known of it.
		return Provisioner{Name: name, Backend: BackendUnknown, Source: "not a CSI driver name (CSI spec: domain name notation)"}
	}
	if !strings.Contains(name, ".") {
		// Every CSI driver name in use has a domain ("ebs.csi.aws.com"): the CSI spec
		// asks for the vendor's name in it. A bare word ("nfs", "manual") is a label
		// for statically provisioned volumes, which nothing provisions or attaches
		// by that name: the backend is the PVs', not known from the class.
		return Provisioner{Name: name, Backend: BackendUnknown, Source: "not a CSI driver name (no domain: a label for static volumes)"}
	}
	return Provisioner{Name: name, Backend: Attachable, CSI: true, Source: "unknown CSI driver: attach runs unless its CSIDriver sets attachRequired: false (k8s.io/api storage/v1 CSIDriverSpec)"}
}

// nfsProvisioner reports whether an external provisioner's name (one with a slash:
// not a CSI driver) says it serves NFS. The NFS provisioners are deployed under names
// their users choose: nfs-subdir-external-provisioner's manifests say
// k8s-sigs.io/nfs-subdir-external-provisioner and its chart cluster.local/<release>;
// nfs-client-provisioner's said fuseim.pri/ifs; nfs-server-provisioner's chart
// cluster.local/<release>-nfs-server-provisioner, its examples example.com/nfs. They
// provision subdirectories of an NFS export, which every node mounts: network file
// storage, not zonal (issue 28: PVL001 spoke of zones for them).
func nfsProvisioner(name string) bool {
	i := strings.LastIndexByte(name, '/')
	if i < 0 || strings.HasPrefix(name, "kubernetes.io/") {
		return false
	}
	return strings.Contains(strings.ToLower(name[i+1:]), "nfs") || name == "fuseim.pri/ifs"
}

// prefixedDrivers are drivers that operators deploy under a prefixed name: Rook
// registers Ceph CSI as "<operator namespace>.rbd.csi.ceph.com" (its example classes
// say `provisioner: rook-ceph.rbd.csi.ceph.com # csi-provisioner-name`).
var prefixedDrivers = []string{"rbd.csi.ceph.com", "cephfs.csi.ceph.com", "nfs.csi.ceph.com"}

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
	maps.Copy(c.rows, t.rows)
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

// Block multi-attach requirements (kubernetes-sigs/aws-ebs-csi-driver
// docs/multi-attach.md; kubernetes-sigs/azuredisk-csi-driver
// pkg/azureutils/azure_disk_utils.go). The in-tree names share them: their operations
// are redirected to the CSI driver (kubernetes/csi-translation-lib;
// docs/storage-facts.md#f2).
var (
	ebsIO2      = ParamRule{Key: "type", OneOf: []string{"io2"}}
	azureShares = ParamRule{Key: "maxShares", AtLeast: 2}
)

// builtin is the provisioner knowledge, one row per name, each with its source
// (public sources; the facts are collected in docs/storage-facts.md#f2).
var builtin = []Provisioner{
	// Zonal block storage: attachable, RWX only as raw block.
	{Name: "ebs.csi.aws.com", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, BlockMulti: ebsIO2, Source: "kubernetes-sigs/aws-ebs-csi-driver pkg/driver/controller.go, docs/multi-attach.md (RWX Block needs type io2)"},
	{Name: "pd.csi.storage.gke.io", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, ROXOK: true, Source: "kubernetes-sigs/gcp-compute-persistent-disk-csi-driver pkg/gce-pd-csi-driver/gce-pd-driver.go, utils.go"},
	{Name: "disk.csi.azure.com", Backend: Attachable, CSI: true, Topology: Zonal, BlockOnlyMulti: true, BlockMulti: azureShares, Source: "kubernetes-sigs/azuredisk-csi-driver pkg/azureutils/azure_disk_utils.go (multi-node modes need maxShares >= 2)"},
	{Name: "cinder.csi.openstack.org", Backend: Attachable, CSI: true, Topology: Zonal, Source: "kubernetes/csi-translation-lib plugins/openstack_cinder.go (CSI name of kubernetes.io/cinder); zonal block storage"},
	{Name: "csi.vsphere.vmware.com", Backend: Attachable, CSI: true, Topology: TopologyFree, ROXOK: true, RWXNeeds: "vSAN file services", Source: "kubernetes-sigs/vsphere-csi-driver pkg/csi/service/common/types.go, util.go (multi-node requests become CNS file volumes)"},
	{Name: "rbd.csi.ceph.com", Backend: Attachable, CSI: true, Topology: TopologyFree, BlockOnlyMulti: true, ROXUnverified: true, Source: "ceph/ceph-csi internal/rbd/driver/driver.go, internal/rbd/controllerserver.go (multi-writer only with block; ROX not covered); CSIDriver attachRequired true"},
	{Name: "driver.longhorn.io", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "longhorn/longhorn-manager csi/util.go (multi-node = shared volumes); CSIDriver attachRequired unset"},
	{Name: "cstor.csi.openebs.io", Backend: Attachable, CSI: true, Topology: TopologyUnknown, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (single-node)"},
	{Name: "topolvm.io", Backend: Attachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "kubernetes-csi drivers list (https://kubernetes-csi.github.io/docs/drivers.html): single-node; node-local LVM"},
	{Name: "local.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "OpenEBS local volumes (node-local; https://openebs.io/docs)"},
	{Name: "openebs.io/local", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "OpenEBS Local PV Hostpath (node-local; https://openebs.io/docs)"},
	{Name: "zfs.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "OpenEBS Local PV ZFS (node-local; https://openebs.io/docs)"},
	{Name: "lvm.csi.openebs.io", Backend: NonAttachable, CSI: true, Topology: NodeLocal, BlockOnlyMulti: true, Source: "OpenEBS Local PV LVM (node-local; https://openebs.io/docs)"},
	{Name: "pxd.portworx.com", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},
	{Name: "csi.trident.netapp.io", Backend: Attachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},

	// Network file storage: attachRequired false, RWX capable.
	{Name: "efs.csi.aws.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list (RWX); kubernetes-sigs/aws-efs-csi-driver deploy/kubernetes/base/csidriver.yaml attachRequired: false"},
	{Name: "file.csi.azure.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},
	{Name: "filestore.csi.storage.gke.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},
	{Name: "cephfs.csi.ceph.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "ceph/ceph-csi internal/cephfs/driver.go; deploy/cephfs/kubernetes/csidriver.yaml attachRequired false"},
	{Name: "nfs.csi.ceph.com", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "ceph/ceph-csi deploy/nfs/kubernetes/csidriver.yaml attachRequired false"},
	{Name: "nfs.csi.k8s.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},
	{Name: "smb.csi.k8s.io", Backend: NonAttachable, CSI: true, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "kubernetes-csi drivers list, https://kubernetes-csi.github.io/docs/drivers.html (RWX)"},
	{Name: "cluster.local/nfs-subdir-external-provisioner", Backend: NonAttachable, Topology: TopologyFree, RWX: true, ROXOK: true, Source: "NFS external provisioner (not CSI)"},

	// Node-local.
	{Name: "rancher.io/local-path", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "rancher/local-path-provisioner provisioner.go, README (NodePath allows RWO/RWOP only; PVs are hostPath/local)"},
	{Name: "kubernetes.io/no-provisioner", Backend: NonAttachable, Topology: NodeLocal, BlockOnlyMulti: true, Source: "Kubernetes docs, Storage Classes, Local (https://kubernetes.io/docs/concepts/storage/storage-classes/#local): no dynamic provisioning, needs WaitForFirstConsumer"},
	{Name: "k8s.io/minikube-hostpath", Backend: NonAttachable, Topology: NodeLocal, Source: "kubernetes/minikube pkg/storage/storage_provisioner.go (each volume is a hostPath PV under /tmp/hostpath-provisioner with the claim's access modes)"},
	{Name: "kubernetes.io/host-path", Backend: NonAttachable, Topology: NodeLocal, Source: "Kubernetes docs, Persistent Volumes (https://kubernetes.io/docs/concepts/storage/persistent-volumes/): hostPath is single-node"},

	// In-tree plugins redirected to CSI (docs/rules.md#decision-6; sources in
	// docs/storage-facts.md#f2).
	{Name: "kubernetes.io/aws-ebs", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, BlockMulti: ebsIO2, InTree: Migrated, CSIName: "ebs.csi.aws.com", MigrationOn: "1.23", Gone: "1.27", Source: "kubernetes/csi-translation-lib plugins/aws_ebs.go; kubernetes-csi changelog (migration on by default 1.23); Kubernetes docs, Persistent Volumes (not available in v1.27)"},
	{Name: "kubernetes.io/gce-pd", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, ROXOK: true, InTree: Migrated, CSIName: "pd.csi.storage.gke.io", MigrationOn: "1.23", Gone: "1.28", Source: "kubernetes/csi-translation-lib plugins/gce_pd.go; kubernetes-csi changelog (migration on by default 1.23, in-tree code removed 1.28)"},
	{Name: "kubernetes.io/azure-disk", Backend: Attachable, Topology: Zonal, BlockOnlyMulti: true, BlockMulti: azureShares, InTree: Migrated, CSIName: "disk.csi.azure.com", MigrationOn: "1.23", Gone: "1.27", Source: "kubernetes/csi-translation-lib plugins/azure_disk.go; kubernetes-csi changelog (migration on by default 1.23); Kubernetes docs, Persistent Volumes (not available in v1.27)"},
	{Name: "kubernetes.io/azure-file", Backend: NonAttachable, Topology: TopologyFree, RWX: true, ROXOK: true, InTree: Migrated, CSIName: "file.csi.azure.com", MigrationOn: "1.26", Source: "kubernetes/csi-translation-lib plugins/azure_file.go; kubernetes-csi changelog (migration GA 1.26)"},
	{Name: "kubernetes.io/cinder", Backend: Attachable, Topology: Zonal, InTree: Migrated, CSIName: "cinder.csi.openstack.org", MigrationOn: "1.24", Gone: "1.26", Source: "kubernetes/csi-translation-lib plugins/openstack_cinder.go; kubernetes-csi changelog (migration GA 1.24); Kubernetes docs, Persistent Volumes (not available in v1.26)"},
	{Name: "kubernetes.io/vsphere-volume", Backend: Attachable, Topology: TopologyFree, InTree: Migrated, CSIName: "csi.vsphere.vmware.com", MigrationOn: "1.25", Source: "kubernetes/csi-translation-lib plugins/vsphere_volume.go; kubernetes-csi changelog (migration beta on by default 1.25, GA 1.26)"},
	{Name: "kubernetes.io/portworx-volume", Backend: Attachable, Topology: TopologyFree, RWX: true, InTree: Migrated, CSIName: "pxd.portworx.com", Source: "kubernetes/csi-translation-lib plugins/portworx.go; kubernetes-csi changelog (migration beta, off by default, 1.25)"},

	// In-tree plugins no longer supported (k8s.io/api core/v1 types.go: "no longer
	// supported"; docs/storage-facts.md#f2); no CSI migration exists for them.
	{Name: "kubernetes.io/glusterfs", Backend: NonAttachable, Topology: TopologyFree, RWX: true, InTree: Removed, Deprecated: "1.25", Gone: "1.26", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes 1.26 release notes (in-tree GlusterFS driver removed)"},
	{Name: "kubernetes.io/rbd", Backend: Attachable, Topology: TopologyFree, BlockOnlyMulti: true, ROXUnverified: true, InTree: Removed, CSIName: "rbd.csi.ceph.com", Deprecated: "1.28", Gone: "1.31", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes docs, Persistent Volumes (deprecated v1.28); kubernetes/website #46304 (removed v1.31)"},
	{Name: "kubernetes.io/cephfs", Backend: NonAttachable, Topology: TopologyFree, RWX: true, InTree: Removed, CSIName: "cephfs.csi.ceph.com", Deprecated: "1.28", Gone: "1.31", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes docs, Persistent Volumes (deprecated v1.28); kubernetes/kubernetes #124544 (removed v1.31)"},
	{Name: "kubernetes.io/flocker", Backend: Attachable, InTree: Removed, Gone: "1.25", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/quobyte", Backend: NonAttachable, RWX: true, InTree: Removed, Gone: "1.25", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/scaleio", Backend: Attachable, InTree: Removed, Source: "k8s.io/api core/v1 types.go (no longer supported)"},
	{Name: "kubernetes.io/storageos", Backend: Attachable, InTree: Removed, Gone: "1.25", Source: "k8s.io/api core/v1 types.go (no longer supported); Kubernetes 1.25 changelog (Flocker, Quobyte, StorageOS plugins removed)"},
	{Name: "kubernetes.io/photon-pd", Backend: Attachable, InTree: Removed, Source: "k8s.io/api core/v1 types.go (no longer supported)"},
}
