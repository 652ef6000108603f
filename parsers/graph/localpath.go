package graph

import (
	"encoding/json"
	"strings"
)

// LocalPathProvisioner is rancher/local-path-provisioner's provisioner name.
const LocalPathProvisioner = "rancher.io/local-path"

// LocalPathConfigName is the ConfigMap local-path-provisioner reads its config.json
// from (rancher/local-path-provisioner deploy/local-path-storage.yaml, README
// "Configuration").
const LocalPathConfigName = "local-path-config"

// LocalPathMode is how local-path-provisioner places a class's volumes.
type LocalPathMode int

// Local-path modes. NodePath is the provisioner's default (the nodePathMap of its
// install manifest): a directory on one node, RWO/RWOP only. SharedFS is a
// sharedFileSystemPath mounted on every node, where RWX and ROX work too
// (rancher/local-path-provisioner README).
const (
	LocalPathUnknown LocalPathMode = iota
	LocalPathNodePath
	LocalPathSharedFS
)

// LocalPathModeOf reports how local-path-provisioner places the volumes of the named
// class, from the local-path-config ConfigMaps in the linted set: a top-level
// sharedFileSystemPath applies to every class, storageClassConfigs[class] to one.
// Without such a ConfigMap it is the default NodePath; a config.json pvlint cannot
// read (not JSON, computed by Terraform) gives LocalPathUnknown. The ConfigMap that
// decided is returned when there is one.
func (g *Graph) LocalPathModeOf(class string) (LocalPathMode, *Resource) {
	var decided *Resource
	for _, cm := range g.localPath {
		n := cm.Get("data", "config.json")
		if n == nil {
			continue
		}
		var cfg localPathConfig
		if !n.IsString() || json.Unmarshal([]byte(n.Scalar), &cfg) != nil {
			return LocalPathUnknown, cm
		}
		if sc, ok := cfg.StorageClassConfigs[class]; ok {
			if strings.TrimSpace(sc.SharedFileSystemPath) != "" {
				return LocalPathSharedFS, cm
			}
			decided = cm
			continue
		}
		if strings.TrimSpace(cfg.SharedFileSystemPath) != "" {
			return LocalPathSharedFS, cm
		}
		decided = cm
	}
	return LocalPathNodePath, decided
}

// localPathConfig is the part of local-path-provisioner's config.json that decides
// where volumes live (rancher/local-path-provisioner provisioner.go, ConfigData).
type localPathConfig struct {
	SharedFileSystemPath string `json:"sharedFileSystemPath"`
	StorageClassConfigs  map[string]struct {
		SharedFileSystemPath string `json:"sharedFileSystemPath"`
	} `json:"storageClassConfigs"`
}

// Placement is where a StorageClass's volumes can be used, which decides how much
// binding them before the pod is scheduled hurts (PVL001, docs/rules.md#decision-1).
type Placement struct {
	Topology Topology
	// LocalPath is the local-path-provisioner mode of a rancher.io/local-path class
	// (LocalPathUnknown for other provisioners).
	LocalPath LocalPathMode
	// Config is the local-path-config ConfigMap that decided LocalPath, when one did.
	Config *Resource
}

// PlacementOf returns where a StorageClass's volumes can be used: its provisioner's
// row in the table, except for local-path-provisioner, whose placement its
// local-path-config decides per class. Node paths keep the row's node-local topology;
// a sharedFileSystemPath is a file system every node mounts, so placement does not
// matter and Immediate binding is allowed (rancher/local-path-provisioner README,
// "Configuration"; docs/storage-facts.md#f1); a config.json pvlint cannot read leaves
// the topology unknown rather than guessing either way. Policies read the same verdict
// from data.pvlint.classes, so the knowledge lives here once.
func (g *Graph) PlacementOf(sc *Resource) Placement {
	if sc == nil {
		return Placement{}
	}
	name := sc.Get("provisioner").Str()
	p := Placement{Topology: g.Provisioners.Classify(name).Topology}
	if name != LocalPathProvisioner || sc.Name == "" {
		return p
	}
	p.LocalPath, p.Config = g.LocalPathModeOf(sc.Name)
	switch p.LocalPath {
	case LocalPathSharedFS:
		p.Topology = TopologyFree
	case LocalPathUnknown:
		p.Topology = TopologyUnknown
	}
	return p
}
