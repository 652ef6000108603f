package graph

// What backs a claim: the provisioner or volume plugin behind its class or
// pre-bound PV.

// Backend is what backs a claim.
type Backend struct {
	Class BackendClass
	// Provisioner is the class's provisioner or the PV's CSI driver / plugin name.
	Provisioner string
	// Row is the table's knowledge of Provisioner.
	Row Provisioner
	// Via says how it was found: "class", "pv", or "" when unknown.
	Via string
}

// BackendOf classifies the storage behind a claim: through its pre-bound PV's source,
// otherwise its class's provisioner. A CSIDriver object in the set with attachRequired:
// false makes a driver non-attachable.
func (g *Graph) BackendOf(c *Claim) Backend {
	if pv := g.PVOf(c); pv != nil {
		if b := g.pvBackend(pv); b.Class != BackendUnknown {
			return b
		}
	}
	return g.ClassBackend(g.ClassOf(c).Class)
}

// ClassBackend classifies the storage a StorageClass provisions, as BackendOf does for
// a claim of the class; nil gives the unknown backend.
func (g *Graph) ClassBackend(sc *Resource) Backend {
	if sc == nil {
		return Backend{}
	}
	return g.provisionerBackend(sc.Get("provisioner").Str(), "class")
}

func (g *Graph) provisionerBackend(name, via string) Backend {
	if name == "" {
		return Backend{}
	}
	row := g.Provisioners.Classify(name)
	b := Backend{Class: row.Backend, Provisioner: name, Row: row, Via: via}
	if d := g.Lookup("CSIDriver", "", name); d != nil {
		if v, ok := d.Get("spec", "attachRequired").Bool(); ok && !v {
			b.Class = NonAttachable
		}
	}
	return b
}

// pvSources maps PV volume sources to backends (Kubernetes' IsAttachableVolume,
// pkg/volume/util/util.go; docs/storage-facts.md#f7).
var pvSources = []struct {
	key, plugin string
	class       BackendClass
}{
	{"awsElasticBlockStore", "kubernetes.io/aws-ebs", Attachable},
	{"gcePersistentDisk", "kubernetes.io/gce-pd", Attachable},
	{"azureDisk", "kubernetes.io/azure-disk", Attachable},
	{"cinder", "kubernetes.io/cinder", Attachable},
	{"vsphereVolume", "kubernetes.io/vsphere-volume", Attachable},
	{"portworxVolume", "kubernetes.io/portworx-volume", Attachable},
	{"rbd", "kubernetes.io/rbd", Attachable},
	{"iscsi", "kubernetes.io/iscsi", Attachable},
	{"fc", "kubernetes.io/fc", Attachable},
	{"azureFile", "kubernetes.io/azure-file", NonAttachable},
	{"nfs", "kubernetes.io/nfs", NonAttachable},
	{"hostPath", "kubernetes.io/host-path", NonAttachable},
	{"local", "kubernetes.io/local", NonAttachable},
	{"cephfs", "kubernetes.io/cephfs", NonAttachable},
	{"glusterfs", "kubernetes.io/glusterfs", NonAttachable},
	{"quobyte", "kubernetes.io/quobyte", NonAttachable},
	{"flocker", "kubernetes.io/flocker", Attachable},
	{"scaleIO", "kubernetes.io/scaleio", Attachable},
	{"storageos", "kubernetes.io/storageos", Attachable},
	{"photonPersistentDisk", "kubernetes.io/photon-pd", Attachable},
}

// PVPlugin returns the volume plugin or CSI driver a PersistentVolume (or an inline
// volume) uses, with the node naming it, or "" when it has no recognised source.
func PVPlugin(spec *Node) (string, *Node) {
	if d := spec.Get("csi", "driver"); d != nil {
		return d.Str(), d
	}
	for _, s := range pvSources {
		if n := spec.Get(s.key); n != nil {
			return s.plugin, n
		}
	}
	return "", nil
}

// PVClass returns a PersistentVolume's StorageClass as the PV controller reads it
// (Kubernetes' GetPersistentVolumeClass, pkg/apis/storage/v1/util/helpers.go;
// docs/storage-facts.md#f1): the beta annotation first, then spec.storageClassName. ""
// means the PV has no class; node is the field that decided, nil when neither is set.
func PVClass(pv *Resource) (string, *Node) {
	if a, ok := pv.Annotation(AnnBetaClass); ok && !a.IsNull() {
		return a.Str(), a
	}
	if n := pv.Get("spec", "storageClassName"); n != nil && !n.IsNull() {
		return n.Str(), n
	}
	return "", nil
}

func (g *Graph) pvBackend(pv *Resource) Backend {
	spec := pv.Get("spec")
	if d := spec.Get("csi", "driver"); d != nil {
		return g.provisionerBackend(d.Str(), "pv")
	}
	for _, s := range pvSources {
		if spec.Get(s.key) != nil {
			row := g.Provisioners.Classify(s.plugin)
			return Backend{Class: s.class, Provisioner: s.plugin, Row: row, Via: "pv"}
		}
	}
	return Backend{}
}
