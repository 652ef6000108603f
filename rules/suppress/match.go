package suppress

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// MatchPath reports whether a slash-separated relative file name matches a glob. A
// segment "**" matches any number of directories, other segments are path.Match
// patterns ("*", "?", "[a-z]"), and a pattern that matches a directory matches every
// file beneath it, so "legacy", "legacy/" and "legacy/**" all cover legacy/app.yaml.
// The configuration's ignore paths and exclude list use it.
func MatchPath(pattern, name string) bool {
	pattern = strings.TrimSuffix(trimDot(pattern), "/")
	name = trimDot(name)
	if pattern == "" || name == "" {
		return false
	}
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	return matchPrefix(ps, ns)
}

// matchPrefix reports whether the pattern's segments ps match a non-empty leading
// part of ns (a directory the name lies under, or the whole name). Each pair of
// positions in ps and ns is decided once: a pattern of many "**" segments costs
// len(ps)·len(ns) segment matches, where trying every split of the name for each
// "**" in turn was exponential in their number (issue 27: 16 of them in a committed
// .pvlint.yaml held the run).
func matchPrefix(ps, ns []string) bool {
	// memo[i*(len(ns)+1)+j]: 0 undecided, 1 matches, 2 does not, for ps[i:] against
	// what follows ns[:j].
	memo := make([]uint8, (len(ps)+1)*(len(ns)+1))
	var at func(i, j int) bool
	at = func(i, j int) bool {
		k := i*(len(ns)+1) + j
		if memo[k] != 0 {
			return memo[k] == 1
		}
		var ok bool
		switch {
		case i == len(ps):
			ok = j >= 1
		case ps[i] == "**":
			// Zero segments, or one more and "**" still to match the rest.
			ok = at(i+1, j) || j < len(ns) && at(i, j+1)
		case j < len(ns):
			m, _ := path.Match(ps[i], ns[j])
			ok = m && at(i+1, j+1)
		}
		memo[k] = 2
		if ok {
			memo[k] = 1
		}
		return ok
	}
	return at(0, 0)
}

// CheckPath reports a glob MatchPath cannot use.
func CheckPath(pattern string) error {
	p := strings.TrimSuffix(trimDot(pattern), "/")
	if p == "" {
		return fmt.Errorf("empty path pattern %q", pattern)
	}
	if strings.HasPrefix(p, "/") {
		return fmt.Errorf("path pattern %q is absolute (want a path relative to the configuration file)", pattern)
	}
	for seg := range strings.SplitSeq(p, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("invalid path pattern %q: %v", pattern, err)
		}
	}
	return nil
}

// MatchResource reports whether r matches a pattern written Kind/namespace/name, or
// Kind/name (any namespace, and the form for cluster-scoped kinds). Each part is a
// path.Match pattern: "Deployment/legacy/*", "StorageClass/standard".
func MatchResource(pattern string, r *graph.Resource) bool {
	if r == nil {
		return false
	}
	parts := strings.Split(pattern, "/")
	var kind, ns, name string
	switch len(parts) {
	case 2:
		kind, ns, name = parts[0], "*", parts[1]
	case 3:
		kind, ns, name = parts[0], parts[1], parts[2]
	default:
		return false
	}
	return match(kind, r.Kind) && match(ns, r.Namespace) && match(name, r.Name)
}

// CheckResource reports a resource pattern MatchResource cannot use.
func CheckResource(pattern string) error {
	parts := strings.Split(pattern, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return fmt.Errorf("invalid resource %q (want Kind/namespace/name or Kind/name)", pattern)
	}
	for _, p := range parts {
		if p == "" {
			return fmt.Errorf("invalid resource %q (want Kind/namespace/name or Kind/name)", pattern)
		}
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("invalid resource pattern %q: %v", pattern, err)
		}
	}
	return nil
}

func match(pattern, s string) bool {
	ok, _ := path.Match(pattern, s)
	return ok
}

// relative returns file (relative to dir unless absolute) as a slash path relative to
// root, or false when it lies outside root. An empty root leaves file as it is.
func relative(file, root, dir string) (string, bool) {
	if file == "" {
		return "", false
	}
	if root == "" {
		return file, true
	}
	abs := filepath.FromSlash(file)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
