package graph

import (
	"net"
	"syscall"
	"unsafe"
)

// liveIovecs is a live writer's own vector of the three parts of a message.
type liveIovecs [3]syscall.Iovec

// writev writes a live message's parts with one writev(2) on the nonblocking socket,
// made as a raw system call: it cannot block (a full socket answers EAGAIN, and the
// goroutine then waits for room through the runtime's poller like any write), so it
// needs none of the scheduler's bookkeeping around a call that might. With ten thousand
// spectators that bookkeeping (entering and leaving the call, the monitor thread taking
// the processor back from writes it thinks are stuck) was a tenth of the server's CPU.
// Sockets that are not TCP (none here) are written the ordinary way.
func writev(nc net.Conn, iov *liveIovecs, parts *[3][]byte) error {
	tcp, ok := nc.(*net.TCPConn)
	if !ok {
		bufs := net.Buffers(parts[:])
		_, err := bufs.WriteTo(nc)
		return err
	}
	rc, err := tcp.SyscallConn()
	if err != nil {
		return err
	}
	vec := iov[:0]
	for _, p := range parts {
		if len(p) > 0 {
			v := syscall.Iovec{Base: &p[0]}
			v.SetLen(len(p)) // Len is 32 bits wide on 32-bit systems
			vec = append(vec, v)
		}
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for len(vec) > 0 {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&vec[0])), uintptr(len(vec)))
			switch e {
			case 0:
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until the socket has room, then come back
			default:
				werr = e
				return true
			}
			for k := uint64(n); k > 0; {
				l := uint64(vec[0].Len)
				if k < l {
					vec[0].Base = (*byte)(unsafe.Add(unsafe.Pointer(vec[0].Base), k))
					vec[0].SetLen(int(l - k))
					break
				}
				k -= l
				vec = vec[1:]
			}
		}
		return true
	})
	*iov = liveIovecs{} // keep nothing of the payload
	if err != nil {
		return err
	}
	return werr
}
