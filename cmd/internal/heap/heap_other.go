//go:build !linux

package heap

// hugePages does nothing outside Linux: transparent huge pages are a Linux feature.
func hugePages(input int64) {}

// room is the most heap Prepare lets build up before the first collection: none
// where the machine's memory and limits are not read.
func room() uint64 { return 0 }
