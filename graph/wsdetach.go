package graph

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// A websocket's protocol (gqlgen's transport over wsConn) runs on a goroutine of its own,
// not on net/http's goroutine for the request: once the handshake is done, the request's
// handler returns and net/http lets go of everything it kept for the connection (its
// conn and response, the request it parsed, its 4 KiB read buffer, a goroutine whose stack
// grew through the server's middleware). A websocket then holds what it needs and no more:
// issue 11's memory per connection, docs/benchmarks.md.

// wsReadBuffer is the read buffer of an upgraded connection: a client sends a few small
// messages (connection_init, subscribe, ping, complete); a larger one is read past it.
const wsReadBuffer = 1 << 10

// upgradedKey marks the context of a request served by detachedSockets.serve: its value,
// a channel, is closed by wsImplementation.Accept once the connection is a websocket.
type upgradedKey struct{}

// detachedSockets serves websocket upgrades of one Handler.
type detachedSockets struct {
	log *slog.Logger

	// life ends every websocket when an http.Server that accepted them shuts down, as the
	// end of the request's context did when the request ran for the socket's life.
	life context.Context
	end  context.CancelFunc

	mu      sync.Mutex
	watched map[*http.Server]bool // the servers whose shutdown ends life
}

func newDetachedSockets(log *slog.Logger) *detachedSockets {
	d := &detachedSockets{log: log, watched: map[*http.Server]bool{}}
	d.life, d.end = context.WithCancel(context.Background())
	return d
}

// watch ends life when srv shuts down.
func (d *detachedSockets) watch(srv *http.Server) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.watched[srv] {
		d.watched[srv] = true
		srv.RegisterOnShutdown(d.end)
	}
}

// serve runs next for an upgrade request on a goroutine of its own, with the request's
// context values but not its cancellation (net/http cancels it when the handler returns),
// and returns once the connection is a websocket, or once next is done with a request it
// refused.
func (d *detachedSockets) serve(next http.Handler, w http.ResponseWriter, req *http.Request) {
	if srv, ok := req.Context().Value(http.ServerContextKey).(*http.Server); ok {
		d.watch(srv)
	}
	upgraded, done := make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.WithoutCancel(req.Context()))
	stop := context.AfterFunc(d.life, cancel)
	ctx = context.WithValue(ctx, upgradedKey{}, upgraded)
	// The goroutine keeps neither w nor req: net/http's response and request go once
	// the handler returns.
	dw, sreq := newDetachedWriter(w), req.WithContext(ctx)
	sreq.Header = handshakeHeader(req.Header)
	path, remote := req.URL.Path, req.RemoteAddr
	go func() {
		defer close(done)
		defer cancel()
		defer stop()
		start := time.Now()
		next.ServeHTTP(dw, sreq)
		select {
		case <-upgraded:
			// The access log has the upgrade's line (status 101); this is the socket's end.
			d.log.Info("websocket closed", "path", path, "duration", time.Since(start), "remote", remote)
		default:
		}
	}()
	select {
	case <-upgraded: // w is no longer used (dw let go of it): the connection is the goroutine's
	case <-done:
	}
}

// handshakeKeys are the request headers a websocket's handshake reads (coder/websocket's
// Accept; Origin is checked before, by origins).
var handshakeKeys = []string{"Connection", "Upgrade", "Origin", "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Protocol", "Sec-Websocket-Extensions"}

// handshakeHeader copies the headers of h that the handshake reads. gqlgen keeps the
// request's headers for the socket's life and nothing of ours reads them (the caller is
// identified from Authorization before): a browser's cookies and user agent need not stay.
// The values are copied, not shared: net/http keeps all of a request's values in one
// array, which one of them would keep whole.
func handshakeHeader(h http.Header) http.Header {
	out := make(http.Header, len(handshakeKeys))
	for _, k := range handshakeKeys {
		if vs, ok := h[k]; ok {
			out[k] = append([]string(nil), vs...)
		}
	}
	return out
}

// upgradeDone tells detachedSockets.serve, if it serves ctx's request, that the
// connection is a websocket.
func upgradeDone(ctx context.Context) {
	if ch, ok := ctx.Value(upgradedKey{}).(chan struct{}); ok {
		close(ch)
	}
}

// detachedWriter is the ResponseWriter of an upgrade request served on its own goroutine.
// gqlgen's and coder/websocket's frames keep their ResponseWriter for the socket's life;
// this one lets go of net/http's (and with it net/http's connection and buffers) once the
// connection is taken over, keeping only the response's header, which coder/websocket
// reads after the takeover. It also gives coder/websocket a read buffer of wsReadBuffer
// instead of net/http's 4 KiB one, when nothing is buffered in that one yet (a client that
// sent its first message with the handshake keeps net/http's buffer).
type detachedWriter struct {
	rw     http.ResponseWriter // nil once hijacked
	header http.Header
}

func newDetachedWriter(w http.ResponseWriter) *detachedWriter {
	return &detachedWriter{rw: w, header: w.Header()}
}

func (d *detachedWriter) Header() http.Header { return d.header }

func (d *detachedWriter) Write(b []byte) (int, error) {
	if d.rw == nil {
		return 0, http.ErrHijacked
	}
	return d.rw.Write(b)
}

func (d *detachedWriter) WriteHeader(status int) {
	if d.rw != nil {
		d.rw.WriteHeader(status)
	}
}

func (d *detachedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if d.rw == nil {
		return nil, nil, http.ErrHijacked
	}
	conn, brw, err := http.NewResponseController(d.rw).Hijack()
	if err != nil {
		return nil, nil, err
	}
	d.rw = nil
	if brw.Reader.Buffered() > 0 {
		return conn, brw, nil
	}
	return conn, bufio.NewReadWriter(bufio.NewReaderSize(conn, wsReadBuffer), brw.Writer), nil
}
