package graph

// GraphQL over websockets, served by Arbiter itself: the graphql-transport-ws protocol and
// the legacy graphql-ws one, on the raw connection. It is registered as one of gqlgen's
// transports, so every operation still goes through the server's executor with all its
// extensions (parsing and its cache, validation, the limits, the rate per operation, the
// error cap and presentation); what it replaces is gqlgen's websocket transport, which
// kept three goroutines per connection (its read loop, a goroutine per subscription and
// one waiting for the connection's end) and a coder/websocket connection with its
// buffers. Here a connection holds one goroutine, reading the client's few messages with
// no buffer of its own; a live subscription (live.go) holds none: its group's writers
// write the group's encoded bytes to its socket. Issue 11's memory per connection,
// docs/benchmarks.md.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The subprotocols served.
const (
	transportWS = "graphql-transport-ws"
	legacyWS    = "graphql-ws" // also what a client that names neither gets
)

const (
	// wsCloseWait is how long a connection whose close has begun waits for the client's
	// close frame before it drops the connection.
	wsCloseWait = 5 * time.Second
	// wsKeepAlive is the interval of graphql-ws's keep-alive message, "ka".
	wsKeepAlive = 15 * time.Second
)

// wsTransport accepts websockets on /graphql (their origin already checked) and serves
// them.
type wsTransport struct {
	init         transport.WebsocketInitFunc // reads connection_init's payload: who the caller is
	initTimeout  time.Duration
	writeTimeout time.Duration
	readLimit    int64
	log          *slog.Logger

	// The caps on the sockets open at once (wscap.go): counts is the resolver's, shared
	// by every handler it serves.
	counts     *wsCounts
	perPlayer  int
	perAddress int
	perConnOps int // the operations one socket runs at once (admitOperation)

	// life ends every websocket when an http.Server that accepted them shuts down: a
	// websocket outlives its request, which net/http cancels as the upgrade returns.
	life    context.Context
	end     context.CancelFunc
	mu      sync.Mutex
	watched map[*http.Server]bool
}

var _ graphql.Transport = (*wsTransport)(nil)

func newWSTransport(limits Limits, init transport.WebsocketInitFunc, counts *wsCounts) *wsTransport {
	t := &wsTransport{init: init, initTimeout: limits.WSInitTimeout, writeTimeout: limits.WSWriteTimeout,
		readLimit: limits.MaxBodyBytes, log: limits.Log, watched: map[*http.Server]bool{},
		counts: counts, perPlayer: limits.WebsocketsPerPlayer, perAddress: limits.WebsocketsPerAddress,
		perConnOps: limits.SubscriptionsPerConn}
	t.life, t.end = context.WithCancel(context.Background())
	return t
}

func (t *wsTransport) Supports(r *http.Request) bool { return r.Header.Get("Upgrade") != "" }

// Do completes the handshake, takes the connection over from net/http and serves it on a
// goroutine of its own: net/http's goroutine, its buffers and the request are let go.
func (t *wsTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok {
		t.watch(srv)
	}
	accept, protocol, status, refusal := wsHandshake(r)
	if status != 0 {
		t.log.Info("websocket handshake refused", "status", status, "reason", refusal, "remote", r.RemoteAddr)
		if status == http.StatusBadRequest {
			w.Header().Set("Sec-WebSocket-Version", "13")
		}
		writeError(w, status, "BAD_REQUEST", refusal)
		return
	}
	// Counted against its address until its connection_init is read; over the cap it is
	// still upgraded, to be refused in its protocol (serve), which a browser's page can
	// read, as it cannot an HTTP status.
	addr := clientAddress(r)
	awaiting := wsKey{class: wsAwaiting, who: addr}
	admitted := t.counts.take(awaiting, t.perAddress)
	h := w.Header()
	h.Set("Upgrade", "websocket")
	h.Set("Connection", "Upgrade")
	h.Set("Sec-WebSocket-Accept", accept)
	if protocol != "" {
		h.Set("Sec-WebSocket-Protocol", protocol)
	}
	w.WriteHeader(http.StatusSwitchingProtocols)
	nc, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		t.log.Warn("taking a websocket's connection over failed", "err", err)
		if admitted {
			t.counts.give(awaiting)
		}
		return
	}
	var in io.Reader = nc
	if n := brw.Reader.Buffered(); n > 0 { // the client did not wait for our answer
		early, _ := brw.Reader.Peek(n)
		in = io.MultiReader(bytes.NewReader(bytes.Clone(early)), nc)
	}
	if protocol == "" {
		protocol = legacyWS
	}
	c := &wsConn{t: t, nc: nc, exec: exec, protocol: protocol, in: frameReader{r: in, limit: t.readLimit},
		opened: time.Now(), remote: r.RemoteAddr, subs: map[string]*wsSub{}, counted: addr, held: awaiting, holds: admitted}
	if up := callerOf(r.Context()); up != nil {
		c.addr = up.addr
	}
	// The request's values (who sent it, from where), not its cancellation.
	c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(r.Context()))
	stop := context.AfterFunc(t.life, func() { c.closeWith(closeGoingAway, "the server is shutting down") })
	go func() {
		defer stop()
		c.serve()
	}()
}

