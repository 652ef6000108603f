package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTestRunsRegoTests(t *testing.T) {
	policy := `package main

deny[msg] {
  not input.metadata.labels.owner
  msg := sprintf("%s has no owner label", [input.metadata.name])
}
`
	zonal := `package main

zonal contains name if {
	some name, p in data.pvlint.provisioners
	p.topology == "zonal"
}
`
	tests := `package main_test

import rego.v1

import data.main

test_missing_owner if {
	main.deny["web has no owner label"] with input as {"metadata": {"name": "web"}}
}

test_owner_given if {
	count(main.deny) == 0 with input as {"metadata": {"name": "web", "labels": {"owner": "a"}}}
}

test_wrong_expectation if {
	print("checking db")
	main.deny["web has no owner label"] with input as {"metadata": {"name": "db"}}
}

test_provisioner_table if "ebs.csi.aws.com" in main.zonal

test_inventory_mocked if {
	count(data.inventory.namespace) == 1 with data.inventory as {"namespace": {"a": {}}}
}

test_runtime_error if {
	x := 1 / 0
	x > 0
}

todo_test_later if false

test_slow if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i == j + 100000
}
`
	res, err := Test([]Module{{Name: "p/main.rego", Source: policy}, {Name: "p/zonal.rego", Source: zonal}, {Name: "p/main_test.rego", Source: tests}}, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Line    int
		Name    string
		Outcome string
		Output  string
	}
	var got []row
	for _, r := range res {
		outcome := "PASS"
		switch {
		case r.Skip:
			outcome = "SKIP"
		case r.Err != nil:
			outcome = "ERROR " + r.Err.Error()
		case r.Fail:
			outcome = "FAIL"
		}
		if r.File != "p/main_test.rego" {
			t.Errorf("%s is in %s", r.Name, r.File)
		}
		got = append(got, row{r.Line, r.Name, outcome, r.Output})
	}
	want := []row{
		{7, "data.main_test.test_missing_owner", "PASS", ""},
		{11, "data.main_test.test_owner_given", "PASS", ""},
		{15, "data.main_test.test_wrong_expectation", "FAIL", "checking db\n"},
		{20, "data.main_test.test_provisioner_table", "PASS", ""},
		{22, "data.main_test.test_inventory_mocked", "PASS", ""},
		// A builtin error makes its expression undefined, as when linting.
		{26, "data.main_test.test_runtime_error", "FAIL", ""},
		{31, "data.main_test.todo_test_later", "SKIP", ""},
		{33, "data.main_test.test_slow", "ERROR exceeded its time budget of 200ms", ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
}

func TestTestRefusesNetwork(t *testing.T) {
	tests := "package net_test\n\ntest_fetch if http.send({\"method\": \"get\", \"url\": \"http://example.com\"}).status_code == 200\n"
	_, err := Test([]Module{{Name: "net_test.rego", Source: tests}}, time.Second)
	if err == nil || !strings.Contains(err.Error(), "net_test.rego:3:15: rego_type_error: undefined function http.send") {
		t.Errorf("error = %v, want http.send undefined at its line", err)
	}
}
