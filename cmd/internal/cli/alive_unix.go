//go:build unix

package cli

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process pid exists (signal 0 checks without
// sending anything); one owned by another user exists too.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
