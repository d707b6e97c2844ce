//go:build unix

package sovereign

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), for the benchmarks'
// cpu-nodes/s: steadier than the wall clock on a machine shared with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
