package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

// gnuTime is GNU time 1.9's -v report (abridged to the lines around those read).
const gnuTime = `	Command being timed: "pvlint -f sarif -o /dev/null --fail-on never ."
	User time (seconds): 1.87
	System time (seconds): 0.66
	Percent of CPU this job got: 30%
	Elapsed (wall clock) time (h:mm:ss or m:ss): 1:08.39
	Average shared text size (kbytes): 0
	Maximum resident set size (kbytes): 189992
	Exit status: 0
`

func TestParseTime(t *testing.T) {
	got, err := parseTime(gnuTime)
	if err != nil {
		t.Fatal(err)
	}
	want := measure{wall: 68390 * time.Millisecond, user: 1870 * time.Millisecond, sys: 660 * time.Millisecond, rssKiB: 189992}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(measure{})); diff != "" {
		t.Errorf("parseTime (-want +got):\n%s", diff)
	}
}

func TestParseTimeIncomplete(t *testing.T) {
	if _, err := parseTime("\tUser time (seconds): 1.87\n"); err == nil {
		t.Error("parseTime accepted a report without wall time and peak memory")
	}
	if _, err := parseTime("\tUser time (seconds): x\n"); err == nil {
		t.Error("parseTime accepted a malformed number")
	}
}

func TestClock(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0:00.61":   610 * time.Millisecond,
		"1:02:03.5": time.Hour + 2*time.Minute + 3500*time.Millisecond,
		"12:00.00":  12 * time.Minute,
	} {
		got, err := clock(in)
		if err != nil || got != want {
			t.Errorf("clock(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestSummarise(t *testing.T) {
	ps := []measure{
		{wall: 3 * time.Second, user: 2 * time.Second, rssKiB: 100},
		{wall: 1 * time.Second, user: 1 * time.Second, rssKiB: 300},
		{wall: 2 * time.Second, user: 4 * time.Second, rssKiB: 200},
	}
	fs := []measure{
		{wall: 1 * time.Second, user: 1 * time.Second, rssKiB: 100},
		{wall: 1 * time.Second, user: 1 * time.Second, rssKiB: 100},
		{wall: 2 * time.Second, user: 1 * time.Second, rssKiB: 50},
	}
	got := summarise("YAML", corpus.Stats{Objects: 10}, "0.5", ps, fs)
	want := row{input: "YAML", st: corpus.Stats{Objects: 10}, load: "0.5",
		pvlint: measure{wall: 2 * time.Second, user: 2 * time.Second, rssKiB: 200},
		floor:  measure{wall: time.Second, user: time.Second, rssKiB: 100},
		// Paired ratios: wall 3, 1, 1; CPU 2, 1, 4; memory 1, 3, 4.
		ratio: ratios{wall: 1, cpu: 2, rss: 3}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(row{}, measure{}, ratios{})); diff != "" {
		t.Errorf("summarise (-want +got):\n%s", diff)
	}
	alone := summarise("YAML", corpus.Stats{}, "", ps[:2], nil)
	if !alone.noFloor || alone.pvlint.wall != 2*time.Second {
		t.Errorf("summarise without a floor = %+v; want no floor and the median of two walls (2 s)", alone)
	}
}
