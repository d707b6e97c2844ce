package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
)

// wsImplementation accepts websockets (their origin already checked by origins) for
// gqlgen's transport, which runs the protocol (connection_init, ping, subscribe,
// complete, errors). Our side of each connection is wsConn: writes that may not block
// longer than writeTimeout, and a door for the live subscriptions (see live.go), which
// write their shared, already encoded messages straight to the socket.
type wsImplementation struct{ writeTimeout time.Duration }

func (i wsImplementation) Accept(w http.ResponseWriter, r *http.Request, opts transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	for k, vs := range opts.ResponseHeader {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true, Subprotocols: opts.Subprotocols})
	if err != nil {
		return nil, err
	}
	upgradeDone(r.Context())
	wc := &wsConn{conn: c, timeout: i.writeTimeout}
	if up := callerOf(r.Context()); up != nil {
		up.conn = wc // wsInit hands it to the connection's caller, and so to its operations
	}
	return wc, nil
}

// wsConn is one accepted websocket.
type wsConn struct {
	conn    *websocket.Conn
	timeout time.Duration

	closeOnce sync.Once
	closing   chan struct{} // closed once the close handshake has begun
}

var (
	_ transport.WebsocketConn        = (*wsConn)(nil)
	_ transport.WebsocketReadLimiter = (*wsConn)(nil)
)

// NextReader returns the client's next message. A subscription is tagged with its ID on
// the way in (tagSubscription): gqlgen does not tell a resolver which one it runs for.
func (c *wsConn) NextReader() (int, io.Reader, error) {
	typ, b, err := c.conn.Read(context.Background())
	if err != nil {
		switch websocket.CloseStatus(err) {
		case websocket.StatusNormalClosure, websocket.StatusNoStatusRcvd:
			return int(typ), nil, transport.ErrWebsocketClosed
		}
		return int(typ), nil, err
	}
	return int(typ), bytes.NewReader(tagSubscription(b)), nil
}

// WriteJSON writes one of gqlgen's messages. An error without a code (a protocol mistake
// of the client) gets BAD_REQUEST.
func (c *wsConn) WriteJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if bytes.Contains(b, []byte(`error"`)) {
		b = withCodes(b)
	}
	return c.write(b)
}

// write sends one message, closing the connection when it takes longer than the write
// timeout: a client that stopped reading.
func (c *wsConn) write(b []byte) error {
	t := time.AfterFunc(c.timeout, func() { _ = c.conn.CloseNow() })
	defer t.Stop()
	return c.conn.Write(context.Background(), websocket.MessageText, b)
}

// WriteClose starts the close handshake without waiting for the client's answer (which
// coder/websocket waits up to 5 s for), so that gqlgen's teardown does not stall.
func (c *wsConn) WriteClose(code int, reason string) error {
	c.closeOnce.Do(func() {
		c.closing = make(chan struct{})
		go func() {
			defer close(c.closing)
			_ = c.conn.Close(websocket.StatusCode(code), reason)
		}()
	})
	return nil
}

// Close drops the connection, unless a close handshake has begun: it ends it.
func (c *wsConn) Close() error {
	started := true
	c.closeOnce.Do(func() { started = false })
	if started {
		return nil
	}
	return c.conn.CloseNow()
}

func (c *wsConn) Subprotocol() string      { return c.conn.Subprotocol() }
func (c *wsConn) SetReadLimit(limit int64) { c.conn.SetReadLimit(limit) }

// subscriptionIDKey is the extension under which tagSubscription records a subscribe
// message's ID in its payload, for the resolver to find in its operation's extensions.
const subscriptionIDKey = "arbiterSubscriptionId"

// tagSubscription sets, in a subscribe (graphql-transport-ws) or start (graphql-ws)
// message, the payload's extension subscriptionIDKey to the message's ID, replacing
// whatever the client put there. Any other message, or one gqlgen will refuse anyway
// (not JSON, a payload that is not an object), passes unchanged.
func tagSubscription(b []byte) []byte {
	if !bytes.Contains(b, []byte(`"subscribe"`)) && !bytes.Contains(b, []byte(`"start"`)) {
		return b
	}
	var m map[string]json.RawMessage
	var typ, id string
	if json.Unmarshal(b, &m) != nil || json.Unmarshal(m["type"], &typ) != nil || typ != "subscribe" && typ != "start" || json.Unmarshal(m["id"], &id) != nil {
		return b
	}
	var payload map[string]json.RawMessage
	if json.Unmarshal(m["payload"], &payload) != nil || payload == nil {
		return b
	}
	var ext map[string]any
	if raw, ok := payload["extensions"]; ok && json.Unmarshal(raw, &ext) != nil {
		return b
	}
	if ext == nil {
		ext = map[string]any{}
	}
	ext[subscriptionIDKey] = id
	var err error
	if payload["extensions"], err = json.Marshal(ext); err != nil {
		return b
	}
	if m["payload"], err = json.Marshal(payload); err != nil {
		return b
	}
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}
