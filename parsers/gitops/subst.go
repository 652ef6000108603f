package gitops

import (
	"fmt"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Bounds of postBuild substitution: the variables come from the repository under
// review, and one value used in many places could multiply the output.
const (
	// maxSubstScalar bounds one substituted value.
	maxSubstScalar = 1 << 20
	// MaxSubstituted bounds the bytes substitution writes in one build.
	MaxSubstituted = 32 << 20
)

// disabledAnnotation turns substitution off for one object, as in Flux.
const disabledAnnotation = "kustomize.toolkit.fluxcd.io/substitute"

// Substitute applies Flux's postBuild substitution to the string values of rs:
// ${VAR}, ${VAR:=default}, ${VAR:-default} (the default when VAR is unset or empty),
// ${VAR=default}, ${VAR-default} (when unset), $${VAR} for a literal ${VAR}. A value
// whose whole text was one variable takes the type its text reads as (replicas:
// ${REPLICAS} is a number once substituted, as Flux re-reads the YAML). A value with a
// variable that is not set and has no default, or a form pvlint does not evaluate
// (${VAR:1:2}, ${#VAR}), is unknown (graph.Unknown): rules do not guess it. Objects
// annotated kustomize.toolkit.fluxcd.io/substitute: disabled are left as they are.
// Positions do not move. A diagnostic at at says when the bounds stopped it.
func Substitute(rs []*graph.Resource, vars map[string]string, at graph.Range) []graph.Diagnostic {
	budget := MaxSubstituted
	for _, r := range rs {
		if r.Get("metadata", "annotations", disabledAnnotation).Str() == "disabled" {
			continue
		}
		var err error
		r.Object.Walk(func(n *graph.Node) {
			if err != nil || n.Kind != graph.String || !strings.Contains(n.Scalar, "$") {
				return
			}
			var out string
			var known bool
			out, known, err = substitute(n.Scalar, vars)
			if err != nil {
				return
			}
			budget -= len(out)
			if budget < 0 {
				err = fmt.Errorf("substitution writes more than %d bytes", MaxSubstituted)
				return
			}
			whole := isOneVar(n.Scalar)
			n.Scalar = out
			switch {
			case !known:
				n.Kind = graph.Unknown
			case whole:
				n.Kind = scalarKind(out)
			}
		})
		if err != nil {
			return []graph.Diagnostic{{Range: at, Message: fmt.Sprintf("postBuild substitution of %s stopped: %v; the rest of its values are as written", r, err)}}
		}
		// The name and namespace as substituted (metadata.name: ${APP}).
		if n := r.Get("metadata", "name"); n.Exists() {
			r.Name = n.Scalar
		}
		if ns := r.Get("metadata", "namespace"); ns.Exists() {
			r.Namespace = ns.Scalar
		}
	}
	return nil
}

// substitute replaces the variables of s; known is false when one has no value.
func substitute(s string, vars map[string]string) (string, bool, error) {
	var b strings.Builder
	known := true
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 || i+1 >= len(s) {
			break
		}
		b.WriteString(s[:i])
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.WriteString("${")
			s = s[i+3:]
			continue
		case s[i+1] != '{':
			b.WriteByte('$')
			s = s[i+1:]
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s[i:])
			s = ""
			break
		}
		expr := s[i+2 : i+end]
		s = s[i+end+1:]
		v, ok := evalVar(expr, vars)
		if !ok {
			known = false
			b.WriteString("${" + expr + "}")
		} else {
			b.WriteString(v)
		}
		if b.Len() > maxSubstScalar {
			return "", false, fmt.Errorf("a substituted value is longer than %d bytes", maxSubstScalar)
		}
	}
	b.WriteString(s)
	if b.Len() > maxSubstScalar {
		return "", false, fmt.Errorf("a substituted value is longer than %d bytes", maxSubstScalar)
	}
	return b.String(), known, nil
}

// evalVar evaluates NAME, NAME:=d, NAME:-d, NAME=d, NAME-d; false when the variable
// has no value and no default, or the form is one pvlint does not evaluate.
func evalVar(expr string, vars map[string]string) (string, bool) {
	n := 0
	for n < len(expr) && (expr[n] == '_' || expr[n] >= 'a' && expr[n] <= 'z' || expr[n] >= 'A' && expr[n] <= 'Z' || n > 0 && expr[n] >= '0' && expr[n] <= '9') {
		n++
	}
	if n == 0 {
		return "", false
	}
	name, rest := expr[:n], expr[n:]
	v, set := vars[name]
	switch {
	case rest == "":
		return v, set
	case strings.HasPrefix(rest, ":=") || strings.HasPrefix(rest, ":-"):
		if !set || v == "" {
			return rest[2:], true
		}
		return v, true
	case strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "-"):
		if !set {
			return rest[1:], true
		}
		return v, true
	}
	return "", false
}

// isOneVar reports whether s is one ${...} expression and nothing else.
func isOneVar(s string) bool {
	return strings.HasPrefix(s, "${") && strings.IndexByte(s, '}') == len(s)-1
}

// scalarKind is the kind YAML gives a plain scalar's text.
func scalarKind(s string) graph.NodeKind {
	if _, ok := graph.YAMLInt(s); ok {
		return graph.Int
	}
	switch s {
	case "true", "false", "True", "False", "TRUE", "FALSE":
		return graph.Bool
	case "null", "~", "":
		return graph.Null
	}
	return graph.String
}
