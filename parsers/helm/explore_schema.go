package helm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// values.schema.json for --explore-values: compiled without loading anything outside
// it, and read to keep explored values within what the schema allows.

// noLoader refuses every schema a values.schema.json refers to outside itself:
// rendering never reads a file or the network for a schema.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: pvlint reads no schema outside values.schema.json", url)
}

// compileSchema compiles the chart's values.schema.json for exploring: pvlint's own
// renders skip Helm's schema validation (which may fetch URLs), but a combination the
// schema forbids is one the chart's users cannot reach. nil when there is none or it
// does not compile on its own.
func compileSchema(data []byte) (s *jsonschema.Schema) {
	if len(data) == 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	if c.AddResource("file:///values.schema.json", doc) != nil {
		return nil
	}
	s, err = c.Compile("file:///values.schema.json")
	if err != nil {
		return nil
	}
	return s
}

// maxSchemaRefs bounds the $refs of a values.schema.json exploring compiles: a chain
// of 20,000 takes the compiler seconds, and 500 about a millisecond.
const maxSchemaRefs = 500

// compileSchemaWithin compiles the schema unless it has more than maxSchemaRefs
// $refs or takes longer than d (then the compilation is abandoned, like a render past
// its time: the worker is not reused). Without it, only the types, enums and bounds
// findSwitches reads keep exploring within what the schema allows.
func compileSchemaWithin(data []byte, d time.Duration) *jsonschema.Schema {
	if len(data) == 0 || bytes.Count(data, []byte(`"$ref"`)) > maxSchemaRefs {
		return nil
	}
	done := make(chan *jsonschema.Schema, 1)
	go func() { done <- compileSchema(data) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case s := <-done:
		return s
	case <-t.C:
		abandoned.Add(1)
		return nil
	}
}

// validate checks merged values against the schema, as Helm would on install.
func validate(s *jsonschema.Schema, vals map[string]any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("schema validation failed: %v", p)
		}
	}()
	data, err := json.Marshal(vals)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(doc)
}

// schemaDoc is a chart's values.schema.json, read for the values it allows: types,
// enums, minimum and maximum along plain property paths, following local $refs a
// bounded number of hops.
type schemaDoc struct {
	root map[string]any
}

func parseSchema(data []byte) *schemaDoc {
	if len(data) == 0 {
		return nil
	}
	var root map[string]any
	if json.Unmarshal(data, &root) != nil {
		return nil
	}
	return &schemaDoc{root: root}
}

var errRef = errors.New("unresolvable $ref")

// deref follows local $refs ("#/definitions/x", "#/$defs/x") from n, at most maxRefHops.
func (s *schemaDoc) deref(n map[string]any) (map[string]any, error) {
	for hops := 0; ; hops++ {
		ref, ok := n["$ref"].(string)
		if !ok {
			return n, nil
		}
		if hops >= maxRefHops || !strings.HasPrefix(ref, "#/") {
			return nil, errRef
		}
		var cur any = s.root
		for tok := range strings.SplitSeq(ref[2:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, errRef
			}
			cur = m[tok]
		}
		next, ok := cur.(map[string]any)
		if !ok {
			return nil, errRef
		}
		n = next
	}
}

// allows reports whether the schema lets the value at path be v. Where the schema
// says nothing (no schema, no such property, a $ref it cannot follow) the value is
// allowed: Helm's own validation of each render still refuses what the schema forbids.
func (s *schemaDoc) allows(path []string, v any) bool {
	if s == nil {
		return true
	}
	n, err := s.deref(s.root)
	if err != nil {
		return true
	}
	for _, k := range path {
		props, _ := n["properties"].(map[string]any)
		p, ok := props[k].(map[string]any)
		if !ok {
			return true
		}
		if n, err = s.deref(p); err != nil {
			return true
		}
	}
	return allowedBy(n, v)
}

func allowedBy(n map[string]any, v any) bool {
	if enum, ok := n["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if t, ok := n["type"]; ok && !typeAllows(t, v) {
		return false
	}
	if f, ok := v.(int); ok {
		if m, ok := n["maximum"].(float64); ok && float64(f) > m {
			return false
		}
		if m, ok := n["minimum"].(float64); ok && float64(f) < m {
			return false
		}
	}
	if items, ok := n["items"].(map[string]any); ok {
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if !allowedBy(items, e) {
					return false
				}
			}
		}
	}
	return true
}

func typeAllows(t any, v any) bool {
	var kind string
	switch v.(type) {
	case bool:
		kind = "boolean"
	case int:
		kind = "integer"
	case string:
		kind = "string"
	case []any:
		kind = "array"
	}
	match := func(s any) bool {
		return s == kind || (kind == "integer" && s == "number")
	}
	switch t := t.(type) {
	case string:
		return match(t)
	case []any:
		return slices.ContainsFunc(t, match)
	}
	return true
}
