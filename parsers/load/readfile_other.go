//go:build !unix

package load

import "os"

// readFile reads at most limit+1 bytes of the file at path, whose size was size when
// examined.
func readFile(path string, size, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, size, limit)
}
