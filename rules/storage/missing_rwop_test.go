package storage

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

const singleWriter = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], storageClassName: gp3}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  strategy: {type: Recreate}
  template:
    spec:
      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
`

// TestMissingRWOPMinVersion checks PVL005's min-version option: the advice starts at
// 1.29 by default and at the configured version (1.27 or later) otherwise.
func TestMissingRWOPMinVersion(t *testing.T) {
	rs, _ := manifest.Parse("w.yaml", []byte(singleWriter), manifest.Options{})
	g := graph.New(rs, graph.Options{})
	tests := []struct {
		target lint.Version
		option map[string]string
		want   int
	}{
		{lint.Version{Major: 1, Minor: 28}, nil, 0},
		{lint.Version{Major: 1, Minor: 29}, nil, 1},
		{lint.Version{Major: 1, Minor: 28}, map[string]string{"min-version": "1.27"}, 1},
		{lint.Version{Major: 1, Minor: 26}, map[string]string{"min-version": "1.27"}, 0},
		{lint.Version{Major: 1, Minor: 30}, map[string]string{"min-version": "1.31"}, 0},
	}
	for _, tt := range tests {
		n := 0
		p := lint.NewPass(MissingRWOP, g, tt.target, func(lint.Finding) { n++ })
		p.SetOptions(tt.option)
		MissingRWOP.Check(p)
		if n != tt.want || len(p.Errors()) > 0 {
			t.Errorf("target %s, options %v: %d findings (errors %v), want %d", tt.target, tt.option, n, p.Errors(), tt.want)
		}
	}
	for v, ok := range map[string]bool{"1.27": true, "1.29": true, "v1.30": true, "1.26": false, "latest": false} {
		if err := MissingRWOP.Option("min-version").Check(v); (err == nil) != ok {
			t.Errorf("min-version %q: error %v, want ok %v", v, err, ok)
		}
	}
}
