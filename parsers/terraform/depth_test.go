package terraform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/pvlint/pvlint/parsers/graph"
)

// lexedNesting is how deeply HCL's own lexer sees brackets and template sequences
// nest: the depth its recursive parser will descend to. A closing brace or the end of
// a template sequence closes everything opened since its opening (the lexer pairs
// braces only, and the parser cannot stay inside a parenthesis past the end of the
// sequence that holds it); a stray ) or ] closes nothing.
func lexedNesting(src []byte, mode syntax) int {
	var toks hclsyntax.Tokens
	if mode == syntaxTemplate {
		toks, _ = hclsyntax.LexTemplate(src, "t", hcl.InitialPos)
	} else {
		toks, _ = hclsyntax.LexConfig(src, "t", hcl.InitialPos)
	}
	var open []hclsyntax.TokenType
	deepest := 0
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOParen, hclsyntax.TokenOBrack, hclsyntax.TokenOBrace,
			hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			open = append(open, t.Type)
			deepest = max(deepest, len(open))
		case hclsyntax.TokenCParen, hclsyntax.TokenCBrack:
			if n := len(open); n > 0 && (open[n-1] == hclsyntax.TokenOParen || open[n-1] == hclsyntax.TokenOBrack) {
				open = open[:n-1]
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenTemplateSeqEnd:
			for j := len(open) - 1; j >= 0; j-- {
				if k := open[j]; k != hclsyntax.TokenOParen && k != hclsyntax.TokenOBrack {
					open = open[:j]
					break
				}
			}
		}
	}
	return deepest
}

func TestNesting(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		mode syntax
		want int
	}{
		{"flat", "a = 1\n", syntaxHCL, 0},
		{"brackets", "a = [{ b = (1) }]\n", syntaxHCL, 3},
		{"brackets in a string", `a = "((([[[{{{"` + "\n", syntaxHCL, 0},
		{"escaped quote", `a = "\"((("` + "\n", syntaxHCL, 0},
		{"interpolation", `a = "${ (x) }"` + "\n", syntaxHCL, 2},
		{"escaped interpolation", `a = "$${ (x) }"` + "\n", syntaxHCL, 0},
		{"comments", "# (((\n// [[[\n/* {{{\n*/ a = 1\n", syntaxHCL, 0},
		{"heredoc", "a = <<EOT\n((( ${ [x] }\nEOT\nb = (1)\n", syntaxHCL, 2},
		{"indented heredoc", "a = <<-EOT\n  ((( \n  EOT\nb = (1)\n", syntaxHCL, 1},
		{"json", `{"a": {"b": ["${(x)}", "((("]}}`, syntaxJSON, 5},
		{"template", "((( ${ (x) } %{ if a }[[%{ endif }", syntaxTemplate, 2},
	} {
		got, err := nesting([]byte(c.src), 100, c.mode)
		if err != nil || got != c.want {
			t.Errorf("%s: nesting = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
}

func TestNestingLimit(t *testing.T) {
	src := "a = " + strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000) + "\n"
	err := nestingError([]byte(src), DefaultMaxNesting, syntaxHCL)
	if ne, ok := err.(*NestingError); !ok || ne.Line != 1 || ne.Column != 261 {
		t.Fatalf("err = %v; want the position of the first parenthesis past the limit (1:261)", err)
	}
	ok := "a = " + strings.Repeat("[", DefaultMaxNesting) + strings.Repeat("]", DefaultMaxNesting) + "\n"
	if err := nestingError([]byte(ok), DefaultMaxNesting, syntaxHCL); err != nil {
		t.Fatalf("nesting at the limit refused: %v", err)
	}
}

// FuzzNesting checks the depth guard against HCL's own lexer: whatever the text (strings,
// escapes, heredocs, comments, templates), the guard must never see less nesting than
// the parser will descend into, or an input could slip a deep expression past it.
func FuzzNesting(f *testing.F) {
	seeds(f, ".tf")
	for _, s := range []string{
		`a = "${"${(1)}"}"`, "a = <<EOT\n${[(\nEOT\n", `a = "$${((" ((`, "a = <<-X\n  %{ if (b) }\n  X\n",
		"/* \" */ (((", `a = "\\${ (x) }"`, "a = <<EOT\r\n((\r\nEOT\r\n", "a = \"x\n(((",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, mode := range []syntax{syntaxHCL, syntaxTemplate} {
			var got, lexed int
			var err error
			done := make(chan struct{})
			go func() {
				defer close(done)
				got, err = nesting(src, 1<<30, mode)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("mode %d: the guard did not finish in 10s on %q", mode, src)
			}
			if err != nil {
				t.Fatal(err)
			}
			done = make(chan struct{})
			go func() {
				defer close(done)
				lexed = lexedNesting(src, mode)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("mode %d: HCL's lexer did not finish in 10s on %q", mode, src)
			}
			if lexed > got {
				t.Fatalf("mode %d: guard sees nesting %d, HCL's lexer %d in %q", mode, got, lexed, src)
			}
		}
	})
}

// TestSetProductLimit checks setproduct's bound: a product past maxProduct is an error
// at the call, built of nothing, and a small one is what Terraform computes.
func TestSetProductLimit(t *testing.T) {
	dir := t.TempDir()
	src := `locals {
  small = setproduct(["a", "b"], [1, 2])
  huge  = setproduct(range(1000), range(1000), range(1000))
}

resource "kubernetes_storage_class_v1" "small" {
  metadata {
    name = "small"
  }
  storage_provisioner = "ebs.csi.aws.com"
  parameters = {
    n = length(local.small)
  }
}

resource "kubernetes_storage_class_v1" "huge" {
  metadata {
    name = "huge"
  }
  storage_provisioner = "ebs.csi.aws.com"
  parameters = {
    n = length(local.huge)
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadDir(t, dir, Options{})
	found := false
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "setproduct would build 1000000000 combinations, more than the limit of 1000000") && d.Range.Start.Line == 3 {
			found = true
		}
	}
	if !found {
		t.Errorf("no setproduct limit diagnostic at line 3: %v", res.Diagnostics)
	}
	var small *graph.Resource
	for _, r := range res.Resources {
		if r.Origin.Address == "kubernetes_storage_class_v1.small" {
			small = r
		}
	}
	if got := small.Get("parameters", "n").Str(); got != "4" {
		t.Errorf("length(setproduct of 2 by 2) = %q, want 4", got)
	}
}
