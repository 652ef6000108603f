package storage

import "testing"

func TestCronMinInterval(t *testing.T) {
	for _, tc := range []struct {
		schedule string
		want     int // seconds; 0: not known
	}{
		{"*/5 * * * *", 300},
		{"*/15 * * * *", 900},
		{"0 * * * *", 3600},
		{"@hourly", 3600},
		{"@daily", 86400},
		{"@weekly", 7 * 86400},
		{"@every 90s", 90},
		{"0 3 * * *", 86400},
		{"0 3 * * 0", 86400}, // day fields only leave days out: a day is a lower bound
		{"30 1,3 * * *", 2 * 3600},
		{"0,45 * * * *", 15 * 60},
		{"50 23 * * *", 86400},
		{"0 22-23 * * *", 3600},
		{"5/20 * * * *", 20 * 60}, // 5, 25, 45 and 5 of the next hour
		{"0 */6 * * MON-FRI", 6 * 3600},
		{"* * * * *", 60},
		{"0 0 1 JAN ?", 86400},
		// Unknown forms keep the finding.
		{"", 0},
		{"H/5 * * * *", 0},
		{"0 0 * *", 0},
		{"0 0 0 * * *", 0},
		{"61 * * * *", 0},
		{"*/0 * * * *", 0},
		{"5-1 * * * *", 0},
		{"0 24 * * *", 0},
		{"TZ=UTC 0 0 * * *", 0},
		{"@every 1ms", 0},
		{"@reboot", 0},
		{"0 0 * * $(x)", 0},
	} {
		got, ok := cronMinInterval(tc.schedule)
		if !ok {
			got = 0
		}
		if got != tc.want {
			t.Errorf("cronMinInterval(%q) = %d, want %d", tc.schedule, got, tc.want)
		}
	}
}
