package promql

import (
	"strings"
	"testing"
)

// TestAnalyze covers the shapes the fixtures do not: each case lists substrings of
// the expected messages, in order; nil means quiet.
func TestAnalyze(t *testing.T) {
	cases := []struct {
		expr string
		want []string
	}{
		{`{__name__="kube_volumeattachment_info", attached="true"}`, []string{`has no label "attached"`}},
		{`{__name__=~"kube_volumeattachment_.*", attached="true"}`, nil}, // the metric is not known statically
		{`kube_volumeattachment_info{attached!="true"}`, nil},            // matches the missing label
		{`kube_volumeattachment_info{attached=~"true|"}`, nil},
		{`kube_volumeattachment_status_attachment_metadata{metadata_devicePath="/dev/xvdba"}`, nil},
		{`kube_persistentvolumeclaim_access_mode{access_mode="RWO"}`, []string{"access_mode is one of ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod"}},
		{`kube_persistentvolumeclaim_status_phase{phase=~"pending"}`, []string{`{phase=~"pending"} matches no series`}},
		{`kube_persistentvolume_status_phase{phase!="Bound"}`, nil},
		{`kube_persistentvolumeclaim_info{namespace="shop"} * on (namespace, persistentvolumeclaim) kube_persistentvolumeclaim_resource_requests_storage_bytes`, nil},
		{`kube_persistentvolumeclaim_info * ignoring (storageclass, volumename, volumemode) kube_persistentvolumeclaim_resource_requests_storage_bytes`, nil},
		{`kube_persistentvolumeclaim_info * ignoring (persistentvolumeclaim) kube_persistentvolumeclaim_created`, []string{"one series per persistentvolumeclaim, so one-to-one matching ignoring (persistentvolumeclaim)"}},
		{`kube_persistentvolumeclaim_status_phase{phase="Pending"} * on (namespace, persistentvolumeclaim) kube_persistentvolumeclaim_info`, nil},
		{`kube_persistentvolumeclaim_status_phase * on (namespace, persistentvolumeclaim) kube_persistentvolumeclaim_info`, []string{"has one series per phase"}},
		{`(kube_volumeattachment_info == 1) * on (node) group_left () kube_node_info`, nil},
		{`kube_volumeattachment_info and on (node) kube_node_info`, nil},
		{`0 < kube_volumeattachment_info * (kube_node_spec_unschedulable == 0)`, []string{"keeps only samples whose value is 0"}},
		{`kube_volumeattachment_info * on (volumeattachment) (kube_volumeattachment_status_attached == 0) != 0`, []string{"!= 0 never holds"}},
		{`kube_volumeattachment_status_attached * (kube_volumeattachment_status_attached == bool 0) > 0`, nil},
		{`kube_volumeattachment_status_attached * (kube_volumeattachment_status_attached == 0) >= 0`, nil},
		{`kube_volumeattachment_status_attached * (kube_volumeattachment_status_attached == 0) > -1`, nil},
		{`kube_volumeattachment_status_attached * (kube_volumeattachment_status_attached == 0) < -(1)`, []string{"< -1 never holds"}},
		{`up * (up == 0) > 0`, nil}, // no storage metric: not PVL021's
		{`kube_persistentvolumeclaim_info{`, []string{"expression does not parse"}},
		{`up{`, nil},
		{`kube_persistentvolume_capacity_byte > 0`, []string{"did you mean kube_persistentvolume_capacity_bytes?"}},
		{`kube_persistentvolume_zzz > 0`, []string{"kube_persistentvolume_zzz is not a kube-state-metrics metric, so the selector matches no series"}},
		{`rate(kube_persistentvolumeclaim_info{pod="x"}[5m])`, nil}, // pod is a target label
	}
	for _, c := range cases {
		got := analyze(c.expr)
		if len(got) != len(c.want) {
			t.Errorf("analyze(%s) = %q, want %d messages like %q", c.expr, got, len(c.want), c.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], c.want[i]) {
				t.Errorf("analyze(%s)[%d] = %q, want it to contain %q", c.expr, i, got[i], c.want[i])
			}
		}
	}
	if got := analyze(`kube_persistentvolume_zzz > 0`); strings.Contains(got[0], "did you mean") {
		t.Errorf("suggested a far-off metric: %q", got[0])
	}
}

// TestTable keeps the metric table consistent: every key label is a label, and every
// enumerated label has values.
func TestTable(t *testing.T) {
	for name, m := range metrics {
		if !isStorageMetric(name) {
			t.Errorf("%s is not in the storage families", name)
		}
		for _, k := range m.key {
			if !m.has(k) {
				t.Errorf("%s: key label %q is not one of its labels", name, k)
			}
		}
		for l, vals := range m.values {
			if !m.has(l) || len(vals) == 0 {
				t.Errorf("%s: enumerated label %q unknown or empty", name, l)
			}
		}
	}
}
