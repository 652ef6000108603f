package terraform

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"net/url"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// The functions below are Terraform's own (lang/funcs), where cty's standard library
// differs from Terraform or lacks them.

func param(name string, ty cty.Type) function.Parameter {
	return function.Parameter{Name: name, Type: ty}
}

func dynParam(name string) function.Parameter {
	return function.Parameter{Name: name, Type: cty.DynamicPseudoType, AllowDynamicType: true}
}

func stringFunc(f func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("str", cty.String)},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, err := f(args[0].AsString())
			if isOutside(err) {
				return cty.UnknownVal(cty.String), nil // a file pvlint does not read: unknown
			}
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(s), nil
		},
	})
}

// lengthFunc counts a collection's elements or a string's characters.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{dynParam("value")},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if v.Type() == cty.String {
			return cty.NumberIntVal(int64(utf8.RuneCountInString(v.AsString()))), nil
		}
		if !v.CanIterateElements() {
			return cty.UnknownVal(cty.Number), fmt.Errorf("argument must be a string, a collection type, or a structural type")
		}
		return cty.NumberIntVal(int64(v.LengthInt())), nil
	},
})

// replaceFunc replaces a substring, or a /regexp/ with $1-style references.
var replaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{param("str", cty.String), param("substr", cty.String), param("replace", cty.String)},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, sub, rep := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
			re, err := regexp.Compile(sub[1 : len(sub)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, rep)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, sub, rep)), nil
	},
})

// lookupFunc is lookup(map, key, default...), as in Terraform: the default may be
// null (lookup(each.value, "k", null) is a common way to read an optional key), a
// map's default must convert to its element type, and without a default a missing
// key is an error.
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{dynParam("inputMap"), param("key", cty.String)},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowNull: true,
		AllowUnknown: true, AllowDynamicType: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, errors.New("lookup takes at most three arguments")
		}
		ty := args[0].Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		case ty.IsObjectType():
			if !args[1].IsKnown() || args[1].IsNull() {
				return cty.DynamicPseudoType, nil
			}
			k := args[1].AsString()
			if ty.HasAttribute(k) {
				return ty.AttributeType(k), nil
			}
			if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.NilType, function.NewArgErrorf(0, "the given object has no attribute %q", k)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		m, key := args[0], args[1]
		k := key.AsString()
		switch {
		case m.Type().IsObjectType() && m.Type().HasAttribute(k):
			return m.GetAttr(k), nil
		case m.Type().IsMapType() && m.HasIndex(key).True():
			return m.Index(key), nil
		case len(args) == 3:
			return convert.Convert(args[2], ret)
		}
		return cty.DynamicVal, fmt.Errorf("lookup failed to find key %q", k)
	},
})

// indexFunc finds the position of a value in a list.
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{dynParam("list"), dynParam("value")},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		l := args[0]
		if !(l.Type().IsListType() || l.Type().IsTupleType()) {
			return cty.UnknownVal(cty.Number), errors.New("argument must be a list or tuple")
		}
		i := 0
		for it := l.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if eq := e.Equals(args[1]); !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			} else if eq.True() {
				return cty.NumberIntVal(int64(i)), nil
			}
		}
		return cty.UnknownVal(cty.Number), errors.New("item not found")
	},
})

func strPredicate(f func(s, sub string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("str", cty.String), param("sub", cty.String)},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(f(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// boolFold is alltrue (all) or anytrue (!all).
func boolFold(all bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("list", cty.List(cty.Bool))},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for it := args[0].ElementIterator(); it.Next(); {
				_, e := it.Element()
				if !e.IsKnown() {
					return cty.UnknownVal(cty.Bool), nil
				}
				if e.IsNull() || e.True() != all {
					return cty.BoolVal(!all), nil
				}
			}
			return cty.BoolVal(all), nil
		},
	})
}

var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{dynParam("list")},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].CanIterateElements() || args[0].LengthInt() == 0 {
			return cty.UnknownVal(cty.Number), errors.New("cannot sum an empty or non-collection value")
		}
		total := new(big.Float)
		for it := args[0].ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.Type() != cty.Number || e.IsNull() {
				return cty.UnknownVal(cty.Number), errors.New("sum takes numbers only")
			}
			total.Add(total, e.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	},
})

var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{dynParam("list")},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		l := args[0]
		if !l.CanIterateElements() {
			return cty.DynamicVal, errors.New("must be a list, set, or tuple value")
		}
		switch l.LengthInt() {
		case 0:
			return cty.NullVal(cty.DynamicPseudoType), nil
		case 1:
			return l.AsValueSlice()[0], nil
		}
		return cty.DynamicVal, errors.New("must be a list, set, or tuple value with either zero or one elements")
	},
})

// transposeFunc swaps the keys and values of a map of lists of strings.
var transposeFunc = function.New(&function.Spec{
	Params: []function.Parameter{param("values", cty.Map(cty.List(cty.String)))},
	Type:   function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		out := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, l := it.Element()
			for li := l.ElementIterator(); li.Next(); {
				_, v := li.Element()
				out[v.AsString()] = append(out[v.AsString()], k)
			}
		}
		m := make(map[string]cty.Value, len(out))
		for k, l := range out {
			m[k] = cty.ListVal(l)
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		return cty.MapVal(m), nil
	},
})

var base64EncodeFunc = stringFunc(func(s string) (string, error) {
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
})

var base64DecodeFunc = stringFunc(func(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("failed to decode base64 data: %v", err)
	}
	if !utf8.Valid(b) {
		return "", errors.New("the result of decoding the provided string is not valid UTF-8")
	}
	return string(b), nil
})

var base64GzipFunc = stringFunc(func(s string) (string, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(s)); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
})

var urlEncodeFunc = stringFunc(func(s string) (string, error) { return url.QueryEscape(s), nil })

func newHash(algo string) hash.Hash {
	switch algo {
	case "md5":
		return md5.New()
	case "sha1":
		return sha1.New()
	case "sha512":
		return sha512.New()
	}
	return sha256.New()
}

// digest renders a hash as Terraform does: hex, or base64 for the base64* variants.
func digest(algo string, b64 bool, data []byte) string {
	h := newHash(algo)
	h.Write(data)
	if b64 {
		return base64.StdEncoding.EncodeToString(h.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashFunc(algo string, b64 bool) function.Function {
	return stringFunc(func(s string) (string, error) { return digest(algo, b64, []byte(s)), nil })
}

func pathFunc(f func(string) string) function.Function {
	return stringFunc(func(s string) (string, error) { return f(s), nil })
}

func basename(p string) string { return path.Base(strings.ReplaceAll(p, "\\", "/")) }

func dirname(p string) string { return path.Dir(strings.ReplaceAll(p, "\\", "/")) }
