//go:build unix

package load

import (
	"io"
	"io/fs"
	"syscall"
)

// readFile reads at most limit+1 bytes of the file at path, whose size was size when
// examined. It uses the system calls directly: os.Open also registers every file with
// the runtime's poller (a fcntl and an epoll_ctl that fails for regular files), a
// fifth of the system time of reading thousands of small manifests. O_NONBLOCK keeps
// a file swapped for a FIFO after it was examined from blocking the run.
func readFile(path string, size, limit int64) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	return readAll(fdReader(fd), size, limit)
}

// fdReader reads a file descriptor.
type fdReader int

func (f fdReader) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
