//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive lock without waiting: false when another descriptor holds it.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}

// recordLocked asks the kernel (fcntl(2) F_GETLK) whether a lock of another process stands
// in the way of a write lock on the whole of f.
func recordLocked(f *os.File) (bool, error) {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 0} // Len 0: to the end
	for {
		err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return false, err
		}
		return lk.Type != syscall.F_UNLCK, nil
	}
}
