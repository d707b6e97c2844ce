//go:build !unix

package sovereign

import "time"

// cpuTime is not measured here: the benchmarks report wall-clock nodes/s only.
func cpuTime() time.Duration { return 0 }
