//go:build !race

package sqlite

// raceDetector says the tests run under the race detector.
const raceDetector = false
