// Package corpus writes pvlint's synthetic benchmark corpus: a deterministic,
// seeded tree of Kubernetes manifests (or the same applications as Terraform) shaped
// like a real platform repository, at any size.
//
// The shape follows what the performance goal was measured on (10,003 objects in
// 2,376 files, 18 MB): about four objects and 7.5 kB per file. Each application is
// one file in its team's namespace directory holding a bulky ConfigMap (most of the
// bytes, as in real repositories), sometimes a ServiceAccount, the claim it mounts,
// its workload (a Deployment with or without a claim, with or without a strategy and
// replicas; a StatefulSet with claim templates; a CronJob), a Service and sometimes
// an HPA. Platform files hold the Namespaces, the StorageClasses (every binding mode,
// an in-tree provisioner, two classes marked default), pre-provisioned
// PersistentVolumes and (YAML only) PrometheusRules, so that every built-in rule has
// work and findings. Claims use every access mode; a few are referenced but defined
// outside the corpus.
//
// Generation is deterministic: the same Options write byte-identical files, which is
// what lets a committed digest of the findings on a generated corpus catch changes.
//
// `go run ./cmd/pvlint-corpus` writes a corpus from the command line; the benchmarks
// in cmd/internal/bench generate theirs in a temporary directory. It imports only the
// standard library.
package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Options say what to write.
type Options struct {
	// Objects is the number of objects to write, approximately (applications are
	// written whole; the total overshoots by at most one application).
	Objects int
	// Seed selects the corpus: the same seed writes the same files.
	Seed uint64
	// Terraform writes the applications as Terraform (kubernetes provider resources in
	// .tf files, one module per namespace directory) instead of YAML.
	Terraform bool
	// Workloads writes the workload-heavy shape (YAML only): few ConfigMaps, most
	// applications a Deployment or StatefulSet with its claims, and a third of the
	// application files rendered output of `helm template`, every document headed by a
	// "# Source:" comment naming its template. Most of the bytes are then workload
	// objects, and so are most YAML nodes.
	Workloads bool
}

// Stats describe a written corpus.
type Stats struct {
	Objects int
	Files   int
	Bytes   int64
}

// Namespaces is how many team namespaces the applications are spread over.
const Namespaces = 24

// Write generates the corpus into dir, which is created if needed and should be empty:
// existing files of the same names are overwritten, others are left alone.
func Write(dir string, opts Options) (Stats, error) {
	if opts.Objects <= 0 {
		return Stats{}, fmt.Errorf("corpus: objects must be positive, got %d", opts.Objects)
	}
	g := &gen{
		rnd: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)),
		dir: dir,
		tf:  opts.Terraform,
		wl:  opts.Workloads && !opts.Terraform,
	}
	if err := g.run(opts.Objects); err != nil {
		return Stats{}, fmt.Errorf("corpus: %w", err)
	}
	return g.stats, nil
}

// gen carries one generation's state.
type gen struct {
	rnd   *rand.Rand
	dir   string
	tf    bool
	wl    bool            // the workload-heavy shape
	b     strings.Builder // the file being written
	stats Stats
}

// class is one StorageClass of the platform.
type class struct {
	name, provisioner, binding, reclaim string
	isDefault                           bool
}

var (
	// classes cover every binding mode (WaitForFirstConsumer, Immediate, unset),
	// block, file and node-local backends, an in-tree provisioner and two defaults.
	classes = []class{
		{"gp3", "ebs.csi.aws.com", "WaitForFirstConsumer", "Delete", true},
		{"gp2-legacy", "kubernetes.io/aws-ebs", "", "Delete", false},
		{"standard-rwo", "pd.csi.storage.gke.io", "Immediate", "Retain", false},
		{"efs", "efs.csi.aws.com", "", "Retain", false},
		{"local-path", "rancher.io/local-path", "WaitForFirstConsumer", "Delete", false},
		{"longhorn", "driver.longhorn.io", "Immediate", "Delete", true},
		{"azurefile", "file.csi.azure.com", "Immediate", "Retain", false},
		{"rbd", "rbd.csi.ceph.com", "WaitForFirstConsumer", "Retain", false},
	}
	// modes weights ReadWriteOnce as real repositories do, with every other mode.
	modes = []string{"ReadWriteOnce", "ReadWriteOnce", "ReadWriteOnce", "ReadWriteMany", "ReadWriteOncePod", "ReadOnlyMany"}
)

