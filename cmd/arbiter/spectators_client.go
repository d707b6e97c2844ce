package main

// The client side of `arbiter bench spectators`: GraphQL over HTTP for the players, one
// websocket per spectator in graphql-transport-ws, /metrics, and a child server. It speaks
// to the server only through its public API, as any client would.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// apiClient sends GraphQL requests over HTTP, keeping connections alive between them.
type apiClient struct {
	url  string // http://host:port, without a path
	http *http.Client
}

func newAPIClient(url string, conns int) *apiClient {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = conns
	return &apiClient{url: strings.TrimRight(url, "/"), http: &http.Client{Transport: tr, Timeout: time.Minute}}
}

// do sends one request with token (none when empty) and decodes its data into out.
func (c *apiClient) do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return explainNetError(err, c.url)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading the answer of %s/graphql: %w", c.url, err)
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s/graphql answered %d %.200q: is it an Arbiter server?", c.url, resp.StatusCode, raw)
	}
	if len(r.Errors) > 0 {
		return fmt.Errorf("the server refused %.60s...: %s (%v)", query, r.Errors[0].Message, r.Errors[0].Extensions["code"])
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.Data, out)
}

// serverFigures are the gauges of /metrics the benchmark reads; -1 when absent.
type serverFigures struct {
	RSS, Heap, Subscriptions float64
}

func (c *apiClient) figures(ctx context.Context) (serverFigures, error) {
	f := serverFigures{RSS: -1, Heap: -1, Subscriptions: -1}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/metrics", nil)
	if err != nil {
		return f, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return f, explainNetError(err, c.url)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		var dst *float64
		switch name {
		case "arbiter_process_resident_bytes":
			dst = &f.RSS
		case "arbiter_heap_bytes":
			dst = &f.Heap
		case "arbiter_subscriptions":
			dst = &f.Subscriptions
		default:
			continue
		}
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			*dst = x
		}
	}
	return f, sc.Err()
}

// receipt is one subscription message: the match version it carries and when it arrived,
// in nanoseconds since the run's epoch (monotonic).
type receipt struct {
	version int32
	at      int64
}

// spectator is one websocket with one subscription. Its receipts are written by its
// reading goroutine alone and read once that goroutine has ended; last is read by the
// progress and the waits meanwhile.
type spectator struct {
	conn     *websocket.Conn
	kind     string // "events" or "updates"
	matchID  string
	receipts []receipt
	last     atomic.Int32 // the last version received; 0 before the first message
	ended    atomic.Bool  // the server ended the subscription or the connection
	err      error        // why the server ended the subscription, if it did
	// Resumed counts the times the server dropped the subscription as too slow
	// (SLOW_CONSUMER) and it subscribed again from the version the server named.
	resumed int
	sub     int // the number of its current subscription: its ID
}

// The selections the spectators ask for: a viewer's needs, the events' payloads and the
// board with the moves, kept small so that the figures measure delivery, not the selection.
const (
	eventsSubscription  = `subscription($m:ID!,$a:Int){matchEvents(matchId:$m, after:$a){version type at data}}`
	updatesSubscription = `subscription($m:ID!){matchUpdates(matchId:$m){version status turn moves board{fen inCheck} result{winner draw reason}}}`
)

// openSpectator dials baseURL's /graphql, speaks graphql-transport-ws up to the
// subscription's start, and returns; read then receives its messages.
func openSpectator(ctx context.Context, baseURL, kind, matchID string, after, moves int) (*spectator, error) {
	ws := "ws" + strings.TrimPrefix(baseURL, "http") + "/graphql"
	conn, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{
		Subprotocols:    []string{"graphql-transport-ws"},
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		return nil, explainNetError(err, baseURL)
	}
	conn.SetReadLimit(1 << 20)
	fail := func(what string, err error) (*spectator, error) {
		conn.CloseNow()
		return nil, fmt.Errorf("%s on %s: %w", what, ws, err)
	}
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type":"connection_init"}`)); err != nil {
		return fail("sending connection_init", err)
	}
	_, ack, err := conn.Read(ctx)
	if err != nil {
		return fail("waiting for connection_ack", err)
	}
	if !bytes.Contains(ack, []byte(`"connection_ack"`)) {
		return fail("connection_init", fmt.Errorf("answered %.200s", ack))
	}
	s := &spectator{conn: conn, kind: kind, matchID: matchID, receipts: make([]receipt, 0, moves+2)}
	if err := s.subscribe(ctx, after); err != nil {
		return fail("subscribing", err)
	}
	return s, nil
}

