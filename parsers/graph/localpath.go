package graph

import (
	"encoding/json"
	"strings"
)

// LocalPathProvisioner is rancher/local-path-provisioner's provisioner name.
const LocalPathProvisioner = "rancher.io/local-path"

// LocalPathConfigName is the ConfigMap local-path-provisioner reads its config.json
// from (LP deploy/local-path-storage.yaml, README "Configuration").
const LocalPathConfigName = "local-path-config"

// LocalPathMode is how local-path-provisioner places a class's volumes.
type LocalPathMode int

// Local-path modes. NodePath is the provisioner's default (the nodePathMap of its
// install manifest): a directory on one node, RWO/RWOP only. SharedFS is a
// sharedFileSystemPath mounted on every node, where RWX and ROX work too (LP README).
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
	for _, cm := range g.ByKind("ConfigMap") {
		if cm.Name != LocalPathConfigName {
			continue
		}
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
// where volumes live (LP provisioner.go ConfigData).
type localPathConfig struct {
	SharedFileSystemPath string `json:"sharedFileSystemPath"`
	StorageClassConfigs  map[string]struct {
		SharedFileSystemPath string `json:"sharedFileSystemPath"`
	} `json:"storageClassConfigs"`
}
