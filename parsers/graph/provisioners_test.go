package graph_test

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

// TestClassifyUnknown checks what names missing from the table get: a name in CSI's
// domain-name notation is an attachable CSI driver (rules.md "unknown CSI"), an
// in-tree or slashed name is not a CSI driver and its backend is unknown.
func TestClassifyUnknown(t *testing.T) {
	tests := []struct {
		name    string
		backend graph.BackendClass
		csi     bool
	}{
		{"rook-ceph.rbd.csi.ceph.com", graph.Attachable, true},
		{"csi.example.com", graph.Attachable, true},
		{"kubernetes.io/made-up", graph.BackendUnknown, false},
		{"k8s.io/minikube-hostpath", graph.BackendUnknown, false},
		{"microk8s.io/hostpath", graph.BackendUnknown, false},
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
