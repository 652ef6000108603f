package output

import (
	"bytes"
	"encoding/json"
	"io"
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

// writeCompact writes one compact JSON text, raw, as pvlint publishes it (see
// compactor), followed by a newline.
func writeCompact(w io.Writer, raw []byte) error {
	c := compactor{out: &jsonOut{w: w}}
	if err := c.parse(raw); err != nil {
		return err
	}
	return c.out.end(c.write(0, 0))
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

// marshalTokens re-encodes the first JSON value of data token by token as
// encoding/json marshals each token (strings with HTML escaping, invalid UTF-8 as
// U+FFFD, numbers as written), keeping the order of object members and duplicate
// keys, which marshalling a decoded value would sort and merge.
func marshalTokens(data []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type container struct {
		object bool
		tokens int // tokens read in it: keys and values alternate in an object
	}
	var out []byte
	var open []container
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out = append(out, byte(d))
			open = open[:len(open)-1]
		} else {
			if k := len(open) - 1; k >= 0 {
				switch c := open[k]; {
				case c.object && c.tokens%2 == 1:
					out = append(out, ':')
				case c.tokens > 0:
					out = append(out, ',')
				}
				open[k].tokens++
			}
			if d, ok := tok.(json.Delim); ok {
				out = append(out, byte(d))
				open = append(open, container{object: d == '{'})
			} else {
				b, err := json.Marshal(tok)
				if err != nil {
					return nil, false
				}
				out = append(out, b...)
			}
		}
		if len(open) == 0 {
			return out, true
		}
	}
}

// TestMarshalTokens: the fuzz target's input keeps member order and duplicates.
func TestMarshalTokens(t *testing.T) {
	got, ok := marshalTokens([]byte(` {"b" : 1, "a":[2, {"b":3e0,"b":"<\u00e9"}, [], {}], "c":null} trailing`))
	want := `{"b":1,"a":[2,{"b":3e0,"b":"\u003cé"},[],{}],"c":null}`
	if !ok || string(got) != want {
		t.Errorf("marshalTokens = %s, %v; want %s", got, ok, want)
	}
	for _, bad := range []string{``, `{"a":}`, `[1,]`, `{"a" 1}`} {
		if _, ok := marshalTokens([]byte(bad)); ok {
			t.Errorf("marshalTokens(%q) accepted it", bad)
		}
	}
}

// FuzzWriteCompact compares writeCompact with the reference on any JSON value
// written as go-sarif's json.Marshal would write it (see marshalTokens), members in
// the fuzzer's order, duplicates included.
func FuzzWriteCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, ok := marshalTokens(data)
		if !ok {
			return
		}
		checkCompact(t, raw)
	})
}
