package output

import (
	"bytes"
	"encoding/json"
	"testing"
)

// referenceCompact is how WriteSARIF used to turn go-sarif's JSON into the published
// log: decode into map[string]any, compact, re-encode. writeCompact must write the
// same bytes.
func referenceCompact(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	referenceCompactAny(doc)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(doc)
	return out.Bytes(), err
}

func referenceCompactAny(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			referenceCompactAny(x)
			switch x := x.(type) {
			case json.Number:
				if x == "-1" && unsetMinusOne[k] {
					delete(v, k)
				}
			case []any:
				if len(x) == 0 && k != "results" {
					delete(v, k)
				}
			case map[string]any:
				if len(x) == 0 {
					delete(v, k)
				}
			}
		}
	case []any:
		for _, x := range v {
			referenceCompactAny(x)
		}
	}
}

// checkCompact compares writeCompact with the reference on raw, which must be JSON as
// encoding/json marshals it.
func checkCompact(t *testing.T, raw []byte) {
	t.Helper()
	want, err := referenceCompact(raw)
	if err != nil {
		t.Fatalf("reference on %s: %v", raw, err)
	}
	var got bytes.Buffer
	if err := writeCompact(&got, raw); err != nil {
		t.Fatalf("writeCompact(%s): %v", raw, err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("writeCompact(%s)\n got: %s\nwant: %s", raw, got.Bytes(), want)
	}
}

var compactSeeds = []string{
	`{"runs":[{"results":[],"artifacts":[],"tool":{"driver":{"name":"pvlint","rules":[{"id":"PVL001","properties":{}}]}}}],"version":"2.1.0"}`,
	`{"index":-1,"ruleIndex":-1,"rank":-1,"other":-1,"id":-1,"byteOffset":-1,"charOffset":-1,"x":[{"index":-1}],"o":{"a":{"b":[]}}}`,
	`{"b":1,"a":2,"b":3,"\u003ckey\u003e":"a \u003c b \u0026\u0026 c \u003e d","s":"\ufffd\u2028\n\t\"\\u003c","n":[1.5e3,-0,null,true,false]}`,
	`[]`, `{}`, `"x"`, `{"a":{},"b":[{}],"c":[[]],"results":[]}`, `{"k\"ey":1,"tab\tkey":2,"é":3}`,
}

func TestWriteCompact(t *testing.T) {
	for _, s := range compactSeeds {
		checkCompact(t, []byte(s))
	}
	var raw bytes.Buffer
	if err := WriteSARIF(&raw, sample()); err != nil {
		t.Fatal(err)
	}
	// The published sample, made compact again, goes through both.
	var doc any
	if err := json.Unmarshal(raw.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	checkCompact(t, b)
}

func TestWriteCompactRejectsMalformed(t *testing.T) {
	for _, s := range []string{``, `{`, `{"a" 1}`, `[1 2]`, `{"a":1}x`, `"abc`, `{1:2}`} {
		if err := writeCompact(&bytes.Buffer{}, []byte(s)); err == nil {
			t.Errorf("writeCompact(%q) accepted malformed JSON", s)
		}
	}
}

// FuzzWriteCompact marshals any JSON value as go-sarif would (encoding/json with HTML
// escaping) and compares writeCompact with the reference on it.
func FuzzWriteCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return
		}
		checkCompact(t, raw)
	})
}
