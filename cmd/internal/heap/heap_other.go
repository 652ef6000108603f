//go:build !linux

package heap

// Reserve does nothing outside Linux: transparent huge pages are a Linux feature.
func Reserve(input int64) {}
