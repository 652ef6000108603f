// Command gen writes a deterministic synthetic corpus of Kubernetes manifests (and,
// with -terraform, the same apps as Terraform) for pvlint's benchmarks. It mirrors
// what real repositories hold: Deployments with and without claims, StatefulSets with
// claim templates, claims of every access mode, StorageClasses of each binding mode,
// CronJobs, autoscalers, Services and bulky ConfigMaps across several namespaces.
//
//	go run ./testdata/gen -objects 10000 -out /tmp/corpus-10k
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	objects := flag.Int("objects", 10000, "approximate number of objects to write")
	seed := flag.Uint64("seed", 1, "random seed (same seed, same corpus)")
	out := flag.String("out", "", "output directory (created; must be empty or absent)")
	tf := flag.Bool("terraform", false, "write Terraform (.tf) instead of YAML")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	g := &gen{rnd: rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15)), dir: *out, tf: *tf}
	n, files, err := g.run(*objects)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d objects in %d files to %s\n", n, files, *out)
}

type gen struct {
	rnd     *rand.Rand
	dir     string
	tf      bool
	objects int
	files   int
}

var (
	classes = []struct{ name, provisioner, binding string }{
		{"gp3", "ebs.csi.aws.com", "WaitForFirstConsumer"},
		{"gp2-legacy", "kubernetes.io/aws-ebs", ""},
		{"standard-rwo", "pd.csi.storage.gke.io", "Immediate"},
		{"efs", "efs.csi.aws.com", ""},
		{"local-path", "rancher.io/local-path", "WaitForFirstConsumer"},
		{"longhorn", "driver.longhorn.io", "Immediate"},
	}
	modes = []string{"ReadWriteOnce", "ReadWriteOnce", "ReadWriteOnce", "ReadWriteMany", "ReadWriteOncePod", "ReadOnlyMany"}
)

func (g *gen) run(target int) (int, int, error) {
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		return 0, 0, err
	}
	var b strings.Builder
	for _, c := range classes {
		g.storageClass(&b, c.name, c.provisioner, c.binding)
	}
	if err := g.write("platform/storageclasses", &b); err != nil {
		return 0, 0, err
	}
	for app := 0; g.objects < target; app++ {
		ns := fmt.Sprintf("team-%02d", app%24)
		name := fmt.Sprintf("app-%05d", app)
		b.Reset()
		switch g.rnd.IntN(10) {
		case 0, 1:
			g.statefulSet(&b, ns, name)
		case 2:
			g.cronJob(&b, ns, name)
		default:
			g.deployment(&b, ns, name)
		}
		g.service(&b, ns, name)
		if g.rnd.IntN(2) == 0 {
			g.configMap(&b, ns, name)
		}
		if err := g.write(filepath.Join(ns, name), &b); err != nil {
			return 0, 0, err
		}
	}
	return g.objects, g.files, nil
}

func (g *gen) write(base string, b *strings.Builder) error {
	ext := ".yaml"
	if g.tf {
		ext = ".tf"
	}
	path := filepath.Join(g.dir, base+ext)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	g.files++
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func (g *gen) pick(xs []string) string { return xs[g.rnd.IntN(len(xs))] }

func (g *gen) className() string { return classes[g.rnd.IntN(len(classes))].name }
