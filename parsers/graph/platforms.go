package graph

import (
	"slices"
	"sort"
	"strings"
)

// Platform profiles.
//
// Most application repositories do not define the StorageClasses their claims name:
// the cluster provides them (gp2 on EKS, standard-rwo and premium-rwo on GKE,
// local-path on k3s). A platform profile is the set of classes a platform installs
// by default, so that claims naming them (or naming none, for the default class)
// resolve to a provisioner the way classes in the linted set do. Profile classes are
// context: they are never reported on themselves (a finding the user cannot fix by
// editing the repository would be noise), and a chain that went through one names the
// profile ("class premium-rwo (GKE default classes) → pd.csi.storage.gke.io").
//
// Every row says where it was read and for which platform version it holds; a fact
// the source does not state is said in the row's note rather than guessed.

// PlatformClass is one StorageClass a platform installs by default.
type PlatformClass struct {
	Name        string
	Provisioner string
	// Binding is volumeBindingMode as the class sets it; "" when the class leaves it
	// unset (Kubernetes then uses Immediate).
	Binding string
	// Reclaim is reclaimPolicy as the class sets it; "" when unset (Delete).
	Reclaim string
	Default bool
	// Expansion is allowVolumeExpansion as the class sets it; nil when unset (false).
	Expansion *bool
	// Source is the public address the row was read from; Version the platform
	// version (or the source's release) it holds for.
	Source  string
	Version string
	// Note says what the source does not establish, or how to read the row.
	Note string
}

// Platform is one profile: the classes a platform family installs by default.
type Platform struct {
	// Name is what --cluster and the configuration's cluster: take ("gke").
	Name string
	// Title names the platform in messages ("GKE").
	Title string
	// Aliases are other names for the same profile ("eks" for "aws-eks").
	Aliases []string
	Classes []PlatformClass
}

// Label is how chains name a class of this profile: "GKE default classes".
func (p *Platform) Label() string { return p.Title + " default classes" }

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

const (
	wffc      = "WaitForFirstConsumer"
	immediate = "Immediate"
	deleteRP  = "Delete"
	retainRP  = "Retain"
)

// gkeClasses are the classes of GKE clusters with the Compute Engine persistent disk
// CSI driver (on by default): the same listing is printed by kubectl on Standard and
// Autopilot clusters in the sources below.
var gkeClasses = []PlatformClass{
	{Name: "standard-rwo", Provisioner: "pd.csi.storage.gke.io", Binding: wffc, Reclaim: deleteRP, Default: true, Expansion: yes(),
		Source:  "https://github.com/appvia/terraform-google-wayfinder/blob/main/manifests/storageclass-encrypted.yml.tpl",
		Version: "GKE with PD CSI driver component 0.16.14",
		Note:    "fields from a copy of GKE's own class (its components.gke.io annotations kept), which marks it default; kubectl listings of older GKE clusters show standard as the default instead, and which cluster versions switched is not verified here"},
	{Name: "premium-rwo", Provisioner: "pd.csi.storage.gke.io", Binding: wffc, Reclaim: deleteRP, Expansion: yes(),
		Source:  "https://gist.github.com/damlys/a54c72c819681823e906b699cfb852f4",
		Version: "GKE clusters listed in 2021-2023 sources",
		Note:    "the gist holds the regional twin (regional-premium-rwo: pd-ssd, WaitForFirstConsumer, Delete, expansion); the zonal class's provisioner, binding mode, reclaim policy and expansion are those kubectl prints on GKE in public troubleshooting guides"},
	{Name: "standard", Provisioner: "kubernetes.io/gce-pd", Binding: immediate, Reclaim: deleteRP, Expansion: yes(),
		Source:  "https://gist.github.com/damlys/a54c72c819681823e906b699cfb852f4",
		Version: "GKE clusters listed in 2021-2023 sources",
		Note:    "the in-tree class (regional-standard in the gist has the same fields); kubectl listings show it marked default on older clusters, not on those that default to standard-rwo"},
}

