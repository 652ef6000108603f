// Package baseline records a run's findings in a file so that later runs report only
// new ones: the way to adopt pvlint on a large repository on day one and still fail
// on every hazard introduced afterwards.
//
// Findings are matched by lint.Fingerprint (rule, resource identity, field path), not
// by line, so a baseline survives inserted lines, moved documents and re-indentation.
// Matching counts: a baseline entry absorbs one finding, so a second identical hazard
// is new.
package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"syscall"

	"github.com/pvlint/pvlint/rules/lint"
)

// Version is the file format version Write produces and Read accepts.
const Version = 1

// Entry is one accepted finding. Only Fingerprint is used for matching; the other
// fields let a reviewer read the file and see what was accepted.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Resource    string `json:"resource,omitempty"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

// Baseline is the file's content.
type Baseline struct {
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

// New records findings that are not suppressed (a suppression already accepts its
// finding, with a reason), sorted by file, rule and resource so the file diffs well.
func New(findings []lint.Finding) *Baseline {
	b := &Baseline{Version: Version, Entries: []Entry{}}
	for _, f := range findings {
		if f.Suppression != nil {
			continue
		}
		e := Entry{Fingerprint: lint.Fingerprint(f), File: f.Range.File, Message: f.Message}
		if f.Rule != nil {
			e.Rule = f.Rule.ID
		}
		if f.Resource != nil {
			e.Resource = f.Resource.String()
		}
		b.Entries = append(b.Entries, e)
	}
	sort.SliceStable(b.Entries, func(i, j int) bool {
		x, y := b.Entries[i], b.Entries[j]
		switch {
		case x.File != y.File:
			return x.File < y.File
		case x.Rule != y.Rule:
			return x.Rule < y.Rule
		case x.Resource != y.Resource:
			return x.Resource < y.Resource
		}
		return x.Fingerprint < y.Fingerprint
	})
	return b
}

// Write writes b as indented JSON.
func (b *Baseline) Write(w io.Writer) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("encode baseline: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteFile writes b to the named file.
func (b *Baseline) WriteFile(name string) error {
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write baseline %s: %w", name, pathless(err))
	}
	return nil
}

// Read decodes a baseline strictly: an unknown field, another version or an entry
// without a fingerprint is an error, since a baseline that silently matches nothing
// would report every accepted finding as new.
func Read(r io.Reader) (*Baseline, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("invalid baseline: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid baseline: data after the JSON object")
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d is not supported (want %d; write a new one with --write-baseline)", b.Version, Version)
	}
	for i, e := range b.Entries {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("invalid baseline: entry %d has no fingerprint", i+1)
		}
	}
	return &b, nil
}

// ReadFile reads the named baseline file. It must be a regular file, decided before
// it is opened: the baseline usually lives in the checkout, where a pull request can
// replace it with a named pipe, whose open would block forever.
func ReadFile(name string) (*Baseline, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", name, pathless(err))
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("read baseline %s: not a regular file", name)
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", name, pathless(err))
	}
	defer f.Close()
	b, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// pathless drops the path from an *fs.PathError: the message already names the file.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Result is what Filter found.
type Result struct {
	// Matched counts the findings the baseline accepted (removed from the report).
	Matched int
	// Stale are baseline entries no finding matched: fixed, or changed beyond
	// recognition. Writing the baseline again drops them.
	Stale []Entry
}

// Filter removes the findings the baseline accepts and returns the others in order.
// Suppressed findings are kept: they are reported as suppressed, not as baseline.
func (b *Baseline) Filter(findings []lint.Finding) ([]lint.Finding, Result) {
	left := make(map[string]int, len(b.Entries))
	for _, e := range b.Entries {
		left[e.Fingerprint]++
	}
	var res Result
	out := make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		if f.Suppression == nil {
			fp := lint.Fingerprint(f)
			if left[fp] > 0 {
				left[fp]--
				res.Matched++
				continue
			}
		}
		out = append(out, f)
	}
	for _, e := range b.Entries {
		if left[e.Fingerprint] > 0 {
			left[e.Fingerprint]--
			res.Stale = append(res.Stale, e)
		}
	}
	return out, res
}
