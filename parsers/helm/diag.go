package helm

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Helm names template positions as "chart/templates/x.yaml:LINE" or ":LINE:COL",
// after "template: " (Go's text/template) or inside "parse error at (...)" and
// "execution error at (...)" (Helm's cleaned-up forms). The last one in a message is
// the innermost: an include's failure names _helpers.tpl after the caller.
var (
	tplPosRe   = regexp.MustCompile(`(?:template: |error at \()([^\s():"]+):(\d+)(?::(\d+))?`)
	yamlLineRe = regexp.MustCompile(`yaml: line (\d+): (.*)$`)
	loadFileRe = regexp.MustCompile(`^cannot load ([A-Za-z.]+): (.*)$`)
	// metadataRe finds the Chart.yaml field a validation error is about.
	metadataRe = regexp.MustCompile(`chart\.metadata\.([A-Za-z]+)`)
)

// chartDiag is a diagnostic at a line of one of the chart's own files.
func chartDiag(cf *chartFiles, name string, line, col int, msg, variant string) graph.Diagnostic {
	if line < 1 {
		line, col = 1, 1
	}
	return graph.Diagnostic{
		Range:   graph.Range{File: cf.display(name), Start: graph.NewPos(line, col, 0)},
		Message: msg,
		Variant: variant,
	}
}

// loadDiag reports a chart Helm's loader refused, at the file (and line) it names.
func (r *renderer) loadDiag(err error, variant string) graph.Diagnostic {
	cf := r.root
	var le *loadError
	if errors.As(err, &le) {
		cf, err = le.cf, le.err
	}
	msg := err.Error()
	if m := loadFileRe.FindStringSubmatch(msg); m != nil {
		line, inner := yamlErrorLine(errors.New(m[2]))
		return chartDiag(cf, m[1], line, 1, "invalid "+m[1]+": "+inner, variant)
	}
	if strings.Contains(msg, "Chart.yaml file is missing") {
		return graph.Diagnostic{Range: graph.Range{File: cf.base, Start: graph.Pos{Line: 1, Column: 1}}, Message: "chart has no Chart.yaml", Variant: variant}
	}
	line, col := 1, 1
	if m := metadataRe.FindStringSubmatch(msg); m != nil {
		line, col = keyLine(cf.file("Chart.yaml"), strings.ToLower(m[1][:1])+m[1][1:])
	}
	return chartDiag(cf, "Chart.yaml", line, col, "invalid chart: "+msg, variant)
}

// renderDiag reports a failed render at the template position Helm's error names.
// A chart's own `required` or `fail` stopping the render is said as what it is: the
// value to set, for the variant's values.
func (r *renderer) renderDiag(err error, c *chart.Chart, ix map[*chart.File]*chartFiles, variant string) graph.Diagnostic {
	msg := err.Error()
	check := chartCheck(err)
	d := chartDiag(r.root, "Chart.yaml", 1, 1, "chart failed to render: "+msg, variant)
	if check != "" {
		d.Message = variantLabel(c.Name(), variant) + ": the chart's own check failed: " + quoteCode(check)
	}
	ms := tplPosRe.FindAllStringSubmatch(msg, -1)
	if len(ms) == 0 {
		return d
	}
	m := ms[len(ms)-1]
	var f *tplFile
	for _, t := range r.templates(c, ix) {
		if t.Name == m[1] {
			src := r.res.Sources[t.Display]
			f = &tplFile{display: t.Display, src: src, lines: graph.NewLines(src)}
		}
	}
	if f == nil {
		return d
	}
	line, _ := strconv.Atoi(m[2])
	col := 1
	if m[3] != "" {
		col, _ = strconv.Atoi(m[3])
	}
	d.Range = graph.Range{File: f.display, Start: f.pos(line, col)}
	if check != "" && checkCall(f, line, col) == "" {
		// Helm names the include that reached the check: find the check itself, by
		// its message written as a literal in one of the chart tree's templates.
		if g, gl, gc, ok := r.findCheck(c, ix, check); ok {
			f, line, col = g, gl, gc
			d.Range = graph.Range{File: f.display, Start: f.pos(line, col)}
		}
	}
	if check != "" {
		switch checkCall(f, line, col) {
		case "required":
			d.Message = variantLabel(c.Name(), variant) + ": required value not set: " + quoteCode(check)
		case "fail":
			d.Message = variantLabel(c.Name(), variant) + ": the chart refuses these values: " + quoteCode(check)
		}
	}
	return d
}

