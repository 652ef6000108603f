//go:build !race

package helm

const raceEnabled = false