func (g *gen) run(target int) error {
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		return err
	}
	if err := g.platform(target); err != nil {
		return err
	}
	for app := 0; g.stats.Objects < target; app++ {
		ns := fmt.Sprintf("team-%02d", app%Namespaces)
		name := fmt.Sprintf("app-%05d", app)
		if g.wl {
			g.workloadApp(ns, name)
			if app%3 == 0 {
				g.helmSources(name)
			}
		} else {
			g.app(ns, name)
		}
		if err := g.flush(filepath.Join(ns, name)); err != nil {
			return err
		}
	}
	return nil
}

// platform writes the cluster-wide files: namespaces, classes, volumes, alerts.
func (g *gen) platform(target int) error {
	for i := range Namespaces {
		g.namespace(fmt.Sprintf("team-%02d", i))
	}
	if err := g.flush("platform/namespaces"); err != nil {
		return err
	}
	for _, c := range classes {
		g.storageClass(c)
	}
	if err := g.flush("platform/storageclasses"); err != nil {
		return err
	}
	// One pre-provisioned volume per 500 objects, bound to a claim of team-00.
	for i := 0; i < max(1, target/500); i++ {
		g.persistentVolume(i)
	}
	if err := g.flush("platform/volumes"); err != nil {
		return err
	}
	if g.tf {
		return nil // PrometheusRules have no typed Terraform resource
	}
	for i := 0; i < max(1, target/2000); i++ {
		g.prometheusRule(i)
	}
	return g.flush("platform/alerts")
}

// app appends one application's objects to the current file.
func (g *gen) app(ns, name string) {
	if g.rnd.IntN(2) == 0 {
		g.serviceAccount(ns, name)
	}
	if g.rnd.IntN(4) > 0 {
		g.configMap(ns, name)
	}
	switch g.rnd.IntN(10) {
	case 0, 1:
		g.statefulSet(ns, name)
	case 2:
		g.cronJob(ns, name)
	default:
		g.deployment(ns, name)
	}
	g.service(ns, name)
}

// workloadApp appends one application of the workload-heavy shape: a ConfigMap in
// ten applications, a workload (four in ten a StatefulSet, one a CronJob, the rest
// Deployments, which mount a claim two times in three) and its Service.
func (g *gen) workloadApp(ns, name string) {
	if g.rnd.IntN(4) == 0 {
		g.serviceAccount(ns, name)
	}
	if g.rnd.IntN(10) == 0 {
		g.configMap(ns, name)
	}
	switch g.rnd.IntN(10) {
	case 0, 1, 2, 3:
		g.statefulSet(ns, name)
	case 4:
		g.cronJob(ns, name)
	default:
		g.deployment(ns, name)
	}
	g.service(ns, name)
}

// helmSources makes the current file look like `helm template` output of a chart
// named after the application: a "# Source: <chart>/templates/<kind>.yaml" comment
// first in every document.
func (g *gen) helmSources(chart string) {
	var b strings.Builder
	for i, doc := range strings.Split(g.b.String(), "---\n") {
		if i == 0 {
			b.WriteString(doc)
			continue
		}
		kind := "resource"
		if _, rest, ok := strings.Cut(doc, "\nkind: "); ok {
			kind, _, _ = strings.Cut(rest, "\n")
			kind = strings.ToLower(kind)
		}
		fmt.Fprintf(&b, "---\n# Source: %s/templates/%s.yaml\n%s", chart, kind, doc)
	}
	g.b.Reset()
	g.b.WriteString(b.String())
}

// flush writes the current file as base plus the format's extension.
func (g *gen) flush(base string) error {
	ext := ".yaml"
	if g.tf {
		ext = ".tf"
	}
	path := filepath.Join(g.dir, filepath.FromSlash(base)+ext)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(g.b.String()), 0o644); err != nil {
		return err
	}
	g.stats.Files++
	g.stats.Bytes += int64(g.b.Len())
	g.b.Reset()
	return nil
}

// f appends formatted text to the current file.
func (g *gen) f(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

func (g *gen) pick(xs []string) string { return xs[g.rnd.IntN(len(xs))] }

// className picks a class; one claim in eight sets none and gets the default.
func (g *gen) className() string {
	if g.rnd.IntN(8) == 0 {
		return ""
	}
	return classes[g.rnd.IntN(len(classes))].name
}

// settings returns the body of a bulky configuration file: 50 to 200 lines.
func (g *gen) settings(name, indent string) string {
	var b strings.Builder
	n := 50 + g.rnd.IntN(150)
	for i := range n {
		fmt.Fprintf(&b, "%ssetting_%03d = %d  # tuned for %s\n", indent, i, g.rnd.IntN(100000), name)
	}
	return b.String()
}
