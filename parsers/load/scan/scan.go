// Package scan answers, by listing directories only, what a load will find in the
// paths it is given before the load reads anything. It imports nothing but the
// standard library, so that a command can ask it while its own packages are still
// initialising (the pvlint command starts a worker process that early when the paths
// hold something to evaluate).
package scan

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// SkipDirs are never descended into: version control, dependencies of JavaScript
// tooling, and Terraform's own cache of downloaded modules and providers.
var SkipDirs = map[string]bool{".git": true, "node_modules": true, ".terraform": true}

// Evaluables counts, up to most, what the paths (relative to dir; "-" is standard
// input) hold that a load evaluates in workers: each Helm chart, each kustomization
// (bases included: counting stops early anyway), and the Terraform files, which are
// evaluated together, as one. It only lists directories, in the
// walk's order, skipping what the walk skips, and stops once it has counted most; a
// caller uses it to start as many workers early as the evaluations can keep busy.
func Evaluables(dir string, paths []string, most int) int {
	if p := taken(dir, paths, most); p != nil {
		return p.wait()
	}
	return count(dir, paths, most)
}

// count is Evaluables without Ahead's count.
func count(dir string, paths []string, most int) int {
	n, terraform := 0, false
	for _, p := range paths {
		if p == "-" || n >= most {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != p && SkipDirs[d.Name()] {
					return filepath.SkipDir
				}
				return nil
			}
			name := strings.ToLower(d.Name())
			switch {
			case d.Name() == "Chart.yaml", d.Name() == "kustomization.yaml", d.Name() == "kustomization.yml", d.Name() == "Kustomization":
				n++
			case !terraform && (strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json") ||
				strings.HasSuffix(name, ".tofu") || strings.HasSuffix(name, ".tofu.json")):
				terraform = true
				n++
			}
			if n >= most {
				return fs.SkipAll
			}
			return nil
		})
	}
	return min(n, most)
}

// ahead is the count Ahead began, until the first call of Evaluables that asks for it
// takes it.
var ahead struct {
	mu    sync.Mutex
	dir   string
	paths []string
	most  int
	count *pending // nil once taken
}

// pending is a count under way: n is set when done is closed.
type pending struct {
	done chan struct{}
	n    int
}

func (p *pending) wait() int {
	<-p.done
	return p.n
}

// Ahead begins counting, in the background, what Evaluables(dir, paths, most) will be
// asked, and returns the function that waits for the count. The first later call of
// Evaluables with the same arguments waits for that count instead of listing the
// directories again; any other call lists them. The pvlint command counts once, while
// its packages initialise, and decides twice with it: whether to start a worker then,
// and whether the run's pool starts one.
func Ahead(dir string, paths []string, most int) (wait func() int) {
	p := &pending{done: make(chan struct{})}
	ahead.mu.Lock()
	ahead.dir, ahead.paths, ahead.most, ahead.count = dir, slices.Clone(paths), most, p
	ahead.mu.Unlock()
	go func() {
		p.n = count(dir, paths, most)
		close(p.done)
	}()
	return p.wait
}

// taken returns the count Ahead began for these arguments, once, or nil.
func taken(dir string, paths []string, most int) *pending {
	ahead.mu.Lock()
	defer ahead.mu.Unlock()
	p := ahead.count
	if p == nil || ahead.dir != dir || ahead.most != most || !slices.Equal(ahead.paths, paths) {
		return nil
	}
	ahead.count = nil
	return p
}