// platforms is the profile table. Keep it sorted by Name; docs/clusters.md's profile table is
// generated from it.
var platforms = []Platform{
	{Name: "aks", Title: "AKS", Aliases: []string{"azure"}, Classes: []PlatformClass{
		{Name: "default", Provisioner: "disk.csi.azure.com", Binding: wffc, Reclaim: deleteRP, Default: true, Expansion: yes(),
			Source:  "https://learn.microsoft.com/azure/aks/create-volume-azure-disk",
			Version: "AKS 1.21 and later (CSI drivers only)",
			Note:    "the page lists four built-in classes, default (Standard SSD disk, the default) and managed-csi-premium among them; binding mode, reclaim policy and expansion are those of the azuredisk-csi-driver example class managed-csi (deploy/example/storageclass-azuredisk-csi.yaml), not read from AKS itself"},
		{Name: "managed-csi", Provisioner: "disk.csi.azure.com", Binding: wffc, Reclaim: deleteRP, Expansion: yes(),
			Source:  "https://github.com/kubernetes-sigs/azuredisk-csi-driver/blob/master/deploy/example/storageclass-azuredisk-csi.yaml",
			Version: "azuredisk-csi-driver master",
			Note:    "the driver's example of the class AKS creates; a Microsoft workshop lists it on AKS with WaitForFirstConsumer and Delete"},
		{Name: "managed-csi-premium", Provisioner: "disk.csi.azure.com", Binding: wffc, Reclaim: deleteRP, Expansion: yes(),
			Source:  "https://learn.microsoft.com/azure/aks/create-volume-azure-disk",
			Version: "AKS 1.21 and later",
			Note:    "binding mode and reclaim policy from https://microsoft.github.io/k8s-on-azure-workshop/module-3/2_storage/2_aks_storage_implementation/index.html; expansion not stated there"},
		{Name: "azurefile-csi", Provisioner: "file.csi.azure.com", Binding: immediate, Reclaim: deleteRP,
			Source:  "https://learn.microsoft.com/azure/aks/create-volume-azure-files",
			Version: "AKS 1.21 and later",
			Note:    "binding mode and reclaim policy from the Microsoft workshop page above; whether expansion is allowed is not verified (left unset)"},
		{Name: "azurefile-csi-premium", Provisioner: "file.csi.azure.com", Binding: immediate, Reclaim: deleteRP,
			Source:  "https://learn.microsoft.com/azure/aks/create-volume-azure-files",
			Version: "AKS 1.21 and later",
			Note:    "as azurefile-csi, on SSD; expansion not verified (left unset)"},
	}},
	{Name: "digitalocean", Title: "DigitalOcean", Aliases: []string{"doks"}, Classes: []PlatformClass{
		{Name: "do-block-storage", Provisioner: "dobs.csi.digitalocean.com", Default: true, Expansion: yes(),
			Source:  "https://github.com/digitalocean/csi-digitalocean/blob/master/deploy/kubernetes/releases/csi-digitalocean-v4.19.0/driver.yaml",
			Version: "csi-digitalocean v4.19.0",
			Note:    "binding mode and reclaim policy unset (Immediate, Delete); that DOKS installs this release's classes unchanged is not verified"},
		{Name: "do-block-storage-retain", Provisioner: "dobs.csi.digitalocean.com", Reclaim: retainRP, Expansion: yes(),
			Source:  "https://github.com/digitalocean/csi-digitalocean/blob/master/deploy/kubernetes/releases/csi-digitalocean-v4.19.0/driver.yaml",
			Version: "csi-digitalocean v4.19.0"},
		{Name: "do-block-storage-xfs", Provisioner: "dobs.csi.digitalocean.com", Expansion: yes(),
			Source:  "https://github.com/digitalocean/csi-digitalocean/blob/master/deploy/kubernetes/releases/csi-digitalocean-v4.19.0/driver.yaml",
			Version: "csi-digitalocean v4.19.0"},
		{Name: "do-block-storage-xfs-retain", Provisioner: "dobs.csi.digitalocean.com", Reclaim: retainRP, Expansion: yes(),
			Source:  "https://github.com/digitalocean/csi-digitalocean/blob/master/deploy/kubernetes/releases/csi-digitalocean-v4.19.0/driver.yaml",
			Version: "csi-digitalocean v4.19.0"},
	}},
	{Name: "eks", Title: "EKS", Aliases: []string{"aws"}, Classes: []PlatformClass{
		{Name: "gp2", Provisioner: "kubernetes.io/aws-ebs", Binding: wffc, Reclaim: deleteRP, Default: true, Expansion: no(),
			Source:  "https://github.com/stackabletech/documentation/pull/683",
			Version: "EKS clusters listed in 2019-2024 sources",
			Note:    "read from the kubectl get storageclasses output the page quotes (gp2 (default), kubernetes.io/aws-ebs, Delete, WaitForFirstConsumer, false); AWS's own page was not read, and whether clusters created on recent versions still mark gp2 default is not verified. EKS Auto Mode creates no class."},
	}},
	{Name: "gke", Title: "GKE", Aliases: []string{"gke-standard", "gcp"}, Classes: gkeClasses},
	{Name: "gke-autopilot", Title: "GKE Autopilot", Aliases: []string{"autopilot"}, Classes: autopilot(gkeClasses)},
	{Name: "k3s", Title: "k3s", Classes: []PlatformClass{
		{Name: "local-path", Provisioner: "rancher.io/local-path", Binding: wffc, Reclaim: deleteRP, Default: true,
			Source:  "https://github.com/k3s-io/k3s/blob/master/manifests/local-storage.yaml",
			Version: "k3s with local-path-provisioner v0.0.29",
			Note:    "allowVolumeExpansion unset (false); RKE2 does not ship this manifest and has no profile"},
	}},
	{Name: "kind", Title: "kind", Classes: []PlatformClass{
		{Name: "standard", Provisioner: "rancher.io/local-path", Binding: wffc, Reclaim: deleteRP, Default: true,
			Source:  "https://github.com/kubernetes-sigs/kind/blob/main/pkg/build/nodeimage/const_storage.go",
			Version: "kind node images with local-path-provisioner v20240813",
			Note:    "kind's customised local-path-provisioner, installed as the default class; allowVolumeExpansion unset (false)"},
	}},
	{Name: "linode", Title: "Linode LKE", Aliases: []string{"lke", "akamai"}, Classes: []PlatformClass{
		{Name: "linode-block-storage-retain", Provisioner: "linodebs.csi.linode.com", Reclaim: retainRP, Default: true, Expansion: yes(),
			Source:  "https://github.com/linode/linode-blockstorage-csi-driver/blob/main/helm-chart/csi-driver/templates/linode-block-storage-retain.yaml",
			Version: "linode-blockstorage-csi-driver Helm chart (defaultStorageClass: linode-block-storage-retain)",
			Note:    "binding mode unset (Immediate); that LKE installs the chart with its default values is not verified"},
		{Name: "linode-block-storage", Provisioner: "linodebs.csi.linode.com", Expansion: yes(),
			Source:  "https://github.com/linode/linode-blockstorage-csi-driver/blob/main/helm-chart/csi-driver/templates/linode-block-storage.yaml",
			Version: "linode-blockstorage-csi-driver Helm chart",
			Note:    "binding mode and reclaim policy unset (Immediate, Delete); default only when the chart's defaultStorageClass names it"},
	}},
	{Name: "microk8s", Title: "MicroK8s", Classes: []PlatformClass{
		{Name: "microk8s-hostpath", Provisioner: "microk8s.io/hostpath", Binding: wffc, Reclaim: deleteRP, Default: true,
			Source:  "https://github.com/canonical/microk8s-core-addons/blob/main/addons/hostpath-storage/storage.yaml",
			Version: "MicroK8s hostpath-storage addon (hostpath-provisioner 1.4.2)",
			Note:    "installed by microk8s enable hostpath-storage, whose defaults are reclaim policy Delete and default class true; allowVolumeExpansion unset (false)"},
	}},
	{Name: "minikube", Title: "minikube", Classes: []PlatformClass{
		{Name: "standard", Provisioner: "k8s.io/minikube-hostpath", Default: true,
			Source:  "https://github.com/kubernetes/minikube/blob/master/deploy/addons/storageclass/storageclass.yaml",
			Version: "minikube default-storageclass addon",
			Note:    "marked default with the beta annotation; binding mode, reclaim policy and expansion unset (Immediate, Delete, false)"},
	}},
	{Name: "openshift-aws", Title: "OpenShift on AWS", Aliases: []string{"rosa", "openshift"}, Classes: []PlatformClass{
		{Name: "gp3-csi", Provisioner: "ebs.csi.aws.com", Binding: wffc, Reclaim: deleteRP, Default: true, Expansion: yes(),
			Source:  "https://github.com/openshift/aws-ebs-csi-driver-operator/blob/master/assets/storageclass_gp3.yaml",
			Version: "OpenShift 4 AWS EBS CSI driver operator",
			Note:    "the asset carries no default annotation: the operator marks its class default (Red Hat OpenShift Service on AWS docs, AWS Elastic Block Store CSI Driver Operator: it \"provides a StorageClass by default\"); that gp3-csi is that class is not stated there"},
	}},
	{Name: "openstack", Title: "OpenStack Cinder", Aliases: []string{"cinder"}, Classes: []PlatformClass{
		{Name: "csi-cinder-sc-delete", Provisioner: "cinder.csi.openstack.org", Reclaim: deleteRP, Expansion: yes(),
			Source:  "https://github.com/kubernetes/cloud-provider-openstack/blob/master/charts/cinder-csi-plugin/templates/storageclass.yaml",
			Version: "cinder-csi-plugin Helm chart",
			Note:    "the chart's values mark neither class default (storageClass.delete.isDefault: false), so claims without a class do not resolve; binding mode unset (Immediate)"},
		{Name: "csi-cinder-sc-retain", Provisioner: "cinder.csi.openstack.org", Reclaim: retainRP, Expansion: yes(),
			Source:  "https://github.com/kubernetes/cloud-provider-openstack/blob/master/charts/cinder-csi-plugin/templates/storageclass.yaml",
			Version: "cinder-csi-plugin Helm chart",
			Note:    "not default (storageClass.retain.isDefault: false); binding mode unset (Immediate)"},
	}},
	{Name: "rancher-desktop", Title: "Rancher Desktop", Classes: []PlatformClass{
		{Name: "local-path", Provisioner: "rancher.io/local-path", Binding: wffc, Reclaim: deleteRP, Default: true,
			Source:  "https://github.com/k3s-io/k3s/blob/master/manifests/local-storage.yaml",
			Version: "Rancher Desktop's bundled k3s",
			Note:    "Rancher Desktop runs k3s, so its class is k3s's; Rancher Desktop's own documentation was not read"},
	}},
}