// watch ends life when srv shuts down.
func (t *wsTransport) watch(srv *http.Server) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.watched[srv] {
		t.watched[srv] = true
		srv.RegisterOnShutdown(t.end)
	}
}

// wsConn is one websocket.
type wsConn struct {
	t        *wsTransport
	nc       net.Conn
	exec     graphql.GraphExecutor
	protocol string
	in       frameReader
	ctx      context.Context // the connection's: once initialised, with its caller; cancelled at its end
	cancel   context.CancelFunc
	addr     string // the client's host
	opened   time.Time
	remote   string
	inited   bool // connection_init was accepted (read by serve's goroutine only)
	// What the socket counts against (wscap.go), used by serve's goroutine only once it
	// started.
	counted string // its address, as clientAddress gives it
	held    wsKey  // the place it holds, while holds
	holds   bool   // false from the start: refused at the upgrade

	wmu    sync.Mutex // one frame at a time
	broken bool       // under wmu: a write failed, maybe midway: nothing more can be written

	mu        sync.Mutex
	subs      map[string]*wsSub // the operations running, by ID; nil once the connection ended
	closeSent bool
	ka        *time.Timer // graphql-ws's keep-alive
}

// wsIn is a client's message.
type wsIn struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// wsOut is a message to the client, its fields in the order gqlgen's transport wrote them.
type wsOut struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
}

// serve reads the client's messages until the connection ends.
func (c *wsConn) serve() {
	defer c.finish()
	_ = c.nc.SetReadDeadline(time.Now().Add(c.t.initTimeout))
	if !c.holds { // over its address's cap of sockets awaiting connection_init
		c.tooMany(wsAwaiting, c.t.perAddress)
	}
	for {
		b, err := c.in.next(c.control)
		var ce *wsCloseError
		switch {
		case err == nil:
		case errors.Is(err, os.ErrDeadlineExceeded) && !c.inited && !c.closing():
			c.closeWith(closeProtocolError, "connection initialisation timeout")
			continue // for the client's close
		case errors.As(err, &ce) && !c.closing():
			// What follows in the stream cannot be read as frames: answer, then wait for
			// the client to hang up without reading what it sends (closing a socket with
			// unread data resets it, and the client might lose our close).
			c.closeWith(ce.code, ce.reason)
			if hc, ok := c.nc.(interface{ CloseWrite() error }); ok {
				_ = hc.CloseWrite() // the client reads our end after the close frame
			}
			c.discard()
			return
		default:
			return
		}
		if c.closing() {
			continue // only the client's close is awaited
		}
		start := graphql.Now()
		var m wsIn
		if err := json.Unmarshal(b, &m); err != nil {
			c.refuse("invalid json", "decoding error")
			continue
		}
		if !c.inited {
			c.initialise(m)
			continue
		}
		c.handle(m, start)
	}
}

// control answers a ping, and a close: it ends the reading.
func (c *wsConn) control(f control) error {
	switch f.op {
	case opPing:
		return c.writeFrame(opPong, f.payload)
	case opClose:
		if err := checkClose(f.payload); err != nil && !c.closing() {
			return err // closed with the code the RFC gives it, not echoed
		}
		c.release() // before the answer: a client that reads it may open another at once
		c.mu.Lock()
		answered := c.closeSent
		c.closeSent = true
		c.mu.Unlock()
		if !answered {
			code := closeNormal
			if len(f.payload) >= 2 {
				code = int(f.payload[0])<<8 | int(f.payload[1])
			}
			var echo []byte
			if code != closeNoStatus && len(f.payload) >= 2 {
				echo = closePayload(code, "")
			}
			_ = c.writeFrame(opClose, echo)
		}
		return errPeerClosed
	}
	return nil // a pong
}

