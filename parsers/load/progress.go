package load

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Progress counts what a load has done, for a caller that shows it while the load
// runs (the command line on a terminal). Every field is updated atomically; a nil
// *Progress counts nothing.
type Progress struct {
	// Found are the files met while walking the paths.
	Found atomic.Int64
	// Files are the plain manifest files to parse, and Parsed those parsed.
	Files, Parsed atomic.Int64
	// Kustomizations are the builds to run, and Built those done.
	Kustomizations, Built atomic.Int64
	// Charts are the Helm charts to render, and Rendered those done.
	Charts, Rendered atomic.Int64
	// Modules are the Terraform module directories to evaluate, and Evaluated is set
	// to Modules once they all are (they are evaluated together).
	Modules, Evaluated atomic.Int64
}

// The loader's steps; each is a no-op on a nil *Progress.
func (p *Progress) found() {
	if p != nil {
		p.Found.Add(1)
	}
}

func (p *Progress) parsed() {
	if p != nil {
		p.Parsed.Add(1)
	}
}

func (p *Progress) built() {
	if p != nil {
		p.Built.Add(1)
	}
}

func (p *Progress) rendered(n int) {
	if p != nil {
		p.Rendered.Add(int64(n))
	}
}

func (p *Progress) evaluated() {
	if p != nil {
		p.Evaluated.Store(p.Modules.Load())
	}
}

// String is one line of what is done: "1200 files found" while walking, then
// "manifests 310/1200, charts 2/14, Terraform modules 0/3" (only the kinds the run has).
func (p *Progress) String() string {
	if p == nil {
		return ""
	}
	var parts []string
	part := func(name string, done, total *atomic.Int64) {
		if t := total.Load(); t > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", name, min(done.Load(), t), t))
		}
	}
	part("manifests", &p.Parsed, &p.Files)
	part("kustomizations", &p.Built, &p.Kustomizations)
	part("charts", &p.Rendered, &p.Charts)
	part("Terraform modules", &p.Evaluated, &p.Modules)
	if len(parts) == 0 {
		return fmt.Sprintf("%d files found", p.Found.Load())
	}
	return strings.Join(parts, ", ")
}