// findCheck finds the one `required` or `fail` of the chart tree whose message is
// the literal msg: its template and position.
func (r *renderer) findCheck(c *chart.Chart, ix map[*chart.File]*chartFiles, msg string) (*tplFile, int, int, bool) {
	lit := []byte(strconv.Quote(msg))
	var found *tplFile
	var line, col int
	for _, t := range r.templates(c, ix) {
		src := r.res.Sources[t.Display]
		i := bytes.Index(src, lit)
		if i < 0 {
			continue
		}
		if found != nil || bytes.Contains(src[i+len(lit):], lit) {
			return nil, 0, 0, false // written more than once: not guessed
		}
		f := &tplFile{display: t.Display, src: src, lines: graph.NewLines(src)}
		ln := 1 + bytes.Count(src[:i], []byte("\n"))
		start := f.lines[ln-1]
		call := max(bytes.LastIndex(src[start:i], []byte("required")), bytes.LastIndex(src[start:i], []byte("fail")))
		if call < 0 {
			continue
		}
		found, line, col = f, ln, 1+utf8.RuneCount(src[start:start+call])
	}
	return found, line, col, found != nil
}

// checkRe is the form Helm gives the error of a template's `required` or `fail`.
var checkRe = regexp.MustCompile(`(?s)^execution error at \([^)]*\): (.*)$`)

// chartCheck is the message of a chart's own `required` or `fail` that stopped its
// render; "" for any other failure.
func chartCheck(err error) string {
	if m := checkRe.FindStringSubmatch(err.Error()); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// checkCall says which function, `required` or `fail`, the action at a template
// position calls ("" when neither is written there).
func checkCall(f *tplFile, line, col int) string {
	if line < 1 || line > len(f.lines) {
		return ""
	}
	rg := f.lines.Range("", f.src, line)
	start, end := int(rg.Start.Byte)+max(col-1, 0), int(rg.End.Byte)
	if start > end || end > len(f.src) {
		return ""
	}
	text := string(f.src[start:end])
	req, fail := strings.Index(text, "required"), strings.Index(text, "fail")
	switch {
	case req >= 0 && (fail < 0 || req < fail):
		return "required"
	case fail >= 0:
		return "fail"
	}
	return ""
}

// variantLabel names a chart's variant for a message: "chart app (values.yaml)",
// "chart app (values ci/prod-values.yaml)", "HelmRelease media/plex (chart plex)".
func variantLabel(chartName, variant string) string {
	switch {
	case variant == "" || variant == chartName:
		return "chart " + chartName + " (values.yaml)"
	case strings.HasPrefix(variant, chartName+" (") && strings.HasSuffix(variant, ")"):
		return "chart " + chartName + " (values " + strings.TrimPrefix(variant, chartName+" (")
	}
	return variant + " (chart " + chartName + ")"
}

// quoteCode puts a message between backquotes, as text the user reads verbatim.
func quoteCode(s string) string {
	first, _, more := strings.Cut(s, "\n")
	if more {
		first += " …"
	}
	return "`" + strings.ReplaceAll(first, "`", "'") + "`"
}

// yamlErrorLine extracts the line of a YAML error (1 when it names none) and the
// message without the converter's prefixes.
func yamlErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, m[2]
	}
	return 1, strings.TrimPrefix(msg, "error converting YAML to JSON: ")
}

