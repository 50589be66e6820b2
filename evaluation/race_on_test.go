//go:build race

package evaluation

// raceDetector: this test binary was built with -race.
const raceDetector = true
