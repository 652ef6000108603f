package graph_test

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

func localPathConfig(json string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: local-path-config, namespace: local-path-storage}\ndata:\n  config.json: '" + json + "'\n"
}

func TestLocalPathModeOf(t *testing.T) {
	tests := []struct {
		name   string
		docs   []string
		class  string
		want   graph.LocalPathMode
		fromCM bool
	}{
		{"no config in the set is the default", nil, "local-path", graph.LocalPathNodePath, false},
		{"nodePathMap", []string{localPathConfig(`{"nodePathMap":[{"node":"DEFAULT_PATH_FOR_NON_LISTED_NODES","paths":["/opt/lp"]}]}`)}, "local-path", graph.LocalPathNodePath, true},
		{"shared for every class", []string{localPathConfig(`{"sharedFileSystemPath":"/shared","nodePathMap":[]}`)}, "local-path", graph.LocalPathSharedFS, true},
		{"shared for this class", []string{localPathConfig(`{"nodePathMap":[],"storageClassConfigs":{"lp-shared":{"sharedFileSystemPath":"/nfs"},"lp-node":{"nodePathMap":[]}}}`)}, "lp-shared", graph.LocalPathSharedFS, true},
		{"node paths for another class", []string{localPathConfig(`{"nodePathMap":[],"storageClassConfigs":{"lp-shared":{"sharedFileSystemPath":"/nfs"},"lp-node":{"nodePathMap":[]}}}`)}, "lp-node", graph.LocalPathNodePath, true},
		{"unreadable config", []string{localPathConfig(`{not json`)}, "local-path", graph.LocalPathUnknown, true},
		{"another ConfigMap", []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\ndata:\n  config.json: '{\"sharedFileSystemPath\":\"/s\"}'\n"}, "local-path", graph.LocalPathNodePath, false},
	}
	for _, tt := range tests {
		g := build(t, append(tt.docs, "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}")...)
		got, cm := g.LocalPathModeOf(tt.class)
		if got != tt.want || (cm != nil) != tt.fromCM {
			t.Errorf("%s: LocalPathModeOf(%s) = %v (ConfigMap %v), want %v (ConfigMap %v)", tt.name, tt.class, got, cm, tt.want, tt.fromCM)
		}
	}
}

func TestPlacementOf(t *testing.T) {
	shared := localPathConfig(`{"nodePathMap":[],"storageClassConfigs":{"lp-shared":{"sharedFileSystemPath":"/nfs"}}}`)
	class := func(name, provisioner string) string {
		return "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " + name + "}\nprovisioner: " + provisioner
	}
	tests := []struct {
		name   string
		docs   []string
		want   graph.Placement
		fromCM bool
	}{
		{"zonal block storage", []string{class("gp3", "ebs.csi.aws.com")}, graph.Placement{Topology: graph.Zonal}, false},
		{"local-path without config", []string{class("lp", "rancher.io/local-path")}, graph.Placement{Topology: graph.NodeLocal, LocalPath: graph.LocalPathNodePath}, false},
		{"local-path on a shared file system", []string{class("lp-shared", "rancher.io/local-path"), shared}, graph.Placement{Topology: graph.TopologyFree, LocalPath: graph.LocalPathSharedFS}, true},
		{"local-path node paths next to a shared class", []string{class("lp", "rancher.io/local-path"), shared}, graph.Placement{Topology: graph.NodeLocal, LocalPath: graph.LocalPathNodePath}, true},
		{"local-path config unreadable", []string{class("lp", "rancher.io/local-path"), localPathConfig(`{not json`)}, graph.Placement{Topology: graph.TopologyUnknown, LocalPath: graph.LocalPathUnknown}, true},
		{"another provisioner ignores the config", []string{class("lp-shared", "kubernetes.io/no-provisioner"), shared}, graph.Placement{Topology: graph.NodeLocal}, false},
	}
	for _, tt := range tests {
		g := build(t, tt.docs...)
		got := g.PlacementOf(g.ByKind("StorageClass")[0])
		if got.Topology != tt.want.Topology || got.LocalPath != tt.want.LocalPath || (got.Config != nil) != tt.fromCM {
			t.Errorf("%s: PlacementOf = %+v, want %+v (ConfigMap %v)", tt.name, got, tt.want, tt.fromCM)
		}
	}
	if got := (&graph.Graph{}).PlacementOf(nil); got != (graph.Placement{}) {
		t.Errorf("PlacementOf(nil) = %+v", got)
	}
}

func TestParamRule(t *testing.T) {
	row := graph.DefaultProvisioners().Classify("ebs.csi.aws.com")
	azure := graph.DefaultProvisioners().Classify("disk.csi.azure.com")
	tests := []struct {
		name      string
		rule      graph.ParamRule
		params    string
		ok, known bool
	}{
		{"io2", row.BlockMulti, "{type: io2}", true, true},
		{"gp3", row.BlockMulti, "{type: gp3}", false, true},
		{"unset", row.BlockMulti, "{}", false, true},
		{"maxShares 2", azure.BlockMulti, `{maxShares: "2"}`, true, true},
		{"maxShares 1", azure.BlockMulti, `{maxShares: "1"}`, false, true},
		{"maxShares not a number", azure.BlockMulti, `{maxShares: many}`, false, true},
		{"no rule", graph.ParamRule{}, "{}", true, true},
	}
	for _, tt := range tests {
		g := build(t, "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: c}\nprovisioner: x\nparameters: "+tt.params)
		_, ok, known := tt.rule.Check(g.ByKind("StorageClass")[0].Get("parameters"))
		if ok != tt.ok || known != tt.known {
			t.Errorf("%s: Check = %v (known %v), want %v (known %v)", tt.name, ok, known, tt.ok, tt.known)
		}
	}
	if got := row.BlockMulti.Want(); got != "type io2" {
		t.Errorf("EBS Want() = %q", got)
	}
	if got := azure.BlockMulti.Want(); got != "maxShares of at least 2" {
		t.Errorf("Azure Want() = %q", got)
	}
	unknown := &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: []graph.Field{{Key: "type", Value: &graph.Node{Kind: graph.Unknown}}}}}
	if _, ok, known := row.BlockMulti.Check(unknown); ok || known {
		t.Errorf("a computed type = %v (known %v), want unknown", ok, known)
	}
}