// refuse closes the connection over a message it cannot take: graphql-transport-ws's
// 4400; graphql-ws has no code of its own, and gets a connection_error and 1002.
func (c *wsConn) refuse(why, legacyReason string) {
	if c.protocol == transportWS {
		c.closeWith(closeBadMessage, why)
		return
	}
	c.connectionError("", why)
	c.closeWith(closeProtocolError, legacyReason)
}

// initialise takes the first message: connection_init, its payload read for the caller's
// token.
func (c *wsConn) initialise(m wsIn) {
	switch {
	case m.Type == "connection_init":
	case m.Type == "connection_terminate" && c.protocol == legacyWS:
		c.closeWith(closeNormal, "terminated")
		return
	case m.Type == "subscribe" && c.protocol == transportWS:
		c.closeWith(4401, "Unauthorized: send connection_init first")
		return
	default:
		c.refuse("unexpected message "+m.Type, "unexpected message")
		return
	}
	var payload transport.InitPayload
	if len(m.Payload) > 0 && !bytes.Equal(m.Payload, []byte("null")) {
		if err := json.Unmarshal(m.Payload, &payload); err != nil {
			c.refuse("connection_init's payload is not an object", "decoding error")
			return
		}
	}
	ctx, _, err := c.t.init(c.ctx, payload)
	if err != nil {
		if c.protocol == transportWS {
			c.closeWith(closeForbidden, "Forbidden: "+err.Error())
		} else {
			c.connectionError("", err.Error())
			c.closeWith(closeNormal, "terminated")
		}
		return
	}
	key, most := wsKey{class: wsAnonymous, who: c.counted}, c.t.perAddress
	if who := callerOf(ctx); who != nil && who.player != nil {
		key, most = wsKey{class: wsPlayer, who: who.player.ID}, c.t.perPlayer
	}
	if !c.t.counts.take(key, most) {
		c.tooMany(key.class, most) // still counted as awaiting until it ends
		return
	}
	c.release() // no longer awaiting
	c.held, c.holds = key, true
	c.ctx = ctx // the same cancellation, with the caller
	c.inited = true
	_ = c.nc.SetReadDeadline(time.Time{})
	c.send(wsOut{Type: "connection_ack"})
	if c.protocol == legacyWS {
		c.send(wsOut{Type: "ka"})
		c.mu.Lock()
		c.ka = time.AfterFunc(wsKeepAlive, c.keepAlive)
		c.mu.Unlock()
	}
}

// tooMany refuses a socket over the cap of its class: in graphql-ws a connection_error
// TOO_MANY_CONNECTIONS, then in both protocols close 1013 (try again later) with the
// reason.
func (c *wsConn) tooMany(class wsClass, most int) {
	reason := tooManyReason(class, most)
	c.t.log.Info("websocket refused", "reason", reason, "remote", c.remote)
	c.connectionError(CodeTooManyConnections, reason)
	c.closeWith(closeTryAgainLater, reason)
}

// release gives back the place the socket holds, if any.
func (c *wsConn) release() {
	if c.holds {
		c.t.counts.give(c.held)
		c.holds = false
	}
}

// keepAlive sends graphql-ws's "ka", and again after wsKeepAlive.
func (c *wsConn) keepAlive() {
	if c.send(wsOut{Type: "ka"}) != nil {
		return
	}
	c.mu.Lock()
	if c.subs != nil {
		c.ka.Reset(wsKeepAlive)
	}
	c.mu.Unlock()
}

// handle takes one message after connection_init.
func (c *wsConn) handle(m wsIn, start time.Time) {
	switch tw := c.protocol == transportWS; {
	case m.Type == "subscribe" && tw, m.Type == "start" && !tw:
		c.subscribe(m, start)
	case m.Type == "complete" && tw, m.Type == "stop" && !tw:
		c.mu.Lock()
		s := c.subs[m.ID]
		delete(c.subs, m.ID)
		c.mu.Unlock()
		if s != nil {
			s.stop() // completed by the client: nothing more is sent for it, complete included
		}
	case m.Type == "ping" && tw:
		c.send(wsOut{Type: "pong", Payload: m.Payload})
	case m.Type == "pong" && tw:
	case m.Type == "connection_init" && tw:
		c.closeWith(closeTooManyInits, "Too many initialisation requests")
	case m.Type == "connection_terminate" && !tw:
		c.closeWith(closeNormal, "terminated")
	default:
		c.refuse("unexpected message "+m.Type, "unexpected message")
	}
}

