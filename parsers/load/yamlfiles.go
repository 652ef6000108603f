// Parsing the walked YAML and JSON files into resources, in parallel.

package load

import (
	"io/fs"
	"runtime"
	"sort"
	"sync"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/parsers/promrules"
)

// yamlFile is a plain manifest file to read, with what the walk learnt of it (nil
// when the user named it: read examines it then).
type yamlFile struct {
	path string
	info fs.FileInfo
	// walked is true for a file found by walking a directory: one that does not parse
	// and shows no sign of being a manifest is then skipped without a diagnostic.
	walked bool
}

// parseYAML parses the plain manifest files with a bounded worker pool, keeping
// results in walk order so output is deterministic.
func (l *loader) parseYAML() {
	type out struct {
		name  string
		data  []byte
		rs    []*graph.Resource
		diags []graph.Diagnostic
		ok    bool
	}
	if l.opts.BeforeParse != nil {
		var total int64
		for _, f := range l.yamls {
			if f.info != nil && f.info.Mode().IsRegular() {
				total += min(f.info.Size(), l.opts.MaxFileSize)
			}
		}
		if after := l.opts.BeforeParse(total); after != nil {
			defer after()
		}
	}
	results := make([]out, len(l.yamls))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				path := l.yamls[i].path
				name := l.display(path)
				l.guard(name, func() {
					data, ok := l.read(path, l.yamls[i].info)
					if !ok {
						return
					}
					rs, ds := parseFile(l, name, data)
					if l.yamls[i].walked && onlySyntaxErrors(ds) && (!looksLikeManifest(data) || isTemplate(data)) {
						return // editor settings, JSON with comments, package manifests, templates
					}
					annotateRendered(name, data, rs)
					results[i] = out{name, data, rs, ds, true}
				})
				l.opts.Progress.parsed()
			}
		})
	}
	for i := range l.yamls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, r := range results {
		if !r.ok {
			continue
		}
		l.res.Sources[r.name] = r.data
		l.res.Base = append(l.res.Base, r.rs...)
		l.res.Diagnostics = append(l.res.Diagnostics, r.diags...)
	}
	sort.SliceStable(l.res.Diagnostics, func(i, j int) bool {
		return l.res.Diagnostics[i].Range.File < l.res.Diagnostics[j].Range.File
	})
}

func (l *loader) addManifest(name string, data []byte) {
	var rs []*graph.Resource
	var ds []graph.Diagnostic
	l.guard(name, func() {
		rs, ds = parseFile(l, name, data)
		annotateRendered(name, data, rs)
	})
	l.res.Sources[name] = data
	l.res.Base = append(l.res.Base, rs...)
	l.res.Diagnostics = append(l.res.Diagnostics, ds...)
}

// parseYAMLFile reads one YAML file: its Kubernetes objects, and the documents that
// are Prometheus rules files (PVL021 checks their expressions). manifest.Parse has
// already reported the file's YAML errors, so promrules' copies are dropped.
func parseYAMLFile(name string, data []byte, opts manifest.Options) ([]*graph.Resource, []graph.Diagnostic) {
	rs, ds := manifest.Parse(name, data, opts)
	if promrules.Detect(data) {
		more, _ := promrules.Parse(name, data, opts)
		rs = append(rs, more...)
	}
	return rs, ds
}
