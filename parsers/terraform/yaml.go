package terraform

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	yaml "go.yaml.in/yaml/v3"
)

// maxYAMLNodes bounds the values one yamldecode may build, counting alias
// expansions, so a "billion laughs" document is an error rather than an outage.
const maxYAMLNodes = 1_000_000

// yamlDecodeFunc is yamldecode: one YAML document to a value (mappings are objects,
// sequences tuples), as Terraform's does.
var yamlDecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{param("src", cty.String)},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		docs, err := yamlDocs(args[0].AsString(), 1)
		if err != nil {
			return cty.DynamicVal, err
		}
		if len(docs) == 0 {
			return cty.NullVal(cty.DynamicPseudoType), nil
		}
		return docs[0], nil
	},
})

// manifestDecodeMultiFunc is the kubernetes provider's manifest_decode_multi: every
// document of a YAML stream, as a tuple.
var manifestDecodeMultiFunc = function.New(&function.Spec{
	Params: []function.Parameter{param("manifest", cty.String)},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		docs, err := yamlDocs(args[0].AsString(), -1)
		if err != nil {
			return cty.DynamicVal, err
		}
		return cty.TupleVal(docs), nil
	},
})

// yamlDocs decodes up to max documents (all when max < 0); more is an error.
func yamlDocs(src string, max int) ([]cty.Value, error) {
	dec := yaml.NewDecoder(strings.NewReader(src))
	var out []cty.Value
	budget := maxYAMLNodes
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("invalid YAML: %v", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if max >= 0 && len(out) == max {
			return nil, errors.New("unexpected extra content after the first YAML document")
		}
		if len(n.Content) == 0 {
			continue
		}
		v, err := yamlValue(n.Content[0], &budget, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

func yamlValue(n *yaml.Node, budget *int, depth int) (cty.Value, error) {
	*budget--
	if *budget < 0 {
		return cty.NilVal, fmt.Errorf("YAML expands to more than %d values", maxYAMLNodes)
	}
	if depth > maxValueDepth {
		return cty.NilVal, fmt.Errorf("YAML nests deeper than %d levels", maxValueDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return cty.NullVal(cty.DynamicPseudoType), nil
		}
		return yamlValue(n.Alias, budget, depth+1)
	case yaml.MappingNode:
		attrs := map[string]cty.Value{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			val, err := yamlValue(v, budget, depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				if val.Type().IsObjectType() {
					for name, x := range val.AsValueMap() {
						if _, ok := attrs[name]; !ok {
							attrs[name] = x
						}
					}
				}
				continue
			}
			attrs[k.Value] = val
		}
		return cty.ObjectVal(attrs), nil
	case yaml.SequenceNode:
		items := make([]cty.Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, budget, depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			items = append(items, v)
		}
		return cty.TupleVal(items), nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return cty.NullVal(cty.DynamicPseudoType), nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return cty.NilVal, err
			}
			return cty.BoolVal(b), nil
		case "!!int", "!!float":
			f, _, err := big.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 0, 512, big.ToNearestEven)
			if err != nil {
				return cty.NilVal, fmt.Errorf("cannot represent YAML number %q", n.Value)
			}
			return cty.NumberVal(f), nil
		}
		return cty.StringVal(n.Value), nil
	}
	return cty.NullVal(cty.DynamicPseudoType), nil
}

// yamlEncodeFunc is yamlencode: the value as YAML (keys sorted).
var yamlEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.IsWhollyKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		js, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var doc any
		if err := yaml.Unmarshal(js, &doc); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(doc); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(buf.String()), nil
	},
})
