package main

import (
	"os"
	"runtime"
	"strings"
	"syscall"
)

// serverGODEBUG are runtime settings that Go reads only from the environment, at start,
// and that the commands carrying load (serve, bench) run with unless GODEBUG names them.
//
// gcshrinkstackoff=1: the collector leaves a goroutine's stack at the size it grew to. By
// default every cycle halves the stack of each goroutine using less than a quarter of it:
// here the goroutines of a thousand matches or connections, parked with a shallow stack
// between two moves, whose next move grows it again. At 20,000 moves/s that was 4 % of the
// process's CPU, mostly inside the collector's assists on the moves' own goroutines, that
// is on their latency: without it, the p99 of a move fell from a median of 22.8 to 17.8 ms
// over seven runs each, and the run queue's p99 wait from 7–10 to 3–6 ms
// (docs/benchmarks.md, session 17). A kept stack costs a few KiB.
var serverGODEBUG = []string{"gcshrinkstackoff=1"}

// reexecWithServerGODEBUG replaces the process by the same binary with serverGODEBUG
// added to GODEBUG, when the command carries load and GODEBUG does not already name each
// setting (so it happens once, and an operator's GODEBUG=gcshrinkstackoff=0 wins). It
// returns only if nothing is to be done or the exec failed: the command then runs with
// the runtime's defaults, which are correct, only slower.
func reexecWithServerGODEBUG(command string) {
	if runtime.GOOS != "linux" || (command != "serve" && command != "bench") {
		return
	}
	godebug := os.Getenv("GODEBUG")
	var add []string
	for _, s := range serverGODEBUG {
		name := s[:strings.IndexByte(s, '=')+1]
		if !strings.Contains(","+godebug, ","+name) {
			add = append(add, s)
		}
	}
	if len(add) == 0 {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	settings := strings.Join(add, ",")
	if godebug != "" {
		settings = godebug + "," + settings
	}
	env := []string{"GODEBUG=" + settings} // the first of a name is the one read
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	_ = syscall.Exec(exe, os.Args, env)
}
