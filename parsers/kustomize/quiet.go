package kustomize

import (
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Kustomize prints to the process's standard error while it builds: its deprecation
// warnings (fmt.Fprintf(os.Stderr) when it loads a kustomization: "# Warning:
// 'commonLabels' is deprecated...") and log lines through the standard log package
// ("well-defined vars that were never replaced"). None names a file, and a build of
// many overlays printed one per kustomization (issue 28). pvlint says what matters of
// them itself, at the line (deprecations: deprecationNotes), and silences the rest.
//
// Both destinations are global to the process. Builds run concurrently (the loader
// builds overlays in parallel, and tests load in parallel), so the silence is one
// section counted across builds: the first build to enter points os.Stderr and the
// log package at a pipe that is drained and discarded, the last to leave points them
// back. os.Stderr is written only under the mutex and only while no build runs, and
// every build reads it after entering and before leaving (under the same mutex), so
// there is no data race between builds. pvlint's own lines are unaffected: the
// command writes to the *os.File it was given at start, never to the variable.
var quiet struct {
	sync.Mutex
	n       int
	stderr  *os.File  // what os.Stderr was before the first build entered
	logOut  io.Writer // what the log package wrote to
	w       *os.File  // the write end of the discarding pipe
	drained chan struct{}
}

// silence runs fn with kustomize's prints to standard error discarded.
func silence(fn func()) {
	enterQuiet()
	defer leaveQuiet()
	fn()
}

func enterQuiet() {
	quiet.Lock()
	defer quiet.Unlock()
	quiet.n++
	if quiet.n > 1 {
		return
	}
	// A pipe, not /dev/null: nothing is opened by name, and a write never fails.
	r, w, err := os.Pipe()
	if err != nil {
		quiet.w = nil
		quiet.stderr = os.Stderr
		quiet.logOut = log.Writer()
		log.SetOutput(io.Discard)
		return
	}
	quiet.drained = make(chan struct{})
	go func(done chan struct{}) {
		_, _ = io.Copy(io.Discard, r)
		_ = r.Close()
		close(done)
	}(quiet.drained)
	quiet.w = w
	quiet.stderr = os.Stderr
	quiet.logOut = log.Writer()
	os.Stderr = w
	log.SetOutput(w)
}

func leaveQuiet() {
	quiet.Lock()
	defer quiet.Unlock()
	quiet.n--
	if quiet.n > 0 {
		return
	}
	os.Stderr = quiet.stderr
	log.SetOutput(quiet.logOut)
	if quiet.w != nil {
		_ = quiet.w.Close()
		<-quiet.drained
		quiet.w = nil
	}
}

// deprecated are the kustomization fields kustomize warns about when it loads one
// (types.Kustomization.CheckDeprecatedFields in kustomize/api v0.21), each with what
// replaces it. Kustomize still builds them, and so does pvlint.
var deprecated = []struct{ field, instead string }{
	{"bases", "list these entries under 'resources'"},
	{"commonLabels", "use 'labels' with includeSelectors: true"},
	{"imageTags", "use 'images'"},
	{"patchesJson6902", "use 'patches' (with a target)"},
	{"patchesStrategicMerge", "use 'patches'"},
	{"vars", "use 'replacements'"},
}

// deprecationNotes are the notes on k's deprecated fields, at each field's key: what
// kustomize prints to standard error without a file, said where the user edits.
func (k *kfile) deprecationNotes() []graph.Diagnostic {
	var out []graph.Diagnostic
	for _, d := range deprecated {
		f := k.root.Field(d.field)
		if f == nil {
			continue
		}
		fix := "'kustomize edit fix' rewrites it"
		if d.field == "vars" {
			fix = "'kustomize edit fix' rewrites it, experimentally"
		}
		n := diagAt(f.KeyRange, fmt.Sprintf("'%s' is deprecated in kustomize (%s; %s); built as kustomize builds it", d.field, d.instead, fix))
		n.Note = true
		out = append(out, n)
	}
	return out
}