// maxOperationIDBytes bounds the id a client gives each operation. The id is kept as
// long as its operation runs and sent back with each of its results: ids of a message's
// size made each socket keep and echo megabytes (100 subscriptions of 1 MiB ids), where a
// client needs a counter or a UUID.
const maxOperationIDBytes = 128

// subscribe starts an operation: a query or mutation answers once, a subscription until
// it ends. A live subscription joins its group (joinLive) and holds no goroutine; any
// other runs on a goroutine of its own.
func (c *wsConn) subscribe(m wsIn, start time.Time) {
	if len(m.ID) > maxOperationIDBytes {
		c.refuse(fmt.Sprintf("the operation's id has %d bytes; at most %d are allowed: number your operations", len(m.ID), maxOperationIDBytes), "operation id too long")
		return
	}
	c.mu.Lock()
	_, taken := c.subs[m.ID]
	c.mu.Unlock()
	if taken { // graphql-transport-ws's rule; the legacy protocol has none, and gets the same
		c.closeWith(closeDuplicateSub, fmt.Sprintf("Subscriber for %s already exists", m.ID))
		return
	}
	ctx := graphql.StartOperationTrace(c.ctx)
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(m.Payload))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		c.sendErrors(m.ID, []*gqlerror.Error{{Message: "invalid json"}})
		c.send(wsOut{ID: m.ID, Type: "complete"})
		return
	}
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, errs := c.exec.CreateOperationContext(ctx, params)
	if errs != nil {
		resp := c.exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			c.sendErrors(m.ID, resp.Errors)
		} else {
			c.sendResponse(m.ID, &graphql.Response{Errors: errs})
		}
		c.send(wsOut{ID: m.ID, Type: "complete"})
		return
	}
	release := func() {}
	if rc.Operation.Operation != ast.Subscription { // a subscription is counted by its resolver
		var err error
		if release, err = admitOperation(callerOf(c.ctx), c.t.perConnOps, "TOO_MANY_OPERATIONS"); err != nil {
			var rej *game.Error
			errors.As(err, &rej)
			c.sendErrors(m.ID, []*gqlerror.Error{{Message: rej.Reason, Extensions: map[string]any{"code": string(rej.Code)}}})
			c.send(wsOut{ID: m.ID, Type: "complete"})
			return
		}
	}
	s := &wsSub{conn: c, id: m.ID}
	ctx, s.cancel = context.WithCancel(graphql.WithOperationContext(ctx, rc))
	ctx = context.WithValue(ctx, wsSubKey{}, s)
	c.mu.Lock()
	if c.subs == nil { // the connection ended meanwhile
		c.mu.Unlock()
		s.cancel()
		return
	}
	c.subs[m.ID] = s
	c.mu.Unlock()
	if rc.Operation.Operation != ast.Subscription {
		go func() {
			defer release()
			s.run(ctx, rc, nil)
		}()
		return
	}
	responses, ok := s.dispatch(ctx, rc)
	if !ok {
		return
	}
	if s.joined() {
		return // its group serves it
	}
	go s.run(ctx, rc, responses)
}

// sendResponse sends one result of an operation.
func (c *wsConn) sendResponse(id string, resp *graphql.Response) error {
	b, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	typ := "next"
	if c.protocol == legacyWS {
		typ = "data"
	}
	return c.send(wsOut{Payload: b, ID: id, Type: typ})
}

// sendErrors ends an operation with errors, each with a code (BAD_REQUEST when it has
// none: a mistake of the client's in the protocol).
func (c *wsConn) sendErrors(id string, errs []*gqlerror.Error) error {
	b, err := json.Marshal(withCodes(errs))
	if err != nil {
		return err
	}
	return c.send(wsOut{Payload: b, ID: id, Type: "error"})
}

