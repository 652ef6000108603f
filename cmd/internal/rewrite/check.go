package rewrite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	yaml "go.yaml.in/yaml/v3"
)

// Check reports whether a fixed file still parses, as a last guard before it is
// written: every YAML document decodes, the JSON file is valid JSON, or the Terraform
// file is valid HCL.
func Check(file string, data []byte) error {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".tf", ".tofu":
		if _, diags := hclsyntax.ParseConfig(data, file, hcl.InitialPos); diags.HasErrors() {
			return errors.New(diags.Error())
		}
		return nil
	case ".json":
		if !json.Valid(data) {
			return errors.New("the file is not valid JSON")
		}
		return nil
	case ".yaml", ".yml":
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for i := 0; ; i++ {
			var n yaml.Node
			err := dec.Decode(&n)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("document %d: %w", i+1, err)
			}
		}
	}
	return fmt.Errorf("%s is neither YAML, JSON nor Terraform", filepath.Base(file))
}
