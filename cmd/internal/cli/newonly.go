package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// addedLines maps a file of a unified diff, as the diff names it after "+++ " (the
// "b/" of git's prefix removed), to the line numbers the diff adds in its new
// version.
type addedLines map[string]map[int]bool

// parsePatch reads a unified diff: `git diff`, `diff -u` or a pull request's .diff.
// Only the new side's file names and the added lines of each hunk are kept; hunk
// headers give the line numbers, and their counts say where a hunk ends, so a
// content line that starts with "+++" is not taken for a file header.
func parsePatch(name string, data []byte) (addedLines, error) {
	out := addedLines{}
	var file string
	oldLeft, newLeft, line := 0, 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), maxPatchLine)
	n, count := 0, 0
	for n = 1; sc.Scan(); n++ {
		text := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(text, "+"):
				if file != "" {
					if count++; count > maxPatchAdded {
						return nil, &patchError{n, fmt.Sprintf("%s:%d: the patch adds more than %d lines", name, n, maxPatchAdded)}
					}
					out[file][line] = true
				}
				line++
				newLeft--
			case strings.HasPrefix(text, "-"):
				oldLeft--
			case strings.HasPrefix(text, " ") || text == "":
				line++
				oldLeft--
				newLeft--
			case strings.HasPrefix(text, `\`): // "\ No newline at end of file"
			default:
				return nil, &patchError{n, fmt.Sprintf("%s:%d: hunk ends early: %d old and %d new lines missing", name, n, max(oldLeft, 0), max(newLeft, 0))}
			}
			continue
		}
		switch {
		case strings.HasPrefix(text, "+++ "):
			file = patchPath(strings.TrimPrefix(text, "+++ "))
			if file != "" && out[file] == nil {
				out[file] = map[int]bool{}
			}
		case strings.HasPrefix(text, "@@ "):
			var err error
			oldLeft, line, newLeft, err = hunkHeader(text)
			if err != nil {
				return nil, &patchError{n, fmt.Sprintf("%s:%d: %v", name, n, err)}
			}
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &patchError{n, fmt.Sprintf("%s:%d: a line is longer than %d bytes", name, n, maxPatchLine)}
	} else if err != nil {
		return nil, &patchError{n, fmt.Sprintf("%s:%d: %v", name, n, err)}
	}
	if oldLeft > 0 || newLeft > 0 {
		return nil, &patchError{n, fmt.Sprintf("%s: the last hunk ends early: %d old and %d new lines missing", name, oldLeft, newLeft)}
	}
	return out, nil
}

// hunkHeader reads "@@ -12,3 +14,5 @@ ...": the old side's line count, and the new
// side's first line and count (a missing count is 1).
func hunkHeader(h string) (oldCount, newStart, newCount int, err error) {
	fields := strings.Fields(h)
	if len(fields) < 4 || fields[3] != "@@" && !strings.HasPrefix(fields[3], "@@") || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, fmt.Errorf("malformed hunk header %q", h)
	}
	_, oldCount, err = hunkRange(fields[1][1:])
	if err == nil {
		newStart, newCount, err = hunkRange(fields[2][1:])
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("malformed hunk header %q", h)
	}
	return oldCount, newStart, newCount, nil
}

// hunkRange reads "14,5" or "14".
func hunkRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, fmt.Errorf("bad range %q", s)
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, fmt.Errorf("bad range %q", s)
		}
	}
	return start, count, nil
}

// patchPath is the file name of a "+++ " line: "" for a deleted file (/dev/null),
// without git's "b/" prefix, a timestamp after a tab, or C-style quotes.
func patchPath(s string) string {
	if q, err := strconv.QuotedPrefix(s); err == nil && strings.HasPrefix(s, `"`) {
		s, _ = strconv.Unquote(q)
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	return path.Clean(strings.TrimPrefix(s, "b/"))
}

// touches reports whether r covers a line the patch adds. The patch names files
// from its repository's root, findings from the working directory: a finding's file
// matches when its absolute path ends with the patch's path, component by component.
func (a addedLines) touches(dir string, r graph.Range) bool {
	if !r.IsValid() {
		return false
	}
	abs := r.File
	if !path.IsAbs(abs) {
		abs = path.Join(slashDir(dir), abs)
	}
	end := max(int(r.End.Line), int(r.Start.Line))
	for file, lines := range a {
		if abs != file && !strings.HasSuffix(abs, "/"+file) {
			continue
		}
		for l := int(r.Start.Line); l <= end; l++ {
			if lines[l] {
				return true
			}
		}
	}
	return false
}

func slashDir(dir string) string { return strings.ReplaceAll(dir, `\`, "/") }

// The bounds of reading a --new-from-patch file, which holds the pull request's
// changes: its size, the lines it adds, and one line's length.
const (
	maxPatchSize  = 256 << 20
	maxPatchAdded = 4_000_000
	maxPatchLine  = 16 << 20
)

// patchError is a patch pvlint cannot read: the run reports it as one PVL000 at the
// patch's line (0 when the whole file is at fault) and reports every finding as new.
type patchError struct {
	line int
	msg  string
}

func (e *patchError) Error() string { return e.msg }

// keepNew keeps the findings (reported and suppressed) whose location or one of
// whose related locations is on a line the patch in file adds: what a pull request
// introduced, or made worse by adding the other end of a chain. A patch that cannot
// be read (too large, a line over 16 MiB, a malformed hunk) keeps every finding and
// adds one PVL000 at the patch saying why: a report with nothing new in it would
// pass the pull request unseen.
func keepNew(file, dir string, acc *accepted) error {
	added, err := readPatch(file)
	var pe *patchError
	if errors.As(err, &pe) {
		msg := fmt.Sprintf("--new-from-patch: %s; every finding is reported as new", pe.msg)
		path := file
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		acc.addDiagnosticAt(dir, path, max(pe.line, 1), msg)
		return nil
	}
	if err != nil {
		return fmt.Errorf("--new-from-patch: %w", err)
	}
	keep := func(fs []lint.Finding) []lint.Finding {
		out := fs[:0]
		for _, f := range fs {
			if added.touches(dir, f.Range) || relatedTouch(added, dir, f) {
				out = append(out, f)
			}
		}
		return out
	}
	acc.findings = keep(acc.findings)
	return nil
}

// readPatch reads and parses the patch file, within its bounds: an error it cannot
// stand is a *patchError.
func readPatch(file string) (addedLines, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &patchError{msg: fmt.Sprintf("%s is not a regular file", file)}
	}
	if info.Size() > maxPatchSize {
		return nil, &patchError{msg: fmt.Sprintf("%s is larger than %d bytes", file, maxPatchSize)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPatchSize))
	if err != nil {
		return nil, &patchError{msg: fmt.Sprintf("%s: %v", file, err)}
	}
	return parsePatch(file, data)
}

func relatedTouch(added addedLines, dir string, f lint.Finding) bool {
	for _, rel := range f.Related {
		if added.touches(dir, rel.Range) {
			return true
		}
	}
	return false
}