// subscribe sends the spectator's subscription, under a new ID, after a version
// (matchEvents; matchUpdates starts from the match as it is).
func (s *spectator) subscribe(ctx context.Context, after int) error {
	query, vars := eventsSubscription, map[string]any{"m": s.matchID, "a": after}
	if s.kind == "updates" {
		query, vars = updatesSubscription, map[string]any{"m": s.matchID}
	}
	s.sub++
	msg, _ := json.Marshal(map[string]any{"id": strconv.Itoa(s.sub), "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}})
	return s.conn.Write(ctx, websocket.MessageText, msg)
}

// receive records a message of version v that came at.
func (s *spectator) receive(v int32, at int64, delivered *atomic.Int64) {
	if s.resumed > 0 && len(s.receipts) > 0 && v <= s.receipts[len(s.receipts)-1].version && s.kind == "updates" {
		return // a resumed matchUpdates starts with the match as it is: maybe what came last
	}
	s.receipts = append(s.receipts, receipt{version: v, at: at})
	s.last.Store(v)
	delivered.Add(1)
}

// The start and end of a next message as the server sends one of the tool's selections
// (its version first), and what follows the version.
var (
	nextStarts = [][]byte{[]byte(`{"payload":{"data":{"matchEvents":{"version":`), []byte(`{"payload":{"data":{"matchUpdates":{"version":`)}
	nextEnd    = []byte(`"type":"next"}`)
)

// nextVersion reads the version of a next message without decoding the rest: with
// 10,000 spectators, decoding each message whole would cost this process as much CPU as
// the server spends sending it, and the figures are the server's. Any other message, or
// one not shaped as expected, is left to the full decoding (ok false).
func nextVersion(b []byte) (v int32, ok bool) {
	if !bytes.HasSuffix(b, nextEnd) || bytes.Contains(b, []byte(`"errors"`)) {
		return 0, false
	}
	for _, start := range nextStarts {
		if rest, found := bytes.CutPrefix(b, start); found {
			end := bytes.IndexAny(rest, ",}")
			if end <= 0 {
				return 0, false
			}
			n, err := strconv.ParseInt(string(rest[:end]), 10, 32)
			return int32(n), err == nil
		}
	}
	return 0, false
}

// resumeAfter is the version a SLOW_CONSUMER error says to subscribe again after.
func resumeAfter(payload json.RawMessage) (int, bool) {
	var errs []struct {
		Extensions struct {
			Code        string
			ResumeAfter *int
		}
	}
	if json.Unmarshal(payload, &errs) != nil || len(errs) != 1 || errs[0].Extensions.Code != "SLOW_CONSUMER" || errs[0].Extensions.ResumeAfter == nil {
		return 0, false
	}
	return *errs[0].Extensions.ResumeAfter, true
}

// read receives until the connection closes or the server ends the subscription. It
// decodes only the version: the rest of each message is the server's cost, not ours.
func (s *spectator) read(epoch time.Time, delivered *atomic.Int64) {
	defer s.ended.Store(true)
	for {
		_, b, err := s.conn.Read(context.Background())
		if err != nil {
			return
		}
		at := time.Since(epoch).Nanoseconds()
		if v, ok := nextVersion(b); ok {
			s.receive(v, at, delivered)
			continue
		}
		var m struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(b, &m) != nil {
			s.err = fmt.Errorf("a message that is not JSON: %.200s", b)
			return
		}
		switch m.Type {
		case "next":
			var p struct {
				Data struct {
					Events  *struct{ Version int32 } `json:"matchEvents"`
					Updates *struct{ Version int32 } `json:"matchUpdates"`
				} `json:"data"`
				Errors json.RawMessage `json:"errors"`
			}
			if err := json.Unmarshal(m.Payload, &p); err != nil || len(p.Errors) > 0 {
				s.err = fmt.Errorf("the server sent %.300s", m.Payload)
				return
			}
			v := int32(-1)
			if p.Data.Events != nil {
				v = p.Data.Events.Version
			} else if p.Data.Updates != nil {
				v = p.Data.Updates.Version
			}
			s.receive(v, at, delivered)
		case "ping":
			_ = s.conn.Write(context.Background(), websocket.MessageText, []byte(`{"type":"pong"}`))
		case "error":
			if after, ok := resumeAfter(m.Payload); ok {
				// Dropped as too slow: subscribe again from where the server says, as a
				// client should. What comes next tells whether anything was lost.
				if s.kind == "updates" || int32(after) == s.last.Load() {
					s.resumed++
					if s.subscribe(context.Background(), after) == nil {
						continue
					}
				}
			}
			s.err = fmt.Errorf("the server ended the subscription: %.300s", m.Payload)
			return
		case "complete":
			return
		}
	}
}

// loggedPost is a request line of the server's log: a POST to /graphql, its time and
// how long the server took (see logging.go).
var loggedPost = regexp.MustCompile(`^time=(\S+) .*msg=http method=POST path=/graphql .*duration=(\S+)`)

// postDurations returns how long the server took over each POST it logged from since on:
// during a round's moves, only the players post (the spectators are on websockets).
func postDurations(log string, since time.Time) []time.Duration {
	f, err := os.Open(log)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ds []time.Duration
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := loggedPost.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		d, derr := time.ParseDuration(m[2])
		if err == nil && derr == nil && !at.Before(since) {
			ds = append(ds, d)
		}
	}
	return ds
}

// explainNetError names what a failed connection means and what to do about it.
func explainNetError(err error, url string) error {
	switch {
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return fmt.Errorf("too many open files: raise the limit (ulimit -n; as root, ulimit -Hn too) or open fewer --spectators: %w", err)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return fmt.Errorf("out of local ports to connect from: widen sysctl net.ipv4.ip_local_port_range or open fewer --spectators: %w", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing listens at %s: start `arbiter serve` there, or pass --serve instead of --url: %w", url, err)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("the server at %s closed the connection: its open-file limit (ulimit -n of the server) or a limit of its own; see its log: %w", url, err)
	}
	return err
}

// childServer is an `arbiter serve` run as a child process on a new SQLite file, so that
// its memory and CPU are its own and not the clients'.
type childServer struct {
	url string
	cmd *exec.Cmd
	dir string
	log string // the server's stderr
}

var servingAt = regexp.MustCompile(`on (http://[0-9.:]+)/ `)

func startChildServer(ctx context.Context) (*childServer, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this binary to start a server: %w (start `arbiter serve` yourself and pass --url)", err)
	}
	dir, err := os.MkdirTemp("", "arbiter-spectators-")
	if err != nil {
		return nil, err
	}
	s := &childServer{dir: dir, log: filepath.Join(dir, "serve.log")}
	logf, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	// Every spectator connects from this host, without a token: the caps on websockets
	// per address (and per player) are lifted.
	s.cmd = exec.Command(exe, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "spectators.db"),
		"--ws-per-address", fmt.Sprint(maxWebsocketCap), "--ws-per-player", fmt.Sprint(maxWebsocketCap))
	s.cmd.Stderr = logf
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s serve: %w", exe, err)
	}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		l, _ := r.ReadString('\n')
		line <- l
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l := <-line:
		m := servingAt.FindStringSubmatch(l)
		if m == nil {
			s.stop()
			return nil, fmt.Errorf("the server did not start (first line %q); its log is %s", l, s.log)
		}
		s.url = m[1]
		return s, nil
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	case <-time.After(time.Minute):
		s.stop()
		return nil, fmt.Errorf("the server printed no address within a minute; its log is %s", s.log)
	}
}

// stop interrupts the server and waits for it, killing it if it has not stopped in 30 s.
func (s *childServer) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// cpu returns the CPU time (user and system) the server has used, read from /proc on
// Linux; 0 elsewhere, and the figure is then left out. The kernel counts it in clock
// ticks, 100 a second on every Linux this runs on (USER_HZ).
func (s *childServer) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: count fields after it.
	_, rest, ok := bytes.Cut(b, []byte(") "))
	if !ok {
		return 0
	}
	f := strings.Fields(string(rest))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
