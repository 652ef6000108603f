package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/rules/lint"
)

// localPath is a world with local-path-provisioner configured: lp-shared served from
// a sharedFileSystemPath, every other class on node paths.
const localPath = `apiVersion: v1
kind: ConfigMap
metadata: {name: local-path-config, namespace: local-path-storage}
data:
  config.json: '{"nodePathMap":[],"storageClassConfigs":{"lp-shared":{"sharedFileSystemPath":"/nfs"}}}'
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: lp-shared}
provisioner: rancher.io/local-path
volumeBindingMode: Immediate
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: lp-nodes}
provisioner: rancher.io/local-path
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: efs.csi.aws.com
`

// TestClassesDocument: data.pvlint.classes holds the graph's verdict per class name,
// the first class of a name winning.
func TestClassesDocument(t *testing.T) {
	rs := compileCustom(t, Options{}, "p.rego", `package classes

deny contains json.marshal(data.pvlint.classes) if input.metadata.name == "lp-nodes"
`)
	findings, errs := check(rs[0], graphOf(t, localPath))
	if len(errs) > 0 || len(findings) != 1 {
		t.Fatalf("findings %v, errors %v", findings, errs)
	}
	want := `{"gp3":{"backend":"attachable","provisioner":"ebs.csi.aws.com","topology":"zonal"},` +
		`"lp-nodes":{"backend":"non-attachable","config":{"kind":"ConfigMap","name":"local-path-config","namespace":"local-path-storage"},"local_path":"node-path","provisioner":"rancher.io/local-path","topology":"node-local"},` +
		`"lp-shared":{"backend":"non-attachable","config":{"kind":"ConfigMap","name":"local-path-config","namespace":"local-path-storage"},"local_path":"shared-filesystem","provisioner":"rancher.io/local-path","topology":"topology-free"}}`
	if diff := cmp.Diff(want, findings[0].Message); diff != "" {
		t.Errorf("data.pvlint.classes (-want +got):\n%s", diff)
	}
}

// TestImmediateBindingLocalPath: PVL001 takes a local-path class's placement from the
// graph: a shared file system is a note with the ConfigMap related, node paths an
// error, an unreadable config.json a warning (neither is known), and a second class of
// a name already taken is judged by its own provisioner.
func TestImmediateBindingLocalPath(t *testing.T) {
	rule := builtinRule(t, "PVL001")
	findings, errs := check(rule, graphOf(t, localPath))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []got{
		{At: "objects.yaml:11:1", Path: "volumeBindingMode", Severity: "note",
			Message: "StorageClass lp-shared (provisioner rancher.io/local-path, shared file system from local-path-config, reachable from every node) binds volumes immediately (volumeBindingMode Immediate): placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod",
			Related: []string{
				"objects.yaml:10:1 provisioner rancher.io/local-path (shared file system from local-path-config, reachable from every node)",
				"objects.yaml:5:3 ConfigMap local-path-config: sharedFileSystemPath for class lp-shared",
			}},
		{At: "objects.yaml:16:1", Path: "provisioner", Severity: "error",
			Message: "StorageClass lp-nodes (provisioner rancher.io/local-path, node-local) binds volumes immediately (volumeBindingMode unset, defaults to Immediate): the volume's node is chosen before the pod is scheduled, so the pod can only run there or the claim never binds",
			Related: []string{"objects.yaml:5:3 ConfigMap local-path-config: node paths for class lp-nodes"}},
		{At: "objects.yaml:21:1", Path: "provisioner", Severity: "warning",
			Message: "StorageClass gp3 (provisioner ebs.csi.aws.com, zonal block storage) binds volumes immediately (volumeBindingMode unset, defaults to Immediate): the volume's zone is chosen before the pod is scheduled, so the pod can become unschedulable"},
		{At: "objects.yaml:26:1", Path: "provisioner", Severity: "note",
			Message: "StorageClass gp3 (provisioner efs.csi.aws.com, reachable from every node) binds volumes immediately (volumeBindingMode unset, defaults to Immediate): placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod"},
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}

	unreadable := graphOf(t, `apiVersion: v1
kind: ConfigMap
metadata: {name: local-path-config, namespace: local-path-storage}
data:
  config.json: '{not json'
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: lp}
provisioner: rancher.io/local-path
`)
	findings, errs = check(rule, unreadable)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want = []got{{At: "objects.yaml:10:1", Path: "provisioner", Severity: "warning",
		Message: "StorageClass lp (provisioner rancher.io/local-path, local-path-config unreadable, node paths or a shared file system unknown to pvlint) binds volumes immediately (volumeBindingMode unset, defaults to Immediate): with node paths, the volume's node is chosen before the pod is scheduled and the claim never binds",
		Related: []string{"objects.yaml:5:3 ConfigMap local-path-config: config.json unreadable for class lp"}}}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("unreadable config (-want +got):\n%s", diff)
	}
}

// builtinRule returns one of pvlint's embedded policies by ID.
func builtinRule(t *testing.T, id string) *lint.Rule {
	t.Helper()
	for _, r := range Builtin() {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("%s is not among the embedded policies", id)
	return nil
}
