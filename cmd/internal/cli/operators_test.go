package cli

import (
	"strings"
	"testing"
)

// TestOperatorSummary checks the verbose summary's count of custom resources mapped
// to what their operators create, over every input form of testdata/operators, and
// that it is absent when there are none.
func TestOperatorSummary(t *testing.T) {
	t.Chdir(repoRoot)
	_, _, stderr := runCase(cliCase{args: []string{"--verbose", "-q", "testdata/operators"}})
	want := "pvlint: operator resources: 9 mapped (CloudNativePG Cluster 3, Crunchy PGO PostgresCluster 1, ECK Elasticsearch 2, " +
		"Prometheus Operator Alertmanager 1, Prometheus Operator Prometheus 1, Strimzi KafkaNodePool 1); 1 of an unmodelled version, not mapped (PVL028)\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	_, _, stderr = runCase(cliCase{args: []string{"--verbose", "-q", "testdata/demo"}})
	if strings.Contains(stderr, "operator resources") {
		t.Errorf("a run without operator resources mentions them:\n%s", stderr)
	}
}
