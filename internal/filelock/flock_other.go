//go:build !unix

package filelock

import "os"

// tryLock has no flock(2) to take here: every lock is granted, and nothing is kept apart
// (Arbiter is served from Unix systems; docs/operations.md).
func tryLock(*os.File) (bool, error) { return true, nil }

// recordLocked cannot ask here: every file counts as locked, so that none is taken from a
// process that may hold it.
func recordLocked(*os.File) (bool, error) { return true, nil }
