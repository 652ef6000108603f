// Command table times the pvlint binary as a whole process on generated corpora and
// prints a Markdown table: objects, files and megabytes read, wall, user and system
// time, peak resident memory and objects per second of wall time. `make bench` runs
// it after the Go benchmarks; the README's performance table is its output.
//
//	go run ./cmd/internal/bench/table -bin bin/pvlint -sizes 1000,10000,100000 -terraform 10000
//
// Each corpus is written into a temporary directory (removed afterwards) and linted
// from inside it with every built-in rule and SARIF output, `pvlint -f sarif -o
// /dev/null --fail-on never .`, under /usr/bin/time -v, -runs times. Each row shows
// the fastest and the median run's wall time, the median run's CPU time and
// objects per second, the lowest and median peak memory, and the load average when
// the corpus's runs began and ended: the machine may be shared, and the figures only
// mean something beside the load they were taken under.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

func main() {
	bin := flag.String("bin", "bin/pvlint", "the pvlint binary to time")
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated YAML corpus sizes (objects)")
	tf := flag.String("terraform", "10000", "comma-separated Terraform corpus sizes (objects); empty for none")
	runs := flag.Int("runs", 3, "runs per corpus; rows show the minimum and the median")
	timeCmd := flag.String("time", "/usr/bin/time", "GNU time, which -v makes report peak memory")
	flag.Parse()
	if err := run(*bin, *timeCmd, *sizes, *tf, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
}

// row is one corpus's measurement.
type row struct {
	input string
	st    corpus.Stats
	load  string   // the 1-minute load average when the runs began
	fast  measure  // the run with the lowest wall time
	m     measure  // the run with the median wall time
	rss   [2]int64 // the lowest and the median peak memory of the runs, KiB
}

func run(bin, timeCmd, sizes, tf string, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "pvlint-table-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var rows []row
	for _, spec := range []struct {
		list      string
		terraform bool
	}{{sizes, false}, {tf, true}} {
		for _, s := range strings.Split(spec.list, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				return fmt.Errorf("bad corpus size %q", s)
			}
			input := "YAML"
			if spec.terraform {
				input = "Terraform"
			}
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", strings.ToLower(input), n))
			st, err := corpus.Write(dir, corpus.Options{Objects: n, Seed: 1, Terraform: spec.terraform})
			if err != nil {
				return err
			}
			var ms []measure
			load := loadAverage()
			for i := 0; i < runs; i++ {
				m, err := timeRun(timeCmd, bin, dir)
				if err != nil {
					return err
				}
				ms = append(ms, m)
			}
			rows = append(rows, summarise(input, st, load+"–"+loadAverage(), ms))
			os.RemoveAll(dir)
		}
	}
	print(rows, runs)
	return nil
}

// summarise makes the row of one corpus's runs (at least one).
func summarise(input string, st corpus.Stats, load string, ms []measure) row {
	rss := make([]int64, len(ms))
	for i, m := range ms {
		rss[i] = m.rssKiB
	}
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	sort.Slice(ms, func(i, j int) bool { return ms[i].wall < ms[j].wall })
	return row{input: input, st: st, load: load, fast: ms[0], m: ms[len(ms)/2], rss: [2]int64{rss[0], rss[len(rss)/2]}}
}

// loadAverage is the 1-minute load average, or "?" where /proc/loadavg is missing.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// measure is what GNU time reports about one run.
type measure struct {
	wall, user, sys time.Duration
	rssKiB          int64
}

// timeRun lints dir with bin under GNU time.
func timeRun(timeCmd, bin, dir string) (measure, error) {
	cmd := exec.Command(timeCmd, "-v", bin, "-f", "sarif", "-o", os.DevNull, "--fail-on", "never", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return measure{}, fmt.Errorf("%s in %s: %v\n%s", strings.Join(cmd.Args, " "), dir, err, stderr.String())
	}
	return parseTime(stderr.String())
}

// parseTime reads the fields of GNU time -v's report that the table shows.
func parseTime(out string) (measure, error) {
	var m measure
	found := 0
	for _, line := range strings.Split(out, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok {
			continue
		}
		var err error
		switch key {
		case "User time (seconds)":
			m.user, err = seconds(val)
		case "System time (seconds)":
			m.sys, err = seconds(val)
		case "Elapsed (wall clock) time (h:mm:ss or m:ss)":
			m.wall, err = clock(val)
		case "Maximum resident set size (kbytes)":
			m.rssKiB, err = strconv.ParseInt(val, 10, 64)
		default:
			continue
		}
		if err != nil {
			return m, fmt.Errorf("time output %q: %v", line, err)
		}
		found++
	}
	if found != 4 {
		return m, fmt.Errorf("time -v output lacks wall, user, system time or peak memory:\n%s", out)
	}
	return m, nil
}

func seconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	return time.Duration(f * float64(time.Second)), err
}

// clock reads h:mm:ss or m:ss.ss.
func clock(s string) (time.Duration, error) {
	var total float64
	for _, part := range strings.Split(s, ":") {
		f, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return 0, err
		}
		total = total*60 + f
	}
	return time.Duration(total * float64(time.Second)), nil
}

func print(rows []row, runs int) {
	fmt.Printf("pvlint -f sarif, every built-in rule; %d CPUs; %d runs per corpus (min and median)\n\n", runtime.NumCPU(), runs)
	fmt.Println("| input | objects | files | MB | wall s min | wall s median | user s | sys s | peak RSS MiB min | peak RSS MiB median | objects/s | load |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %d | %d | %.0f | %s |\n",
			r.input, r.st.Objects, r.st.Files, float64(r.st.Bytes)/1e6,
			r.fast.wall.Seconds(), r.m.wall.Seconds(), r.m.user.Seconds(), r.m.sys.Seconds(),
			r.rss[0]/1024, r.rss[1]/1024, float64(r.st.Objects)/r.m.wall.Seconds(), r.load)
	}
}
