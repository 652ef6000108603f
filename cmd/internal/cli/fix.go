package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/rewrite"
	"github.com/pvlint/pvlint/rules/lint"
)

// Exit codes of pvlint fix: whether files changed (or, with --dry-run, would change).
const (
	ExitFixNone    = 0 // nothing to change
	ExitFixChanged = 1 // files were changed (--dry-run: would be)
)

// fixRounds bounds how often fix re-lints to apply fixes that overlapped others: each
// round applies every fix that overlaps none picked before it.
const fixRounds = 4

// fixCmd is `pvlint fix [--dry-run] [--unsafe-fixes] [flags] [PATH ...]`: lint, apply
// the fixes of the findings that are not suppressed, re-lint to apply fixes that
// overlapped, and report what changed. Only YAML manifests and Terraform .tf (OpenTofu
// .tofu) files inside the working directory are written, each atomically.
func (e *Env) fixCmd(args []string) int {
	c, err := parseArgs(fixFlagSpecs, args)
	if err == nil {
		err = c.resolveTargets()
	}
	if errors.Is(err, errHelp) {
		e.fixUsage(e.Stdout)
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	dryRun := c.DryRun
	if slices.Contains(c.Paths, "-") {
		return e.fail(errors.New("fix rewrites files: standard input cannot be fixed (use `pvlint -f sarif -` for the proposed fixes)"))
	}
	if c.StdinFilename != "" && len(c.Paths) == 0 {
		return e.fail(errors.New("fix rewrites files: give the paths to fix, not --stdin-filename"))
	}
	code := ExitFixNone
	fixed := map[string]bool{}
	files := map[string]bool{}
	explained := map[string]bool{}
	for range fixRounds {
		an, err := e.analyze(c)
		if err != nil {
			return e.fail(err)
		}
		// Each finding's fix resolved against the files as read, in finding order.
		var candidates [][]lint.Change
		var owner []lint.Finding
		rv := rewrite.NewResolver(source(an.res.Sources), an.plan.c.UnsafeFixes)
		for _, f := range an.acc.reported() {
			if f.Fix == nil {
				continue
			}
			res := rv.Resolve(f.Fix, f.Resource)
			if res.NotApplied != "" {
				e.explainNotApplied(f, res.NotApplied, explained)
				continue
			}
			candidates = append(candidates, res.Changes)
			owner = append(owner, f)
		}
		if len(candidates) == 0 {
			break
		}
		byFile, deferred := rewrite.Select(candidates)
		late := map[int]bool{}
		for _, d := range deferred {
			late[d] = true
		}
		wrote := false
		for _, file := range sortedKeys(byFile) {
			old := an.res.Sources[file]
			updated := rewrite.Apply(old, byFile[file])
			if string(updated) == string(old) {
				continue // a fix already in place that did not remove its finding
			}
			if err := rewrite.Check(file, updated); err != nil {
				fmt.Fprintf(e.Stderr, "pvlint: %s: not fixed: the fixed file would not parse (%v); this is a bug in pvlint, please report it at %s/issues\n", file, err, Home)
				code = ExitError
				continue
			}
			if dryRun {
				fmt.Fprint(e.Stdout, rewrite.Diff(file, old, updated))
			} else if err := writeInRoot(an.plan.dir, file, old, updated); err != nil {
				fmt.Fprintf(e.Stderr, "pvlint: %s: not fixed: %v\n", file, err)
				code = ExitError
				continue
			}
			files[file], wrote = true, true
			for i, x := range candidates {
				if !late[i] && len(x) > 0 && x[0].Range.File == file {
					f := owner[i]
					fixed[f.Rule.ID+" "+f.Range.String()] = true
				}
			}
		}
		// Another round applies the fixes that overlapped, and those of findings the
		// written fixes revealed (PVL005 once a Deployment is Recreate).
		if dryRun || !wrote {
			break
		}
	}
	verb := "fixed"
	if dryRun {
		verb = "would fix"
	}
	fmt.Fprintf(e.Stderr, "pvlint: %s %d finding%s in %d file%s\n", verb, len(fixed), plural(len(fixed)), len(files), plural(len(files)))
	if code == ExitFixNone && len(files) > 0 {
		code = ExitFixChanged
	}
	return code
}

// explainNotApplied says once per place why a finding's fix is not written.
func (e *Env) explainNotApplied(f lint.Finding, why string, seen map[string]bool) {
	line := fmt.Sprintf("%s: %s not fixed: %s", f.Range, f.Rule.ID, why)
	if !seen[line] {
		seen[line] = true
		fmt.Fprintln(e.Stderr, line)
	}
}

// writeInRoot replaces file (a displayed name, relative to dir unless absolute) with
// data, atomically (a temporary file in the same directory renamed over it, with the
// file's mode), and only when the file is a regular file inside dir, symbolic links
// resolved, whose content is still old: pvlint runs on untrusted pull requests, and
// must not be steered into writing anywhere else.
func writeInRoot(dir, file string, old, data []byte) error {
	p := filepath.FromSlash(file)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	info, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file (symbolic links are not followed)")
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return errors.New("outside the working directory")
	}
	current, err := os.ReadFile(real)
	if err != nil {
		return err
	}
	if string(current) != string(old) {
		return errors.New("changed since pvlint read it")
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".pvlint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), real)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// fixUsage is the help of pvlint fix.
func (e *Env) fixUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: pvlint fix [--dry-run] [--unsafe-fixes] [flags] [PATH ...]

Applies the automatic fixes of the findings (see `+"`pvlint explain RULE`"+`): PVL001
volumeBindingMode: WaitForFirstConsumer, PVL003 strategy Recreate, PVL009
concurrencyPolicy: Forbid, PVL014 storageClassName: "", PVL015 is-default-class "true",
PVL016 wait_until_bound = false, and with --unsafe-fixes PVL005 ReadWriteOncePod.
YAML manifests and Terraform .tf (OpenTofu .tofu) files inside the working directory
are rewritten in place, changing only the fixed lines; Helm templates, Kustomize
builds, JSON and Terraform plans are not (the reason and where to change them is
printed). Suppressed and baselined findings are not fixed. Fixes that overlap are
applied over up to 4 rounds, re-linting in between.

  --dry-run, --diff  print the changes as a unified diff and write nothing
  --unsafe-fixes     also apply fixes that need a migration (PVL005)

Every flag of `+"`pvlint --help`"+` selects and configures the rules the same way.

Exit codes: 0 nothing to change, 1 files changed (with --dry-run: would change),
2 usage, configuration or internal error, or a file that could not be written.
`)
}