// autopilot returns the GKE rows for Autopilot clusters: the same classes, with a
// note that no Autopilot-specific source confirmed them.
func autopilot(rows []PlatformClass) []PlatformClass {
	out := make([]PlatformClass, len(rows))
	for i, r := range rows {
		r.Note = "taken to be as on GKE Standard: no Autopilot listing was read in full. " + r.Note
		out[i] = r
	}
	return out
}

// Platforms returns the profile table sorted by name. The slice is fresh; the rows
// are shared and must not be changed.
func Platforms() []Platform {
	out := append([]Platform(nil), platforms...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FindPlatform returns the profile of a name or alias (any case), or nil.
func FindPlatform(name string) *Platform {
	name = strings.ToLower(strings.TrimSpace(name))
	for i := range platforms {
		p := &platforms[i]
		if p.Name == name {
			return p
		}
		if slices.Contains(p.Aliases, name) {
			return p
		}
	}
	return nil
}

// NoProfile names distributions that have no profile because they install no
// StorageClass of their own, and says why, so that asking for one is answered with
// the fact rather than a near name.
var NoProfile = map[string]string{
	"rke2": "RKE2 installs no StorageClass of its own: its bundled charts add a CSI driver only with the vSphere, Harvester or oVirt cloud provider " +
		"(charts/chart_versions.yaml in rancher/rke2), and a default class comes from what the cluster's owner installs",
}

// PlatformNames lists every name and alias --cluster accepts, sorted.
func PlatformNames() []string {
	var out []string
	for _, p := range platforms {
		out = append(out, p.Name)
		out = append(out, p.Aliases...)
	}
	sort.Strings(out)
	return out
}

// Resources builds the profile's StorageClasses as context resources: objects as
// kubectl would print them, with no position (they are in no file) and Origin.Context
// naming the profile.
func (p *Platform) Resources() []*Resource {
	out := make([]*Resource, 0, len(p.Classes))
	for _, c := range p.Classes {
		meta := []Field{{Key: "name", Value: str(c.Name)}}
		if c.Default {
			meta = append(meta, Field{Key: "annotations", Value: &Node{Kind: Map, Contents: &Contents{Fields: []Field{{Key: AnnDefaultClass, Value: str("true")}}}}})
		}
		fields := []Field{
			{Key: "apiVersion", Value: str("storage.k8s.io/v1")},
			{Key: "kind", Value: str("StorageClass")},
			{Key: "metadata", Value: &Node{Kind: Map, Contents: &Contents{Fields: meta}}},
			{Key: "provisioner", Value: str(c.Provisioner)},
		}
		if c.Binding != "" {
			fields = append(fields, Field{Key: "volumeBindingMode", Value: str(c.Binding)})
		}
		if c.Reclaim != "" {
			fields = append(fields, Field{Key: "reclaimPolicy", Value: str(c.Reclaim)})
		}
		if c.Expansion != nil {
			v := "false"
			if *c.Expansion {
				v = "true"
			}
			fields = append(fields, Field{Key: "allowVolumeExpansion", Value: &Node{Kind: Bool, Scalar: v}})
		}
		out = append(out, &Resource{
			APIVersion: "storage.k8s.io/v1", Kind: "StorageClass", Name: c.Name,
			Origin: Origin{Format: FormatProfile, Context: p.Label()},
			Object: &Node{Kind: Map, Contents: &Contents{Fields: fields}},
		})
	}
	return out
}

func str(s string) *Node { return &Node{Kind: String, Scalar: s} }