// connectionError tells a graphql-ws client why its connection ends, with code
// (BAD_REQUEST when ""); graphql-transport-ws has no such message: its close frame's
// reason says it.
func (c *wsConn) connectionError(code, message string) {
	if c.protocol != legacyWS {
		return
	}
	e := &gqlerror.Error{Message: message}
	if code != "" {
		e.Extensions = map[string]any{"code": code}
	}
	b, err := json.Marshal(withCodes([]*gqlerror.Error{e})[0])
	if err == nil {
		c.send(wsOut{Payload: b, Type: "connection_error"})
	}
}

// withCodes returns errs with a code on each: BAD_REQUEST where there was none.
func withCodes(errs []*gqlerror.Error) []*gqlerror.Error {
	out := make([]*gqlerror.Error, len(errs))
	for i, e := range errs {
		if _, ok := e.Extensions["code"]; ok {
			out[i] = e
			continue
		}
		cp := *e
		cp.Extensions = map[string]any{"code": "BAD_REQUEST"}
		for k, v := range e.Extensions {
			cp.Extensions[k] = v
		}
		out[i] = &cp
	}
	return out
}

// send writes one message.
func (c *wsConn) send(m wsOut) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.writeFrame(opText, b)
}

// writeFrame writes one frame, closing the connection when it takes longer than the write
// timeout (a client that stopped reading). The live writers write without a deadline:
// they are watched instead (liveWriters.watch).
func (c *wsConn) writeFrame(op byte, payload []byte) error {
	var h [maxFrameHeader]byte
	n := frameHeader(&h, op, len(payload))
	bufs := net.Buffers{h[:n], payload}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.broken {
		return net.ErrClosed
	}
	_ = c.nc.SetWriteDeadline(time.Now().Add(c.t.writeTimeout))
	_, err := bufs.WriteTo(c.nc)
	_ = c.nc.SetWriteDeadline(time.Time{})
	if err != nil {
		c.brokeLocked()
	}
	return err
}

// livePrefix opens every live message: its payload comes next, then the member's suffix.
const livePrefix = `{"payload":`

// liveFrame is a live writer's own room to frame a message: the header and livePrefix,
// then the payload and the suffix, written together (writev) without being copied.
type liveFrame struct {
	head  [maxFrameHeader + len(livePrefix)]byte
	parts [3][]byte
	iov   liveIovecs
}

// writeLive sends one live message: a group's payload, encoded once for all its members,
// between livePrefix and the member's suffix (its ID and type).
func (c *wsConn) writeLive(f *liveFrame, payload, suffix []byte) error {
	var h [maxFrameHeader]byte
	n := frameHeader(&h, opText, len(livePrefix)+len(payload)+len(suffix))
	k := copy(f.head[:], h[:n])
	k += copy(f.head[k:], livePrefix)
	f.parts = [3][]byte{f.head[:k], payload, suffix}
	defer func() { f.parts = [3][]byte{} }() // the payload is the group's: keep nothing of it
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.broken {
		return net.ErrClosed
	}
	err := writev(c.nc, &f.iov, &f.parts)
	if err != nil {
		c.brokeLocked()
	}
	return err
}

// brokeLocked marks the connection unusable after a failed write (which may have sent
// part of a frame) and drops it.
func (c *wsConn) brokeLocked() {
	c.broken = true
	_ = c.nc.Close()
}

// abort drops the connection at once: a write that took too long.
func (c *wsConn) abort() { _ = c.nc.Close() }

// closing reports whether the close handshake has begun.
func (c *wsConn) closing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeSent
}

// closeWith begins the close handshake, once: the close frame, then the client has
// wsCloseWait to answer before the connection is dropped.
func (c *wsConn) closeWith(code int, reason string) {
	c.mu.Lock()
	sent := c.closeSent
	c.closeSent = true
	c.mu.Unlock()
	if sent {
		return
	}
	_ = c.writeFrame(opClose, closePayload(code, reason))
	_ = c.nc.SetReadDeadline(time.Now().Add(wsCloseWait))
}

// discard reads and drops whatever the client still sends until it hangs up or
// wsCloseWait passes.
func (c *wsConn) discard() {
	_, _ = io.Copy(io.Discard, c.in.r)
}

// finish ends the connection once its reading is over: every operation stops, the
// socket closes.
func (c *wsConn) finish() {
	c.cancel()
	c.mu.Lock()
	subs := c.subs
	c.subs = nil
	if c.ka != nil {
		c.ka.Stop()
	}
	c.mu.Unlock()
	for _, s := range subs {
		s.stop()
	}
	_ = c.nc.Close()
	c.release()
	c.t.log.Info("websocket closed", "path", "/graphql", "duration", time.Since(c.opened), "remote", c.remote)
}

