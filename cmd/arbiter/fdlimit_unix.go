//go:build unix

package main

import "syscall"

// raiseFileLimit lifts this process's open-file limit to its hard limit, so that a load
// test of thousands of websockets does not trip on the usual soft limit of 1024, and
// returns the limit now in force.
func raiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return 0, err
		}
	}
	return uint64(l.Cur), nil
}
