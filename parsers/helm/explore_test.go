package helm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v3/pkg/strvals"
)

func explore(t testing.TB, chart string, e Explore) *Rendered {
	t.Helper()
	return RenderText("../../testdata/explore/"+chart, Options{Explore: &e}, testEnv)
}

// combos lists the --set line of each explored variant, in order.
func combos(r *Rendered) []string {
	var out []string
	for _, v := range r.Variants {
		if v.Explore != nil {
			out = append(out, v.Explore.SetLine())
		}
	}
	return out
}

func TestExploreSwitches(t *testing.T) {
	for _, tc := range []struct {
		chart string
		want  []string // the explored variants, in order
		tried int
	}{
		// replicaCount alone renders a Deployment with 2 replicas; persistence alone
		// the claim; together both, which PVL002 needs.
		{"replicas", []string{"replicaCount=2", "persistence.enabled=true", "replicaCount=2,persistence.enabled=true"}, 3},
		// minReplicas=2 alone renders what the defaults do (the HPA is off): no world.
		{"autoscaling", []string{"persistence.enabled=false", "autoscaling.enabled=true", "persistence.enabled=false,autoscaling.enabled=true", "autoscaling.enabled=true,autoscaling.minReplicas=2"}, 6},
		{"strategy", []string{"strategy.type=RollingUpdate"}, 1},
		// The fail guard refuses the pair.
		{"guarded", []string{"replicaCount=2", "persistence.enabled=true"}, 3},
		// The schema's if/then refuses the pair.
		{"schema", []string{"replicaCount=2", "persistence.enabled=true"}, 3},
	} {
		t.Run(tc.chart, func(t *testing.T) {
			r := explore(t, tc.chart, Explore{MaxTime: time.Minute})
			if len(r.Diagnostics) > 0 {
				t.Fatalf("diagnostics: %v", r.Diagnostics)
			}
			if d := cmp.Diff(tc.want, combos(r)); d != "" {
				t.Errorf("explored variants (-want +got):\n%s", d)
			}
			if r.Exploration == nil || r.Exploration.Tried != tc.tried || r.Exploration.UnexploredCount != 0 {
				t.Errorf("exploration %+v, want %d tried and nothing left", r.Exploration, tc.tried)
			}
		})
	}
}

func TestExploreRefused(t *testing.T) {
	for _, chart := range []string{"guarded", "schema"} {
		r := explore(t, chart, Explore{MaxTime: time.Minute})
		if r.Exploration.Refused != 1 {
			t.Errorf("%s: %d combinations refused, want the pair: %+v", chart, r.Exploration.Refused, r.Exploration)
		}
	}
}

// TestExploreSetLine: rendering with the explored --set line and no exploring gives
// exactly the explored variant's output.
func TestExploreSetLine(t *testing.T) {
	for _, chart := range []string{"replicas", "autoscaling", "strategy"} {
		r := explore(t, chart, Explore{MaxTime: time.Minute})
		for _, v := range r.Variants {
			if v.Explore == nil {
				continue
			}
			plain := RenderText("../../testdata/explore/"+chart, Options{Set: []string{v.Explore.SetLine()}}, testEnv)
			if len(plain.Variants) != 1 {
				t.Fatalf("%s --set %s: %d variants", chart, v.Explore.SetLine(), len(plain.Variants))
			}
			if got, want := string(plain.Sources[plain.Variants[0].Stream]), string(r.Sources[v.Stream]); got != want {
				t.Errorf("%s --set %s renders differently from its explored variant:\n%s\nwant\n%s", chart, v.Explore.SetLine(), got, want)
			}
		}
	}
}

func TestExploreBudget(t *testing.T) {
	r := explore(t, "budget", Explore{MaxTime: time.Minute})
	e := r.Exploration
	// replicaCount is no switch: no template reads it.
	if e.Switches != 40 || e.Tried != DefaultExploreRenders || e.UnexploredCount != 40-DefaultExploreRenders || e.Budget != "renders" || !e.PairsLeft {
		t.Fatalf("exploration %+v", e)
	}
	if e.Unexplored[0] != "feature25.enabled=true" {
		t.Errorf("first unexplored switch %q", e.Unexplored[0])
	}
	r = explore(t, "budget", Explore{MaxRenders: 5, MaxTime: time.Minute})
	if r.Exploration.Tried != 5 || len(combos(r)) != 5 || r.Exploration.UnexploredCount != 35 {
		t.Errorf("--limit explore-renders=5: %+v, %v", r.Exploration, combos(r))
	}
}

