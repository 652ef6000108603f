// Command isolation measures what running untrusted evaluations in worker processes
// costs: it times two pvlint binaries side by side (a baseline, such as a build of
// main, and a candidate) on a 10k-object YAML corpus, which has nothing to evaluate,
// and on a repository of 50 small Helm charts, which starts workers.
//
//	go run ./cmd/internal/bench/isolation -base /tmp/pvlint-main -new bin/pvlint -runs 7
//
// Runs are paired and their order alternates (base then new, new then base), so that
// both binaries see the same load; it prints the median wall and CPU time (user +
// system, the workers' included: the kernel adds a reaped child's usage to its
// parent's) of each binary, the ratio of the medians, the median of the per-pair
// ratios, and the load average before and after. Each run lints with every built-in
// rule and SARIF output, as docs/performance.md's table does.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

func main() {
	base := flag.String("base", "", "the baseline pvlint binary")
	cand := flag.String("new", "bin/pvlint", "the candidate pvlint binary")
	runs := flag.Int("runs", 7, "paired runs per corpus")
	objects := flag.Int("objects", 10000, "objects of the YAML corpus")
	charts := flag.Int("charts", 50, "charts of the Helm repository")
	flag.StringVar(&newArgs, "new-args", "", "extra arguments for the candidate, space-separated (such as --limit run-memory=2GiB)")
	flag.Parse()
	if *base == "" {
		fmt.Fprintln(os.Stderr, "isolation: -base is required")
		os.Exit(2)
	}
	// Each run's working directory is its corpus: a relative binary (the Makefile's
	// bin/pvlint) is resolved here, against the directory the command was run in.
	for _, bin := range []*string{base, cand} {
		if abs, err := filepath.Abs(*bin); err == nil && strings.ContainsRune(*bin, filepath.Separator) {
			*bin = abs
		}
	}
	if err := run(*base, *cand, *runs, *objects, *charts); err != nil {
		fmt.Fprintln(os.Stderr, "isolation:", err)
		os.Exit(1)
	}
}

// newArgs are extra arguments given to the candidate only.
var newArgs string

func run(base, cand string, runs, objects, charts int) error {
	tmp, err := os.MkdirTemp("", "pvlint-isolation-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	yamlDir := filepath.Join(tmp, "yaml")
	if _, err := corpus.Write(yamlDir, corpus.Options{Objects: objects, Seed: 1}); err != nil {
		return err
	}
	chartDir := filepath.Join(tmp, "charts")
	if err := WriteCharts(chartDir, charts); err != nil {
		return err
	}
	fmt.Printf("%-22s %5s %12s %12s %12s %12s %8s %8s %8s  %s\n", "corpus", "runs", "wall base", "wall new", "cpu base", "cpu new", "wall ×", "cpu ×", "pair ×", "load before → after")
	for _, c := range []struct{ name, dir string }{
		{fmt.Sprintf("YAML %d objects", objects), yamlDir},
		{fmt.Sprintf("%d small charts", charts), chartDir},
	} {
		before := loadAverage()
		var bw, nw, bc, nc, pair []float64
		for i := range runs {
			order := []string{base, cand}
			if i%2 == 1 {
				order = []string{cand, base}
			}
			got := map[string][2]float64{}
			for _, bin := range order {
				var extra []string
				if bin == cand {
					extra = strings.Fields(newArgs)
				}
				w, cpu, err := timeRun(bin, c.dir, extra...)
				if err != nil {
					return err
				}
				got[bin] = [2]float64{w, cpu}
			}
			bw, bc = append(bw, got[base][0]), append(bc, got[base][1])
			nw, nc = append(nw, got[cand][0]), append(nc, got[cand][1])
			pair = append(pair, got[cand][1]/got[base][1])
		}
		fmt.Printf("%-22s %5d %11.3fs %11.3fs %11.3fs %11.3fs %8.3f %8.3f %8.3f  %s → %s\n", c.name, runs,
			median(bw), median(nw), median(bc), median(nc), median(nw)/median(bw), median(nc)/median(bc), median(pair), before, loadAverage())
	}
	return nil
}

// timeRun lints dir with bin and returns its wall and CPU seconds.
func timeRun(bin, dir string, extra ...string) (wall, cpu float64, err error) {
	args := append([]string{"-f", "sarif", "-o", os.DevNull, "--fail-on", "never"}, extra...)
	cmd := exec.Command(bin, append(args, ".")...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall = time.Since(start).Seconds()
	if err != nil {
		return 0, 0, fmt.Errorf("%s in %s: %v\n%s", bin, dir, err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	return wall, cpu, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}
