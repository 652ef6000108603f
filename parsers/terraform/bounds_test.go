package terraform

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBombs is issue 27's Terraform bombs: a local that doubles a string forty
// times (16 TB), for expressions over range(1024) three deep (a billion elements),
// and join over a thousand references to one 16 MiB string (16 GB). On main the
// module's worker ran until its budget was gone and every resource of the module was
// lost. Each bomb's expression is now unknown, with a diagnostic at the expression
// (the local, the innermost for element, the join call's expression), and the
// module's other resource is read with its values. The deadline is a hang guard
// only.
func TestBombs(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n  s0 = \"xxxxxxxxxxxxxxxx\"\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1) // line i+2
	}
	b.WriteString("  cube = [for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k]]]\n") // line 43
	b.WriteString("  joined = join(\"\", [for i in range(1000) : local.s20])\n")                             // line 44
	b.WriteString("}\n")
	b.WriteString(`
resource "kubernetes_persistent_volume_claim_v1" "bomb" {
  metadata {
    name = "bomb"
    annotations = {
      doubled = local.s40
      cube    = length(local.cube)
      joined  = local.joined
      small   = local.s4
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "sibling" {
  metadata {
    name = "sibling"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
  }
}
`)
	done := make(chan *Result, 1)
	go func() { done <- loadFiles(t, map[string]string{"main.tf": b.String()}, Options{}) }()
	var res *Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the module did not evaluate within 2 minutes")
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Column, d.Message))
	}
	// s22 is the first string past 32 MiB (16 bytes · 2^22; s21 is 32 MiB); the cube's innermost
	// element is at column 82; join's arguments are 1000 · 16 MiB.
	want := []string{
		"24:9 this expression builds more than 33554432 bytes of strings, past pvlint's bounds on Terraform evaluation; its value is unknown",
		"43:82 this expression takes more than 262144 steps, past pvlint's bounds on Terraform evaluation; its value is unknown",
		"44:12 this expression passes more than 33554432 bytes of strings to a function, past pvlint's bounds on Terraform evaluation; its value is unknown",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for path, want := range map[string]string{"doubled": "<unknown>", "cube": "<unknown>", "joined": "<unknown>", "small": strings.Repeat("x", 256)} {
		if v := valueAt(res, "kubernetes_persistent_volume_claim_v1.bomb", "metadata", "annotations", path); v != want {
			t.Errorf("annotation %s = %.40q, want %.40q", path, v, want)
		}
	}
	if v := valueAt(res, "kubernetes_persistent_volume_claim_v1.sibling", "spec", "accessModes"); v != "<list>" {
		t.Errorf("the sibling's accessModes = %q, want its list", v)
	}
}

// TestJSONTemplateBombs is issue 27's for bomb in JSON syntax: a .tf.json local
// whose string is a template of for directives over range(1024) three deep. HCL
// parses a JSON string as a template only when it evaluates it, so the steps the
// native syntax counts were not counted there, and the template built a billion
// parts. Its expression is now unknown with a diagnostic at the innermost
// directive's body, within the same step bound, and the module's other values (a
// template in an array inside an object, a template key) are evaluated as before.
func TestJSONTemplateBombs(t *testing.T) {
	const src = `{
  "locals": {
    "cube": "%{ for i in range(1024) }%{ for j in range(1024) }%{ for k in range(1024) }x%{ endfor }%{ endfor }%{ endfor }",
    "nested": {"list": ["${upper(\"a\")}", "%{ for s in [\"b\", \"c\"] }${s}%{ endfor }"], "${lower(\"K\")}": 1}
  },
  "resource": {
    "kubernetes_persistent_volume_claim_v1": {
      "bomb": {
        "metadata": {
          "name": "bomb",
          "annotations": {
            "cube": "${local.cube}",
            "first": "${local.nested.list[0]}",
            "joined": "${local.nested.list[1]}",
            "key": "${local.nested.k}"
          }
        }
      },
      "sibling": {
        "metadata": {"name": "sibling"},
        "spec": {"access_modes": ["ReadWriteOnce"]}
      }
    }
  }
}
`
	done := make(chan *Result, 1)
	start := time.Now()
	go func() { done <- loadFiles(t, map[string]string{"main.tf.json": src}, Options{}) }()
	var res *Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the module did not evaluate within 2 minutes")
	}
	t.Logf("evaluated in %v", time.Since(start))
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", d.Range.File, d.Range.Start.Line, d.Range.Start.Column, d.Message))
	}
	// The innermost directive's body, "x", is at column 89 of line 3.
	want := []string{"main.tf.json:3:89 this expression takes more than 262144 steps, past pvlint's bounds on Terraform evaluation; its value is unknown"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for path, want := range map[string]string{"cube": "<unknown>", "first": "A", "joined": "bc", "key": "1"} {
		if v := valueAt(res, "kubernetes_persistent_volume_claim_v1.bomb", "metadata", "annotations", path); v != want {
			t.Errorf("annotation %s = %.40q, want %.40q", path, v, want)
		}
	}
	if v := valueAt(res, "kubernetes_persistent_volume_claim_v1.sibling", "spec", "accessModes"); v != "<list>" {
		t.Errorf("the sibling's accessModes = %q, want its list", v)
	}
}