func TestExploreSchemaBounds(t *testing.T) {
	schema := parseSchema([]byte(`{
		"properties": {
			"a": {"$ref": "#/$defs/a"},
			"strategy": {"properties": {"type": {"enum": ["Recreate"]}}},
			"loop": {"$ref": "#/$defs/loop"},
			"s": {"type": "string"}
		},
		"$defs": {"a": {"type": "integer", "maximum": 1}, "loop": {"$ref": "#/$defs/loop"}}
	}`))
	for _, tc := range []struct {
		path []string
		v    any
		want bool
	}{
		{[]string{"a"}, 2, false},
		{[]string{"a"}, 1, true},
		{[]string{"strategy", "type"}, "RollingUpdate", false},
		{[]string{"strategy", "type"}, "Recreate", true},
		{[]string{"loop"}, 2, true}, // a $ref loop says nothing
		{[]string{"s"}, true, false},
		{[]string{"unknown"}, true, true},
	} {
		if got := schema.allows(tc.path, tc.v); got != tc.want {
			t.Errorf("allows(%v, %v) = %v", tc.path, tc.v, got)
		}
	}
}

// writeChart writes a chart of the given files into a temporary directory.
func writeChart(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c")
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestExploreHostile: 10,000 switches, each gating a template, and a schema of deep
// $ref chains are explored within the budgets, not unbounded.
func TestExploreHostile(t *testing.T) {
	var values, tpl strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&values, "s%d:\n  enabled: false\n", i)
		fmt.Fprintf(&tpl, "{{- if .Values.s%d.enabled }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n{{- end }}\n", i, i)
	}
	defs := map[string]any{}
	const chain = 20000
	for i := range chain {
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
	}
	defs[fmt.Sprintf("d%d", chain)] = map[string]any{"type": "object"}
	schema, _ := json.Marshal(map[string]any{"$ref": "#/$defs/d0", "$defs": defs,
		"properties": map[string]any{"s1": map[string]any{"$ref": "#/$defs/d0"}}})
	dir := writeChart(t, map[string]string{
		"Chart.yaml":          "apiVersion: v2\nname: c\nversion: 0.1.0\n",
		"values.yaml":         values.String(),
		"values.schema.json":  string(schema),
		"templates/many.yaml": tpl.String(),
	})
	const budget = 300 * time.Millisecond
	start := time.Now()
	r := RenderText(dir, Options{Explore: &Explore{MaxRenders: 8, MaxTime: budget}}, testEnv)
	took := time.Since(start)
	e := r.Exploration
	if e == nil || e.Switches != 10000 || e.Tried > 8 || e.UnexploredCount < 10000-8 || len(e.Unexplored) > maxUnexplored {
		t.Fatalf("exploration %+v", e)
	}
	// The defaults' render of 10,000 templates is not exploring's; exploring adds at
	// most its time budget and one render past it.
	if testing.Short() && took > 20*time.Second {
		t.Errorf("exploring took %s", took)
	}
	t.Logf("%s: %d tried, %d unexplored (%s budget)", took, e.Tried, e.UnexploredCount, e.Budget)
}

// BenchmarkRender: renders per second of a chart's defaults (plain) and of its
// explored combinations (explore), each render reusing the chart's files read once.
func BenchmarkRender(b *testing.B) {
	for _, mode := range []string{"plain", "explore"} {
		b.Run(mode, func(b *testing.B) {
			renders := 0
			for b.Loop() {
				var o Options
				if mode == "explore" {
					o.Explore = &Explore{MaxTime: time.Minute}
				}
				r := RenderText("../../testdata/explore/replicas", o, testEnv)
				renders++
				if r.Exploration != nil {
					renders += r.Exploration.Tried
				}
			}
			b.ReportMetric(float64(renders)/b.Elapsed().Seconds(), "renders/s")
		})
	}
}

// FuzzFindSwitches: any values.yaml and values.schema.json give switches without
// panicking, each an assignment --set reads back, within maxSwitches.
func FuzzFindSwitches(f *testing.F) {
	f.Add([]byte("replicaCount: 1\npersistence:\n  enabled: false\n  accessModes: [ReadWriteMany]\nstrategy:\n  type: Recreate\n"),
		[]byte(`{"properties": {"replicaCount": {"$ref": "#/$defs/r"}}, "$defs": {"r": {"maximum": 3}}}`))
	f.Add([]byte("a.b:\n  enabled: true\nx: &x {enabled: false}\ny: *x\n"), []byte(`{"$ref": "#"}`))
	words := map[string]bool{"replicaCount": true, "persistence.enabled": true, "accessModes": true, "strategy": true,
		"b.enabled": true, "x.enabled": true, "y.enabled": true, "enabled": true}
	f.Fuzz(func(t *testing.T, values, schema []byte) {
		sw := findSwitches(values, "values.yaml", parseSchema(schema), words)
		if len(sw) > maxSwitches {
			t.Fatalf("%d switches", len(sw))
		}
		for _, s := range sw {
			if err := strvals.ParseInto(s.Set, map[string]any{}); err != nil {
				t.Errorf("--set %q does not parse: %v", s.Set, err)
			}
		}
		findKnobs("c", "values.yaml", values)
	})
}
