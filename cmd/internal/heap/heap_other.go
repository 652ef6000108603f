//go:build !linux

package heap

// hugePages does nothing outside Linux: transparent huge pages are a Linux feature.
func hugePages(input int64) {}
