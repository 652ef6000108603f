// Command table times the pvlint binary as a whole process on generated corpora and
// prints a Markdown table: objects, files and megabytes read, wall, user and system
// time, peak resident memory and objects per second of wall time. `make bench` runs
// it after the Go benchmarks; the README's performance table is its output.
//
//	go run ./cmd/internal/bench/table -bin bin/pvlint -sizes 1000,10000,100000 -terraform 10000
//
// Each corpus is written into a temporary directory (removed afterwards) and linted
// from inside it with every built-in rule and SARIF output, `pvlint -f sarif -o
// /dev/null --fail-on never .`, under /usr/bin/time -v. Each row is the run with the
// median wall time of -runs runs.
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

	"github.com/pvlint/pvlint/cmd/corpus"
)

func main() {
	bin := flag.String("bin", "bin/pvlint", "the pvlint binary to time")
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated YAML corpus sizes (objects)")
	tf := flag.String("terraform", "10000", "comma-separated Terraform corpus sizes (objects); empty for none")
	runs := flag.Int("runs", 3, "runs per corpus; the row is the run with the median wall time")
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
	m     measure
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
			for i := 0; i < runs; i++ {
				m, err := timeRun(timeCmd, bin, dir)
				if err != nil {
					return err
				}
				ms = append(ms, m)
			}
			sort.Slice(ms, func(i, j int) bool { return ms[i].wall < ms[j].wall })
			rows = append(rows, row{input: input, st: st, m: ms[len(ms)/2]})
			os.RemoveAll(dir)
		}
	}
	print(rows, runs)
	return nil
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
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	fmt.Printf("pvlint -f sarif, every built-in rule; %d CPUs, load average %s; median of %d runs\n\n", runtime.NumCPU(), load, runs)
	fmt.Println("| input | objects | files | MB | wall s | user s | sys s | peak RSS MiB | objects/s |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %d | %.1f | %.2f | %.2f | %.2f | %d | %.0f |\n",
			r.input, r.st.Objects, r.st.Files, float64(r.st.Bytes)/1e6,
			r.m.wall.Seconds(), r.m.user.Seconds(), r.m.sys.Seconds(), r.m.rssKiB/1024,
			float64(r.st.Objects)/r.m.wall.Seconds())
	}
}
