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
	"github.com/pvlint/pvlint/parsers/graph"
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
	var last []lint.Finding // the findings of the last analysis
	recreate := map[string]recreateNote{}
	for range fixRounds {
		an, err := e.analyze(c)
		if e.backstop != nil {
			e.backstop.Stop() // never stop the process while it writes files
		}
		if err != nil {
			return e.fail(err)
		}
		last = an.acc.reported()
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
					if fields := immutableEdits(f); len(fields) > 0 {
						key := f.Resource.Range.File + " " + f.Resource.Name
						n, seen := recreate[key]
						if !seen {
							n.finding = f
						}
						n.fields = append(n.fields, fields...)
						recreate[key] = n
					}
				}
			}
		}
		// Another round applies the fixes that overlapped, and those of findings the
		// written fixes revealed (PVL005 once a Deployment is Recreate).
		if dryRun || !wrote {
			break
		}
	}
	// What no fix exists for: the findings of the last analysis without one (after a
	// run that wrote, those that are left).
	for _, f := range last {
		if f.Fix == nil {
			e.explainNotApplied(f, "no automatic fix; see `pvlint explain "+f.Rule.ID+"`", explained)
		}
	}
	verb := "fixed"
	if dryRun {
		verb = "would fix"
	}
	fmt.Fprintf(e.Stderr, "pvlint: %s %d finding%s in %d file%s\n", verb, len(fixed), plural(len(fixed)), len(files), plural(len(files)))
	for _, key := range sortedKeys(recreate) {
		e.recreateHint(recreate[key])
	}
	if code == ExitFixNone && len(files) > 0 {
		code = ExitFixChanged
	}
	return code
}

// immutableClassFields are the StorageClass fields the API server refuses to change
// on an existing class (Terraform's provider replaces the resource instead).
var immutableClassFields = []string{"provisioner", "parameters", "reclaimPolicy", "volumeBindingMode"}

// immutableEdits names the immutable StorageClass fields a finding's fix changes.
func immutableEdits(f lint.Finding) []string {
	r := f.Resource
	if r == nil || r.Kind != "StorageClass" || f.Fix == nil || r.Object == nil {
		return nil
	}
	var out []string
	for _, field := range immutableClassFields {
		n := r.Object.Get(field)
		for _, ed := range f.Fix.Edits {
			if ed.Key == field && (ed.Node == r.Object || ed.Parent == r.Object) || n != nil && ed.Node == n {
				out = append(out, field)
				break
			}
		}
	}
	return out
}

// recreateNote is a StorageClass whose fix changes immutable fields.
type recreateNote struct {
	finding lint.Finding
	fields  []string
}

// recreateHint says that a fixed StorageClass takes effect only when the class is
// recreated: the API server refuses the change on an existing class.
func (e *Env) recreateHint(n recreateNote) {
	r := n.finding.Resource
	fields := slices.Compact(slices.Sorted(slices.Values(n.fields)))
	how := "delete the class and create it again (kubectl replace --force -f FILE), or the apply fails with \"field is immutable\""
	if r.Origin.Format == graph.FormatTerraform {
		how = "terraform apply replaces the resource (the plan shows it destroyed and created again)"
	}
	fmt.Fprintf(e.Stderr, "pvlint: %s: StorageClass %s must be recreated for the fix to take effect: %s cannot be changed on an existing class; %s. Volumes it provisioned keep their settings.\n",
		r.Range, r.Name, strings.Join(fields, ", "), how)
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
applied over up to 4 rounds, re-linting in between. The findings left without a fix
are listed, and a StorageClass whose immutable fields (volumeBindingMode...) a fix
changes is named: it takes effect only when the class is recreated.

  --dry-run, --diff  print the changes as a unified diff and write nothing
  --unsafe-fixes     also apply fixes that need a migration (PVL005)

Every flag of `+"`pvlint --help`"+` selects and configures the rules the same way.

Exit codes: 0 nothing to change, 1 files changed (with --dry-run: would change),
2 usage, configuration or internal error, or a file that could not be written.
`)
}
