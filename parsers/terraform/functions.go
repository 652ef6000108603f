package terraform

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions returns Terraform's built-in functions for one run. Most come from cty's
// standard library (the implementations Terraform itself uses); the file functions
// are bound to the run so they read only inside the linted directory.
func (r *run) functions(m *module) map[string]function.Function {
	f := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": stdlib.LogFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc, "pow": stdlib.PowFunc,
		"signum": stdlib.SignumFunc, "parseint": stdlib.ParseIntFunc,
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"upper": stdlib.UpperFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
		"split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimsuffix": stdlib.TrimSuffixFunc, "trimspace": stdlib.TrimSpaceFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "index": indexFunc,
		"keys": stdlib.KeysFunc, "lookup": lookupFunc, "merge": stdlib.MergeFunc,
		"range": stdlib.RangeFunc, "reverse": stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc, "setproduct": setProductFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc,
		"slice": stdlib.SliceFunc, "sort": stdlib.SortFunc, "values": stdlib.ValuesFunc,
		"zipmap": stdlib.ZipmapFunc, "csvdecode": stdlib.CSVDecodeFunc,
		"jsondecode": stdlib.JSONDecodeFunc, "jsonencode": stdlib.JSONEncodeFunc,
		"formatdate": stdlib.FormatDateFunc, "timeadd": stdlib.TimeAddFunc,
		"tobool": stdlib.MakeToFunc(cty.Bool), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tostring": stdlib.MakeToFunc(cty.String), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
		"length": lengthFunc, "replace": replaceFunc,
		"startswith": strPredicate(strings.HasPrefix), "endswith": strPredicate(strings.HasSuffix),
		"strcontains": strPredicate(strings.Contains),
		"alltrue":     boolFold(true), "anytrue": boolFold(false), "sum": sumFunc, "one": oneFunc,
		"transpose": transposeFunc, "convert": convertFunc,
		"base64encode": base64EncodeFunc, "base64decode": base64DecodeFunc, "base64gzip": base64GzipFunc,
		"md5": hashFunc("md5", false), "sha1": hashFunc("sha1", false), "sha256": hashFunc("sha256", false),
		"sha512": hashFunc("sha512", false), "base64sha256": hashFunc("sha256", true),
		"base64sha512": hashFunc("sha512", true), "urlencode": urlEncodeFunc,
		"yamldecode": yamlDecodeFunc, "yamlencode": yamlEncodeFunc,
		"basename": pathFunc(basename), "dirname": pathFunc(dirname),
		"sensitive": identityFunc, "nonsensitive": identityFunc, "ephemeralasnull": identityFunc,
		"issensitive": constFunc(cty.False),
		"file":        r.fileFunc(), "fileexists": r.fileExistsFunc(), "filebase64": r.fileBase64Func(),
		"filemd5": r.fileHashFunc("md5"), "filesha1": r.fileHashFunc("sha1"),
		"filesha256": r.fileHashFunc("sha256"), "filesha512": r.fileHashFunc("sha512"),
		"filebase64sha256": r.fileHashFunc("base64sha256"), "filebase64sha512": r.fileHashFunc("base64sha512"),
		"abspath":                                     r.absPathFunc(),
		"provider::kubernetes::manifest_decode":       yamlDecodeFunc,
		"provider::kubernetes::manifest_decode_multi": manifestDecodeMultiFunc,
		"provider::kubernetes::manifest_encode":       yamlEncodeFunc,
	}
	f["templatefile"] = r.templateFileFunc(f)
	f["templatestring"] = templateStringFunc(f)
	// Functions whose result depends on the clock, randomness, secrets, the machine or
	// network arithmetic pvlint does not model: their value is unknown, as Terraform
	// shows "(known after apply)".
	for _, n := range unknowable {
		f[n] = unknownFunc
	}
	for n, fn := range f {
		if !strings.Contains(n, "::") {
			f["core::"+n] = fn
		}
	}
	r.known = make(map[string]bool, len(f))
	for n := range f {
		r.known[n] = true
	}
	r.unknownNames(m, f)
	return f
}

