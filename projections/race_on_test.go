//go:build race

package projections

// raceDetector says the tests run under the race detector.
const raceDetector = true
