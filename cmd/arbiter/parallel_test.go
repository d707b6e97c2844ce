package main

import "testing"

// waitsOnTheClock marks a test that spends most of its time asleep, waiting for a timer
// of the server's (a default timeout, a grace period, a flag): it runs in parallel
// (t.Parallel), so that go test overlaps its waits with those of the other such tests
// once the package's sequential tests are done, two at a time on CI's 2 vCPUs (-parallel
// is GOMAXPROCS). Such a test starts its own servers on their own files and ports, and
// must not change what the whole process shares: no t.Setenv, no t.Chdir, no
// snapshotHold (go test panics on the first two in a parallel test).
func waitsOnTheClock(t *testing.T) {
	t.Helper()
	t.Parallel()
}
