//go:build !linux

package graph

import "net"

// liveIovecs is unused off Linux.
type liveIovecs struct{}

// writev writes a live message's parts (writev(2) where the system has it).
func writev(nc net.Conn, _ *liveIovecs, parts *[3][]byte) error {
	bufs := net.Buffers(parts[:])
	_, err := bufs.WriteTo(nc)
	return err
}