// wsSub is one operation of a websocket, from its subscribe to its end.
type wsSub struct {
	conn *wsConn
	id   string

	mu     sync.Mutex
	cancel context.CancelFunc // cancels the operation's context; nil once a group serves it
	live   bool               // served by a live group (see joinLive)
	onStop func()             // the group's leave, for a live subscription
	errs   []*gqlerror.Error  // to end it with, instead of complete (addSubscriptionError)
	done   bool               // stopped from outside: completed by the client, or the socket ended
}

type wsSubKey struct{}

// subOf is the websocket operation ctx runs for, or nil.
func subOf(ctx context.Context) *wsSub {
	s, _ := ctx.Value(wsSubKey{}).(*wsSub)
	return s
}

// addSubscriptionError records an error that ends ctx's subscription instead of
// complete: SLOW_CONSUMER.
func addSubscriptionError(ctx context.Context, err *gqlerror.Error) {
	if s := subOf(ctx); s != nil {
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
	}
}

// dispatch runs the operation's resolvers up to the subscription's stream (a live one
// joins its group there). ok is false when it panicked: the subscription is ended.
func (s *wsSub) dispatch(ctx context.Context, rc *graphql.OperationContext) (responses graphql.ResponseHandler, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.end(panicked(ctx, rc, p))
		}
	}()
	responses, _ = s.conn.exec.DispatchOperation(ctx, rc)
	return responses, true
}

// panicked is the error a panic while running an operation ends it with.
func panicked(ctx context.Context, rc *graphql.OperationContext, p any) *gqlerror.Error {
	err := rc.Recover(ctx, p)
	var gqlerr *gqlerror.Error
	if !errors.As(err, &gqlerr) {
		gqlerr = &gqlerror.Error{}
		if err != nil {
			gqlerr.Message = err.Error()
		}
	}
	return gqlerr
}

// run sends each result of the operation, then ends it.
func (s *wsSub) run(ctx context.Context, rc *graphql.OperationContext, responses graphql.ResponseHandler) {
	var failure *gqlerror.Error
	defer func() {
		if p := recover(); p != nil {
			failure = panicked(ctx, rc, p)
		}
		if failure != nil {
			s.end(failure)
		} else {
			s.end()
		}
	}()
	if responses == nil {
		responses, ctx = s.conn.exec.DispatchOperation(ctx, rc)
	}
	for {
		resp := responses(ctx)
		if resp == nil {
			return
		}
		if s.conn.sendResponse(s.id, resp) != nil {
			return
		}
	}
}

// joined reports whether a live group took the subscription over, and lets its context
// go: the group holds nothing of it.
func (s *wsSub) joined() bool {
	s.mu.Lock()
	live, cancel := s.live, s.cancel
	if live {
		s.cancel = nil
	}
	s.mu.Unlock()
	if live {
		cancel()
	}
	return live
}

// whenStopped makes s a live group's, which leaves with f when s is stopped from outside
// (at once, on a goroutine of its own, if it already was).
func (s *wsSub) whenStopped(f func()) {
	s.mu.Lock()
	s.live = true
	done := s.done
	if !done {
		s.onStop = f
	}
	s.mu.Unlock()
	if done {
		go f()
	}
}

// stop ends s from outside: its client completed it, or its socket ended. Nothing more is
// sent for it.
func (s *wsSub) stop() {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return
	}
	s.done = true
	cancel, f := s.cancel, s.onStop
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if f != nil {
		f()
	}
}

// end ends s from inside, once its operation is over: with the errors recorded and
// given, or else with complete. Nothing is sent if it was stopped from outside.
func (s *wsSub) end(errs ...*gqlerror.Error) {
	c := s.conn
	c.mu.Lock()
	own := c.subs[s.id] == s
	if own {
		delete(c.subs, s.id)
	}
	c.mu.Unlock()
	s.mu.Lock()
	s.done = true
	errs = append(s.errs, errs...)
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if !own {
		return
	}
	if len(errs) > 0 {
		_ = c.sendErrors(s.id, errs)
		return
	}
	_ = c.send(wsOut{ID: s.id, Type: "complete"})
}
