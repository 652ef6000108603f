package config_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"
)

// compile compiles the published schema; the compiler checks it against the draft
// 2020-12 metaschema first.
func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(config.Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v", err)
	}
	return sch
}

// instance turns a YAML file into the JSON value an editor's YAML language server
// validates: plain scalars typed by the YAML 1.2 core schema, dates as strings.
func instance(t *testing.T, data []byte) any {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Content) == 0 {
		return map[string]any{}
	}
	return toJSON(doc.Content[0])
}

func toJSON(n *yaml.Node) any {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = toJSON(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := []any{}
		for _, it := range n.Content {
			l = append(l, toJSON(it))
		}
		return l
	}
	switch n.Tag {
	case "!!null":
		return nil
	case "!!bool":
		b, _ := strconv.ParseBool(n.Value)
		return b
	case "!!int", "!!float":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return n.Value
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return n.Value
}

// decoderOnly are bad fixtures the schema cannot see: its input is the decoded
// document, where a duplicate key or a second document is already gone, and a
// syntax error never gets that far.
var decoderOnly = map[string]bool{"duplicate.yaml": true, "two-documents.yaml": true, "syntax.yaml": true}

// TestSchema validates the starter file and the good fixtures against the schema,
// and checks that it rejects every bad fixture the decoder rejects, so the two
// descriptions of the file cannot drift apart.
func TestSchema(t *testing.T) {
	sch := compile(t)
	good := map[string][]byte{"starter.yaml": config.Starter}
	for _, name := range []string{"full.yaml", "anchors.yaml", "empty.yaml"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		good[name] = data
	}
	for name, data := range good {
		if _, err := config.Parse(name, "/repo", data); err != nil {
			t.Errorf("decoder rejects %s: %v", name, err)
		}
		if err := sch.Validate(instance(t, data)); err != nil {
			t.Errorf("schema rejects %s: %v", name, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(fixtures, "bad", "*.yaml"))
	for _, f := range files {
		name := filepath.Base(f)
		if decoderOnly[name] {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(instance(t, data)); err == nil {
			t.Errorf("schema accepts %s, which the decoder rejects", name)
		}
	}
}

// TestSchemaCoversFull checks that full.yaml sets every key the schema lists at the
// top level, so the decoder has accepted every key the schema allows.
func TestSchemaCoversFull(t *testing.T) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(config.Schema, &s); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(fixtures, "full.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	full := instance(t, data).(map[string]any)
	var missing []string
	for k := range s.Properties {
		if _, ok := full[k]; !ok {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("full.yaml does not set %v", missing)
	}
}

// TestSchemaPlatforms checks that the schema's cluster names are the profile table's,
// so an editor offers every name --cluster takes and no other.
func TestSchemaPlatforms(t *testing.T) {
	var s struct {
		Defs struct {
			Platform struct {
				Enum []string `json:"enum"`
			} `json:"platform"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(config.Schema, &s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(graph.PlatformNames(), s.Defs.Platform.Enum); diff != "" {
		t.Errorf("schema platform names (-table +schema):\n%s", diff)
	}
}
