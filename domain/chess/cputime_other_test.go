//go:build !unix

package chess

import "time"

// cpuTime is unknown here; the benchmarks then report wall-clock figures only.
func cpuTime() time.Duration { return 0 }
