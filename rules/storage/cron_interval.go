package storage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// A CronJob's runs overlap only when one lasts longer than the time to the next
// (issue 28): spec.jobTemplate.spec.activeDeadlineSeconds ends a run (the Job
// controller fails the Job and deletes its pods, which then have their termination
// grace period to stop), so a deadline plus that grace shorter than the shortest
// interval between two runs of the schedule means that no two runs hold the claim at
// once. The interval is computed conservatively: a schedule pvlint cannot read keeps
// the finding.

// runBound is what decides whether a CronJob's runs can overlap.
type runBound struct {
	deadline *graph.Node // activeDeadlineSeconds, nil when unset
	limit    int         // deadline + termination grace, seconds
	grace    int
	interval int // the schedule's shortest interval, seconds; 0 when unknown
}

// cronRunBound reads a CronJob's deadline, grace and schedule. ok is false when the
// Job has no readable deadline.
func cronRunBound(w *graph.Resource) (runBound, bool) {
	n := w.Get("spec", "jobTemplate", "spec", "activeDeadlineSeconds")
	d, ok := n.Int()
	if !ok || d <= 0 {
		return runBound{}, false
	}
	grace := 30 // the pod spec's default terminationGracePeriodSeconds
	if g := w.Get("spec", "jobTemplate", "spec", "template", "spec", "terminationGracePeriodSeconds"); g != nil {
		v, ok := g.Int()
		if !ok || v < 0 {
			return runBound{}, false
		}
		grace = v
	}
	b := runBound{deadline: n, limit: d + grace, grace: grace}
	if iv, ok := cronMinInterval(w.Get("spec", "schedule").Str()); ok {
		b.interval = iv
		if !utcZone(w.Get("spec", "timeZone")) && iv > 3600 {
			// A daylight-saving change shortens a day by an hour: two runs a
			// day apart (or any that span the change) start 23 hours apart. The
			// controller uses spec.timeZone, else its own local time zone.
			b.interval = iv - 3600
		}
	}
	return b, true
}

// endsBeforeNext reports whether every run ends before the next one starts.
func (b runBound) endsBeforeNext() bool { return b.interval > 0 && b.limit < b.interval }

// text says why runs can still overlap despite the deadline, for the message.
func (b runBound) text() string {
	d, _ := b.deadline.Int()
	if b.interval == 0 {
		return fmt.Sprintf("activeDeadlineSeconds %d, but the schedule's interval between runs is not known", d)
	}
	return fmt.Sprintf("activeDeadlineSeconds %d plus %d s of termination grace is not shorter than the %d s between runs", d, b.grace, b.interval)
}

func utcZone(n *graph.Node) bool {
	switch n.Str() {
	case "UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu":
		return true
	}
	return false
}

// cronMinInterval returns the shortest time, in seconds, between two runs of a
// CronJob schedule in the syntax Kubernetes accepts (robfig/cron's standard parser:
// five fields or a descriptor), or false when it cannot tell. For five fields it is
// the shortest gap between the day's times of the minute and hour fields, the next
// day's first time included: the day-of-month, month and day-of-week fields only
// leave days out, which never shortens a gap.
func cronMinInterval(s string) (int, bool) {
	s = strings.TrimSpace(s)
	switch s {
	case "@yearly", "@annually":
		return 365 * 86400, true
	case "@monthly":
		return 28 * 86400, true
	case "@weekly":
		return 7 * 86400, true
	case "@daily", "@midnight":
		return 86400, true
	case "@hourly":
		return 3600, true
	}
	if rest, ok := strings.CutPrefix(s, "@every "); ok {
		d, err := time.ParseDuration(strings.TrimSpace(rest))
		if err != nil || d < time.Second {
			return 0, false
		}
		return int(d / time.Second), true
	}
	f := strings.Fields(s)
	if len(f) != 5 {
		return 0, false
	}
	minutes, ok1 := cronField(f[0], 59)
	hours, ok2 := cronField(f[1], 23)
	if !ok1 || !ok2 {
		return 0, false
	}
	for _, other := range f[2:] {
		if strings.Trim(other, "0123456789*?,-/ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != "" {
			return 0, false
		}
	}
	var times []int
	for _, h := range hours {
		for _, m := range minutes {
			times = append(times, h*60+m)
		}
	}
	slices.Sort(times)
	gap := times[0] + 24*60 - times[len(times)-1]
	for i := 1; i < len(times); i++ {
		gap = min(gap, times[i]-times[i-1])
	}
	return gap * 60, true
}

// cronField returns the values 0..hi a minute or hour field selects: lists of "*",
// "N", "N-M", each with an optional "/STEP" ("N/STEP" runs from N to hi). Anything
// else is not read.
func cronField(f string, hi int) ([]int, bool) {
	set := make([]bool, hi+1)
	for part := range strings.SplitSeq(f, ",") {
		rng, stepText, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			v, err := strconv.Atoi(stepText)
			if err != nil || v < 1 {
				return nil, false
			}
			step = v
		}
		lo, up := 0, hi
		switch {
		case rng == "*" || rng == "?":
		default:
			a, b, isRange := strings.Cut(rng, "-")
			x, err := strconv.Atoi(a)
			if err != nil || x < 0 || x > hi {
				return nil, false
			}
			lo = x
			switch {
			case isRange:
				y, err := strconv.Atoi(b)
				if err != nil || y < x || y > hi {
					return nil, false
				}
				up = y
			case !hasStep:
				up = x
			}
		}
		for v := lo; v <= up; v += step {
			set[v] = true
		}
	}
	var out []int
	for v, on := range set {
		if on {
			out = append(out, v)
		}
	}
	return out, len(out) > 0
}
