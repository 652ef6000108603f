package load

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Walking a repository skips what its .gitignore files ignore: build output, vendored
// dependencies, editor state. Each .gitignore met while walking applies to its own
// directory and below, later (deeper) files winning, with git's syntax (negation,
// directory-only patterns, anchoring, **) as go-git implements it. A directory that is
// ignored is not descended into, so nothing below it can be re-included, as in git.
// Only .gitignore files at or below the walked directory are read, never one outside
// the linted tree.

const (
	// maxGitignoreSize bounds one .gitignore file; a larger one is not read.
	maxGitignoreSize = 1 << 20
	// maxGitignorePatterns bounds the patterns of one walk: each walked path is
	// matched against all of them, so later patterns are dropped past the bound (the
	// walk then reads more files, never fewer).
	maxGitignorePatterns = 10000
)

// ignorer holds the .gitignore patterns of one walk.
type ignorer struct {
	root     string // the walked directory, absolute
	patterns []gitignore.Pattern
}

// segments splits a path under the walked directory into its names.
func (ig *ignorer) segments(path string) []string {
	rel, err := filepath.Rel(ig.root, path)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// enter reads the .gitignore of a directory about to be walked, if it has a regular
// one (a symlink is not followed).
func (ig *ignorer) enter(dir string) {
	p := filepath.Join(dir, ".gitignore")
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxGitignoreSize {
		return
	}
	data, err := readFile(p, info.Size(), maxGitignoreSize)
	if err != nil || len(data) > maxGitignoreSize {
		return
	}
	domain := ig.segments(dir)
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if len(ig.patterns) >= maxGitignorePatterns {
			return
		}
		ig.patterns = append(ig.patterns, gitignore.ParsePattern(line, domain))
	}
}

// ignored reports whether the patterns read so far ignore a path under the walked
// directory.
func (ig *ignorer) ignored(path string, isDir bool) bool {
	if len(ig.patterns) == 0 {
		return false
	}
	segs := ig.segments(path)
	if len(segs) == 0 {
		return false
	}
	return gitignore.NewMatcher(ig.patterns).Match(segs, isDir)
}

// apiVersionKey and kindKey match a key apiVersion and a key kind, quoted (JSON) or not
// (YAML), at the start of a line or after "{" or ",": what any Kubernetes manifest,
// even a broken one, shows. groupsKey is the top-level key of a Prometheus rules file,
// the other kind of file pvlint reads.
var (
	apiVersionKey = regexp.MustCompile(`(?m)(^|[{,])\s*(- )?"?apiVersion"?\s*:`)
	kindKey       = regexp.MustCompile(`(?m)(^|[{,])\s*(- )?"?kind"?\s*:`)
	groupsKey     = regexp.MustCompile(`(?m)(^|\{)\s*"?groups"?\s*:`)
)

// onlySyntaxErrors reports whether a file's diagnostics are all YAML (or JSON, which
// is read as YAML) syntax errors: the failures of a file that may not be a manifest at
// all. Limits hit and text that is not UTF-8 are always reported.
func onlySyntaxErrors(ds []graph.Diagnostic) bool {
	for _, d := range ds {
		if !strings.HasPrefix(d.Message, "invalid YAML: ") {
			return false
		}
	}
	return len(ds) > 0
}

// looksLikeManifest reports whether a file that does not parse shows a sign of being
// an input pvlint reads: both an apiVersion and a kind key (a Kubernetes manifest), or
// a groups key (a Prometheus rules file). A file reached by walking a directory
// without them (editor settings, JSON with comments, package manifests) is not
// reported when it does not parse.
func looksLikeManifest(data []byte) bool {
	return apiVersionKey.Match(data) && kindKey.Match(data) || groupsKey.Match(data)
}

// templateAction matches a Go (or Jinja) template action, {{ ... }} within a line.
var templateAction = regexp.MustCompile(`\{\{[^\n]*\}\}`)

// isTemplate reports whether a file that does not parse holds template actions: a
// manifest template of another tool (a test harness's Go templates, gomplate,
// Jinja), which nobody applies as it is. Walked, it is skipped like a file that is
// not a manifest; a Helm chart's templates are rendered, never walked.
func isTemplate(data []byte) bool {
	return templateAction.Match(data)
}
