//go:build unix

// Package cputime reads the CPU time the process has used. Benchmarks report work per
// CPU-second beside work per wall-clock second: on a machine shared with other work, the
// former hardly moves while the latter swings.
package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time (user and system) this process has used so far.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
