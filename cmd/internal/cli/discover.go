package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pvlint/pvlint/cmd/internal/config"
)

// findConfig is the configuration file a run without --config reads: the nearest
// .pvlint.yaml from the working directory up to its repository's root, else — when
// pvlint runs outside the repository it lints (`pvlint repo/k8s`) — the nearest one
// from the linted paths upwards, as golangci-lint finds its file. Paths that lead to
// different files are a usage error: one run has one configuration. "" when none.
func findConfig(c *Config, dir string) (string, error) {
	path, err := config.Find(dir)
	if err != nil || path != "" {
		return path, err
	}
	var found, from string
	for _, p := range c.Paths {
		if p == "-" {
			continue
		}
		start := p
		if !filepath.IsAbs(start) {
			start = filepath.Join(dir, start)
		}
		if info, err := os.Stat(start); err == nil && !info.IsDir() {
			start = filepath.Dir(start)
		}
		f, err := config.Find(start)
		if err != nil {
			return "", err
		}
		switch {
		case f == "":
		case found == "":
			found, from = f, p
		case f != found:
			return "", fmt.Errorf("%s and %s have different configuration files (%s, %s); lint them in separate runs or choose one with --config",
				from, p, displayPath(dir, found), displayPath(dir, f))
		}
	}
	return found, nil
}