// unknowable are Terraform functions pvlint leaves unknown.
var unknowable = []string{
	"timestamp", "plantimestamp", "timecmp", "uuid", "uuidv5", "bcrypt", "rsadecrypt",
	"fileset", "pathexpand", "cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets",
	"textencodebase64", "textdecodebase64", "matchkeys", "type",
}

// unknownNames reports the functions a module calls that Terraform does not have, at
// their first call, and makes them unknown so the evaluation continues. Provider
// functions other than the kubernetes provider's are computed by their provider:
// unknown, and not an error.
func (r *run) unknownNames(m *module, f map[string]function.Function) {
	var names []string
	for n := range m.funcs {
		if !r.known[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasPrefix(n, "provider::") {
			at := m.funcs[n]
			r.diags = append(r.diags, graph.Diagnostic{Range: convRange(m.files[at.Filename], at),
				Message: "call to unknown function: there is no function named \"" + n + "\" in Terraform"})
		}
		f[n] = unknownFunc
	}
}

// unknownFunc accepts anything and returns an unknown value.
var unknownFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
	Type:     function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		return cty.DynamicVal, nil
	},
})

var identityFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
	Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, _ := args[0].UnmarkDeep()
		return v, nil
	},
})

func constFunc(v cty.Value) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
		Type:   function.StaticReturnType(v.Type()),
		Impl:   func([]cty.Value, cty.Type) (cty.Value, error) { return v, nil },
	})
}

// maxProduct bounds the combinations setproduct may build. Terraform sets no bound, but
// three lists of a thousand ask for a billion, a few lines of HCL that would hold tens
// of gigabytes; no configuration of Kubernetes objects needs a millionth of that.
const maxProduct = 1_000_000

// setProductFunc is cty's setproduct refusing, before building anything, a product of
// more than maxProduct combinations.
var setProductFunc = function.New(&function.Spec{
	Description: stdlib.SetProductFunc.Description(),
	VarParam:    stdlib.SetProductFunc.VarParam(),
	Type: func(args []cty.Value) (cty.Type, error) {
		return stdlib.SetProductFunc.ReturnTypeForValues(args)
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		n := 1.0
		for _, a := range args {
			if a.IsKnown() && !a.IsNull() && a.CanIterateElements() {
				n *= float64(a.LengthInt())
			}
		}
		if n > maxProduct {
			return cty.DynamicVal, fmt.Errorf("setproduct would build %.0f combinations, more than the limit of %d", n, maxProduct)
		}
		return stdlib.SetProductFunc.Call(args)
	},
})

// typeConstraint is the value a type expression argument decodes to: convert's
// second argument is a type (list(string), object({...}) with optional attributes),
// not an expression to evaluate.
type typeConstraint struct {
	typ      cty.Type
	defaults *typeexpr.Defaults
}

var typeConstraintType = newTypeConstraintType()

func newTypeConstraintType() cty.Type {
	var ty cty.Type
	ty = cty.CapsuleWithOps("type constraint", reflect.TypeFor[typeConstraint](), &cty.CapsuleOps{
		ExtensionData: func(key any) any {
			if key != customdecode.CustomExpressionDecoder {
				return nil
			}
			return customdecode.CustomExpressionDecoderFunc(func(expr hcl.Expression, _ *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
				t, defs, diags := typeexpr.TypeConstraintWithDefaults(expr)
				if diags.HasErrors() {
					return cty.NilVal, diags
				}
				return cty.CapsuleVal(ty, &typeConstraint{typ: t, defaults: defs}), nil
			})
		},
	})
	return ty
}

// convertFunc is convert(value, type): the value converted to a type constraint,
// with the defaults of its optional attributes applied.
var convertFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true},
		{Name: "type", Type: typeConstraintType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[1].EncapsulatedValue().(*typeConstraint).typ, nil
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		tc := args[1].EncapsulatedValue().(*typeConstraint)
		v := args[0]
		if tc.defaults != nil {
			v = tc.defaults.Apply(v)
		}
		out, err := convert.Convert(v, ret)
		if err != nil {
			return cty.UnknownVal(ret), function.NewArgError(0, err)
		}
		return out, nil
	},
})
