// Package filelock is an advisory lock on a file or a directory (flock(2)), held through
// an open descriptor: the kernel releases it when its holder closes it or ends, kill -9
// included, so a lock never outlives the process that took it and never needs clearing
// by hand. Two descriptors conflict even within one process, as two servers of one test
// binary do.
//
// The lock is advisory: only the processes that take it are kept apart. Arbiter takes it
// where a node's files must have one writer (the snapshots of a serving node, a temporary
// archive index in use).
package filelock

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrHeld is matched (errors.Is) by every *HeldError.
var ErrHeld = errors.New("filelock: held by another process")

// HeldError is the error of a lock that another descriptor holds.
type HeldError struct {
	Path string
	// Holder is what the holder wrote into the lock file (Acquire's holder), "" when it
	// wrote nothing, or not yet.
	Holder string
}

func (e *HeldError) Error() string {
	if e.Holder == "" {
		return fmt.Sprintf("%s is locked by another process", e.Path)
	}
	return fmt.Sprintf("%s is locked by %s", e.Path, e.Holder)
}

// Is lets errors.Is(err, ErrHeld) match.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Lock is a lock held; Release frees it.
type Lock struct {
	f *os.File
}

// Acquire opens the lock file at path (created if missing, mode 0644), takes its lock
// without waiting and writes holder into it, which a process refused the lock reads back
// (HeldError.Holder): say who holds it and how to reach it. A lock another holds is a
// *HeldError, and nothing is written. The file stays when the lock is released: removing
// it would let two processes lock two different files of the same name.
func Acquire(path, holder string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("filelock: %w", err)
	}
	ok, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("filelock: locking %s: %w", path, err)
	}
	if !ok {
		b, _ := io.ReadAll(io.LimitReader(f, 4096))
		f.Close()
		return nil, &HeldError{Path: path, Holder: strings.TrimSpace(string(b))}
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(holder+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("filelock: writing the holder of %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// AcquireDir takes the lock of the directory dir without waiting: a *HeldError when
// another holds it. A directory has no content to name its holder.
func AcquireDir(dir string) (*Lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("filelock: %w", err)
	}
	ok, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("filelock: locking %s: %w", dir, err)
	}
	if !ok {
		f.Close()
		return nil, &HeldError{Path: dir}
	}
	return &Lock{f: f}, nil
}

// Stat is the locked file's or directory's, as it was opened: a caller that must know
// the path still names it compares it with os.Stat of the path (os.SameFile).
func (l *Lock) Stat() (os.FileInfo, error) { return l.f.Stat() }

// RecordLocked reports whether another process holds a POSIX record lock (fcntl(2)) on
// any part of the file at path: the locks SQLite takes, on a database in a transaction and
// on the -shm file of a WAL database for as long as a connection has it open. It tells a
// file some running process uses from one a process that ended left behind (the kernel
// drops the locks of a process that ends, kill -9 included) for files that were never
// given a flock. A missing file is not locked; where the kernel cannot be asked (not
// Unix), every file is.
func RecordLocked(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("filelock: %w", err)
	}
	defer f.Close() // this process holds no record lock on it, which a close would drop
	locked, err := recordLocked(f)
	if err != nil {
		return false, fmt.Errorf("filelock: asking for the record locks of %s: %w", path, err)
	}
	return locked, nil
}

// Release frees the lock. It may be called more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor releases the lock
	l.f = nil
	return err
}