// keyLine returns the position of a top-level key of a YAML file (1, 1 if absent).
func keyLine(data []byte, key string) (int, int) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 1, 1
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return 1, 1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line, m.Content[i].Column
		}
	}
	return 1, 1
}

// dependencyLine returns the position of the name of the i-th dependency in a
// Chart.yaml or requirements.yaml.
func dependencyLine(data []byte, i int) (int, int) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return 1, 1
	}
	m := doc.Content[0]
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value != "dependencies" || m.Content[k+1].Kind != yaml.SequenceNode {
			continue
		}
		deps := m.Content[k+1].Content
		if i >= len(deps) {
			break
		}
		d := deps[i]
		for j := 0; j+1 < len(d.Content); j += 2 {
			if d.Content[j].Value == "name" {
				return d.Content[j+1].Line, d.Content[j+1].Column
			}
		}
		return d.Line, d.Column
	}
	return 1, 1
}

// checkDependencies reports dependencies declared by the chart but not vendored in
// its charts/ directory. Helm would refuse to render; pvlint renders the rest, since
// it never downloads charts.
func (r *renderer) checkDependencies(c *chart.Chart) {
	have := map[string]bool{}
	for _, d := range c.Dependencies() {
		have[d.Name()] = true
	}
	file := "Chart.yaml"
	if c.Metadata.APIVersion == chart.APIVersionV1 && r.root.file("requirements.yaml") != nil {
		file = "requirements.yaml"
	}
	var missing []string
	first := -1
	for i, d := range c.Metadata.Dependencies {
		if d == nil || have[d.Name] {
			continue
		}
		if first < 0 {
			first = i
		}
		if !slices.Contains(missing, strconv.Quote(d.Name)) { // one name, several aliases
			missing = append(missing, strconv.Quote(d.Name))
		}
		r.missing = append(r.missing, d)
	}
	// A file:// dependency pvlint declined to read says why, at its repository line.
	var refused []graph.Diagnostic
	told := map[string]bool{}
	for _, d := range r.missing {
		if rd, ok := r.root.refused[d.Name]; ok && !told[d.Name] {
			told[d.Name] = true
			refused = append(refused, rd)
		}
	}
	note := true // pvlint declines to download: the chart itself is not wrong
	switch {
	case len(missing) == 1 && len(refused) == 1:
		r.res.Diagnostics = append(r.res.Diagnostics, refused[0])
		note = refused[0].Note
	case len(missing) == 1:
		line, col := dependencyLine(r.root.file(file), first)
		r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, file, line, col,
			fmt.Sprintf("dependency %s is not in charts/ (pvlint never downloads charts; run `helm dependency build`); its templates are not linted", missing[0]), ""))
	case len(missing) > 1:
		r.res.Diagnostics = append(r.res.Diagnostics, refused...)
		// One finding for all of them, at the dependencies list.
		line, col := keyLine(r.root.file(file), "dependencies")
		r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, file, line, col,
			fmt.Sprintf("dependencies %s are not in charts/ (pvlint never downloads charts; run `helm dependency build`); their templates are not linted", strings.Join(missing, ", ")), ""))
	default:
		return
	}
	// A note unless said otherwise; it becomes an error when the chart does not
	// render without them (variant).
	r.res.Diagnostics[len(r.res.Diagnostics)-1].Note = note
	r.depsDiag = len(r.res.Diagnostics)
}

// applySets applies --set then --set-string assignments to vals.
func (o Options) applySets(vals map[string]any) error {
	for _, s := range o.Set {
		if err := strvals.ParseInto(s, vals); err != nil {
			return fmt.Errorf("invalid --set %q: %w", s, err)
		}
	}
	for _, s := range o.SetString {
		if err := strvals.ParseIntoString(s, vals); err != nil {
			return fmt.Errorf("invalid --set-string %q: %w", s, err)
		}
	}
	return nil
}

// mergeValues merges src into dst: maps merge key by key, anything else in src
// replaces dst's value (Helm's rule for several --values files).
func mergeValues(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeValues(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}
