package terraform

import "strings"

// configExts are the extensions of configuration files, as OpenTofu reads them:
// Terraform's .tf and .tf.json, and OpenTofu's .tofu and .tofu.json. Terraform itself
// ignores .tofu files; a module written for both keeps them beside the .tf files.
var configExts = []string{".tf.json", ".tofu.json", ".tf", ".tofu"}

// ConfigExt is the configuration extension name ends with (".tf", ".tf.json", ".tofu"
// or ".tofu.json"), or "" when name is not a configuration file. It is case-sensitive,
// as Terraform and OpenTofu are.
func ConfigExt(name string) string {
	for _, ext := range configExts {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// IsConfigFile reports whether name is a Terraform or OpenTofu configuration file.
func IsConfigFile(name string) bool { return ConfigExt(name) != "" }

// tofuShadowed reports whether OpenTofu ignores the file name of a module directory
// whose configuration files are in present: a .tf (.tf.json) file is ignored when a
// .tofu (.tofu.json) file of the same base name is there, so that a module can carry
// an OpenTofu variant of a file next to the Terraform one. A .tf.json file is not
// shadowed by a .tofu file, nor a .tf file by a .tofu.json one.
func tofuShadowed(name string, present map[string]bool) bool {
	ext := ConfigExt(name)
	if ext != ".tf" && ext != ".tf.json" {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	return present[base+strings.Replace(ext, ".tf", ".tofu", 1)]
}
