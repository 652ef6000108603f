package policy

import (
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// fixOf resolves a result's fix against the resource it was evaluated on. An edit
// whose path does not lead to a node of the expected shape leaves the finding without
// a fix (the policy cannot know every input's shape); a malformed fix is an error of
// the policy.
func fixOf(r *graph.Resource, ref *FixRef) (*lint.Fix, error) {
	if ref == nil {
		return nil, nil
	}
	if ref.Description == "" {
		return nil, errors.New("fix has no description")
	}
	fix := &lint.Fix{Description: ref.Description, Unsafe: ref.Unsafe}
	for i, e := range ref.Edits {
		keys, err := fieldPath(e.Path)
		if err != nil {
			return nil, fmt.Errorf("fix edit %d: %w", i, err)
		}
		n := r.Object.Get(keys...)
		var v *graph.Node
		if e.Op != "delete" {
			if v, err = valueNode(e.Value); err != nil {
				return nil, fmt.Errorf("fix edit %d: %w", i, err)
			}
		}
		switch e.Op {
		case "set":
			if n == nil || n.Kind == graph.Map || n.Kind == graph.List || n.Kind == graph.Unknown {
				return nil, nil
			}
			e := lint.Set(n, v)
			if parent := r.Object.Get(keys[:len(keys)-1]...); len(keys) > 0 && parent.Is(graph.Map) {
				e.Parent, e.Key = parent, keys[len(keys)-1]
			}
			fix.Edits = append(fix.Edits, e)
		case "insert", "delete":
			if e.Key == "" {
				return nil, fmt.Errorf("fix edit %d: %s needs a key", i, e.Op)
			}
			if !n.Is(graph.Map) || (n.Field(e.Key) != nil) == (e.Op == "insert") {
				return nil, nil
			}
			if e.Op == "insert" {
				fix.Edits = append(fix.Edits, lint.Insert(n, e.Key, v))
			} else {
				fix.Edits = append(fix.Edits, lint.Delete(n, e.Key))
			}
		default:
			return nil, fmt.Errorf("fix edit %d: unknown op %q (want set, insert or delete)", i, e.Op)
		}
	}
	return fix, nil
}

// valueNode turns a decoded JSON value into an edit value; object keys are sorted so
// the written text does not depend on map order.
func valueNode(v any) (*graph.Node, error) {
	switch x := v.(type) {
	case string:
		return lint.String(x), nil
	case bool:
		return lint.Bool(x), nil
	case float64:
		if x == float64(int64(x)) {
			return &graph.Node{Kind: graph.Int, Scalar: strconv.FormatInt(int64(x), 10)}, nil
		}
		return &graph.Node{Kind: graph.Float, Scalar: strconv.FormatFloat(x, 'g', -1, 64)}, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := &graph.Node{Kind: graph.Map}
		for _, k := range keys {
			c, err := valueNode(x[k])
			if err != nil {
				return nil, err
			}
			m.AddFields(graph.Field{Key: k, Value: c})
		}
		return m, nil
	}
	return nil, fmt.Errorf("value %v is not a string, number, boolean or object", v)
}
