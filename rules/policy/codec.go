// The encoding of Rego values in a Batch: a compact tagged form that the other process
// reads straight into ast values, without JSON's reflection, map sorting and
// intermediate interface values (a run's inventory can be tens of MB).

package policy

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Value tags.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagNumber // a length-prefixed decimal string
	tagString // a length-prefixed string
	tagArray  // a count, then the elements
	tagObject // a count, then key and value, alternating
	tagSet    // a count, then the elements
)

// encodeValue appends v's encoding to b.
func encodeValue(b []byte, v ast.Value) ([]byte, error) {
	switch x := v.(type) {
	case ast.Null:
		return append(b, tagNull), nil
	case ast.Boolean:
		if x {
			return append(b, tagTrue), nil
		}
		return append(b, tagFalse), nil
	case ast.Number:
		b = append(b, tagNumber)
		b = binary.AppendUvarint(b, uint64(len(x)))
		return append(b, x...), nil
	case ast.String:
		b = append(b, tagString)
		b = binary.AppendUvarint(b, uint64(len(x)))
		return append(b, x...), nil
	case *ast.Array:
		b = append(b, tagArray)
		b = binary.AppendUvarint(b, uint64(x.Len()))
		var err error
		for i := range x.Len() {
			if b, err = encodeValue(b, x.Elem(i).Value); err != nil {
				return nil, err
			}
		}
		return b, nil
	case ast.Object:
		b = append(b, tagObject)
		b = binary.AppendUvarint(b, uint64(x.Len()))
		var err error
		x.Foreach(func(k, v *ast.Term) {
			if err == nil {
				if b, err = encodeValue(b, k.Value); err == nil {
					b, err = encodeValue(b, v.Value)
				}
			}
		})
		return b, err
	case ast.Set:
		b = append(b, tagSet)
		b = binary.AppendUvarint(b, uint64(x.Len()))
		var err error
		x.Foreach(func(e *ast.Term) {
			if err == nil {
				b, err = encodeValue(b, e.Value)
			}
		})
		return b, err
	}
	return nil, fmt.Errorf("cannot send a %T to the policy's process", v)
}

var errTruncated = errors.New("truncated value from the parent process")

// decodeValue reads one value from b and returns it with the rest of b.
func decodeValue(b []byte, depth int) (ast.Value, []byte, error) {
	if len(b) == 0 {
		return nil, nil, errTruncated
	}
	if depth > maxValueDepth {
		return nil, nil, errors.New("value from the parent process nests too deeply")
	}
	tag, b := b[0], b[1:]
	switch tag {
	case tagNull:
		return ast.Null{}, b, nil
	case tagFalse:
		return ast.Boolean(false), b, nil
	case tagTrue:
		return ast.Boolean(true), b, nil
	}
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		// A string's bytes, or an array's elements of a byte at least each.
		return nil, nil, errTruncated
	}
	b = b[w:]
	switch tag {
	case tagNumber, tagString:
		s := string(b[:n])
		if tag == tagNumber {
			return ast.Number(s), b[n:], nil
		}
		return ast.String(s), b[n:], nil
	case tagArray, tagSet:
		terms := make([]*ast.Term, n)
		for i := range terms {
			var v ast.Value
			var err error
			if v, b, err = decodeValue(b, depth+1); err != nil {
				return nil, nil, err
			}
			terms[i] = ast.NewTerm(v)
		}
		if tag == tagSet {
			return ast.NewSet(terms...), b, nil
		}
		return ast.NewArray(terms...), b, nil
	case tagObject:
		pairs := make([][2]*ast.Term, 0, n)
		for range n {
			var k, v ast.Value
			var err error
			if k, b, err = decodeValue(b, depth+1); err != nil {
				return nil, nil, err
			}
			if v, b, err = decodeValue(b, depth+1); err != nil {
				return nil, nil, err
			}
			pairs = append(pairs, [2]*ast.Term{ast.NewTerm(k), ast.NewTerm(v)})
		}
		return ast.NewObject(pairs...), b, nil
	}
	return nil, nil, fmt.Errorf("unknown value tag %d from the parent process", tag)
}

// maxValueDepth bounds the nesting of a decoded value: a resource's is bounded by the
// YAML depth limit, and the inventory adds four levels.
const maxValueDepth = 10000
