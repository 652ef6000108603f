// Command table times the pvlint binary as a whole process on generated corpora, side
// by side with the parse floor (./cmd/internal/bench/floor: the same files parsed by
// go.yaml.in/yaml/v3 or by HCL's hclparse on two threads, every tree kept), and prints
// one Markdown table: for each corpus the medians of wall time, CPU time (user plus
// system) and peak resident memory of pvlint and of the floor, and the medians of the
// paired ratios pvlint/floor. `make bench` runs it after the Go benchmarks; the README's
// performance table is its output.
//
//	go run ./cmd/internal/bench/table -bin bin/pvlint -floor bin/pvlint-floor \
//		-sizes 1000,10000 -workloads 10000 -terraform 1000,10000 -runs 5
//
// Each corpus is written into a temporary directory (removed afterwards) and linted
// from inside it with every built-in rule and SARIF output, `pvlint -f sarif -o
// /dev/null --fail-on never .`, under /usr/bin/time -v. The machine may be shared, so
// runs are paired: each run of pvlint is followed or preceded (alternately) by a run of
// the floor on the same files, and a pair's ratio compares two runs taken under the
// same load. Rows also show the load average when the corpus's runs began and ended:
// absolute figures only mean something beside the load they were taken under.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

func main() {
	bin := flag.String("bin", "bin/pvlint", "the pvlint binary to time")
	floor := flag.String("floor", "bin/pvlint-floor", "the parse-floor binary (./cmd/internal/bench/floor); empty for none")
	sizes := flag.String("sizes", "1000,10000", "comma-separated sizes (objects) of the default YAML corpus")
	workloads := flag.String("workloads", "10000", "comma-separated sizes of the workload-heavy YAML corpus (few ConfigMaps, # Source: headers on a third of the files)")
	tf := flag.String("terraform", "1000,10000", "comma-separated Terraform corpus sizes (objects); empty for none")
	runs := flag.Int("runs", 5, "paired runs per corpus; rows show medians")
	timeCmd := flag.String("time", "/usr/bin/time", "GNU time, which -v makes report peak memory")
	flag.Parse()
	if *runs < 1 {
		fmt.Fprintln(os.Stderr, "table: -runs must be at least 1")
		os.Exit(2)
	}
	if err := run(*bin, *floor, *timeCmd, []corpusList{
		{*sizes, "YAML", corpus.Options{}},
		{*workloads, "YAML workloads", corpus.Options{Workloads: true}},
		{*tf, "Terraform", corpus.Options{Terraform: true}},
	}, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
}

// corpusList is one shape of corpus and the sizes to time it at.
type corpusList struct {
	sizes string
	input string
	opts  corpus.Options
}

// row is one corpus's measurement.
type row struct {
	input   string
	st      corpus.Stats
	load    string  // the 1-minute load average when the runs began and ended
	pvlint  measure // medians of each figure over the runs
	floor   measure // the same for the floor; zero without one
	ratio   ratios  // medians of the paired ratios pvlint/floor
	noFloor bool
}

// ratios are pvlint's figures over the floor's, one pair of runs.
type ratios struct{ wall, cpu, rss float64 }

func run(bin, floor, timeCmd string, lists []corpusList, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if floor != "" {
		if floor, err = filepath.Abs(floor); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "pvlint-table-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var rows []row
	for _, l := range lists {
		for s := range strings.SplitSeq(l.sizes, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				return fmt.Errorf("bad corpus size %q", s)
			}
			opts := l.opts
			opts.Objects, opts.Seed = n, 1
			dir := filepath.Join(tmp, fmt.Sprintf("%s-%d", strings.ReplaceAll(strings.ToLower(l.input), " ", "-"), n))
			st, err := corpus.Write(dir, opts)
			if err != nil {
				return err
			}
			format := "yaml"
			if opts.Terraform {
				format = "hcl"
			}
			lint := []string{bin, "-f", "sarif", "-o", os.DevNull, "--fail-on", "never", "."}
			parse := []string{floor, "-format", format, "."}
			var ps, fs []measure
			load := loadAverage()
			for i := range runs {
				// Alternate which goes first, so neither always runs on a warmer cache.
				order := [][]string{lint, parse}
				if i%2 == 1 {
					order = [][]string{parse, lint}
				}
				for _, args := range order {
					if args[0] == "" {
						continue
					}
					m, err := timeRun(timeCmd, args, dir)
					if err != nil {
						return err
					}
					if args[0] == bin {
						ps = append(ps, m)
					} else {
						fs = append(fs, m)
					}
				}
			}
			rows = append(rows, summarise(l.input, st, load+"–"+loadAverage(), ps, fs))
			os.RemoveAll(dir)
		}
	}
	print(rows, runs)
	return nil
}

// summarise makes the row of one corpus's runs: pvlint's runs ps and the floor's fs,
// paired by index (fs may be empty).
func summarise(input string, st corpus.Stats, load string, ps, fs []measure) row {
	r := row{input: input, st: st, load: load, pvlint: medians(ps), noFloor: len(fs) == 0}
	if r.noFloor {
		return r
	}
	r.floor = medians(fs)
	var wall, cpu, rss []float64
	for i := range min(len(ps), len(fs)) {
		p, f := ps[i], fs[i]
		wall = append(wall, p.wall.Seconds()/f.wall.Seconds())
		cpu = append(cpu, p.cpu().Seconds()/f.cpu().Seconds())
		rss = append(rss, float64(p.rssKiB)/float64(f.rssKiB))
	}
	r.ratio = ratios{median(wall), median(cpu), median(rss)}
	return r
}

// medians is the median of each figure of ms (at least one) taken separately.
func medians(ms []measure) measure {
	var wall, user, sys, rss []float64
	for _, m := range ms {
		wall = append(wall, float64(m.wall))
		user = append(user, float64(m.user))
		sys = append(sys, float64(m.sys))
		rss = append(rss, float64(m.rssKiB))
	}
	return measure{wall: time.Duration(median(wall)), user: time.Duration(median(user)), sys: time.Duration(median(sys)), rssKiB: int64(median(rss))}
}

// median of xs (at least one): the middle value, or the mean of the two middle ones.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
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

func (m measure) cpu() time.Duration { return m.user + m.sys }

// timeRun runs args in dir under GNU time.
func timeRun(timeCmd string, args []string, dir string) (measure, error) {
	cmd := exec.Command(timeCmd, append([]string{"-v"}, args...)...)
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
	for line := range strings.SplitSeq(out, "\n") {
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
	for part := range strings.SplitSeq(s, ":") {
		f, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return 0, err
		}
		total = total*60 + f
	}
	return time.Duration(total * float64(time.Second)), nil
}

func print(rows []row, runs int) {
	fmt.Printf("pvlint -f sarif, every built-in rule, against the parse floor (yaml.v3 or hclparse on two threads); %d CPUs; medians of %d paired runs\n\n", runtime.NumCPU(), runs)
	fmt.Println("| input | objects | files | MB | wall s | CPU s | peak RSS MiB | floor wall s | floor CPU s | floor peak RSS MiB | wall ×floor | CPU ×floor | RSS ×floor | load |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		floor := "| – | – | – | – | – | – "
		if !r.noFloor {
			floor = fmt.Sprintf("| %.2f | %.2f | %d | %.2f | %.2f | %.2f ", r.floor.wall.Seconds(), r.floor.cpu().Seconds(), r.floor.rssKiB/1024, r.ratio.wall, r.ratio.cpu, r.ratio.rss)
		}
		fmt.Printf("| %s | %d | %d | %.1f | %.2f | %.2f | %d %s| %s |\n",
			r.input, r.st.Objects, r.st.Files, float64(r.st.Bytes)/1e6,
			r.pvlint.wall.Seconds(), r.pvlint.cpu().Seconds(), r.pvlint.rssKiB/1024, floor, r.load)
	}
}
