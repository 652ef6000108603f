//go:build race

package worker

// raceDetector reports a -race build, whose runtime maps memory of its own.
const raceDetector = true
