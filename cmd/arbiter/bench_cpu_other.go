//go:build !unix

package main

import "time"

// cpuTime is unknown here: bench then reports no CPU time per move.
func cpuTime() time.Duration { return 0 }
