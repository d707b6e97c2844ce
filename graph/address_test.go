package graph

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

// An IPv6 client counts by its /64: the addresses of one subscriber's block are one.
func TestAddressKey(t *testing.T) {
	for host, want := range map[string]string{
		"192.0.2.7":                  "192.0.2.7",
		"::ffff:192.0.2.7":           "192.0.2.7",
		"2001:db8:1:2::1":            "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9":       "2001:db8:1:2::/64",
		"2001:db8:1:3::1":            "2001:db8:1:3::/64",
		"fe80::1%eth0":               "fe80::/64",
		"not an address":             "not an address",
		"2001:db8:1:2:aaaa:bbbb:0:1": "2001:db8:1:2::/64",
	} {
		if got := addressKey(host); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", host, got, want)
		}
	}
}

// post sends one GraphQL request (its JSON body) to h as if from remote (host:port) and
// returns the status and the answer.
func post(t *testing.T, h http.Handler, remote, body string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = remote
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}

// The rate limiter keys a caller without a token as the websocket caps do: by its IPv6
// /64, so that walking the addresses of one's block gives no fresh bucket. The rate is
// so low that no token comes back while the test runs.
func TestRateLimitKeysIPv6ByItsBlock(t *testing.T) {
	r := &Resolver{Engine: engine.New(engine.Config{Store: memstore.New()})}
	defer r.Close()
	h := Handler(r, Limits{RatePerSecond: 0.0001, RateBurst: 1, Log: slog.New(slog.DiscardHandler)})
	for _, c := range []struct {
		remote string
		want   int
	}{
		{"[2001:db8:1:2::1]:40000", http.StatusOK},
		{"[2001:db8:1:2::1]:40001", http.StatusTooManyRequests},
		{"[2001:db8:1:2:ffff:ffff:ffff:fffe]:40002", http.StatusTooManyRequests}, // the same /64
		{"[2001:db8:1:3::1]:40000", http.StatusOK},                               // the next one
		{"192.0.2.7:40000", http.StatusOK},
		{"192.0.2.8:40000", http.StatusOK},
		{"[::ffff:192.0.2.7]:40001", http.StatusTooManyRequests}, // 192.0.2.7, mapped
	} {
		code, body := post(t, h, c.remote, `{"query": "{ __typename }"}`)
		if code != c.want {
			t.Errorf("from %s: %d %s, want %d", c.remote, code, body, c.want)
		}
		if c.want == http.StatusTooManyRequests && !strings.Contains(body, `"RATE_LIMITED"`) {
			t.Errorf("from %s: the refusal %s does not say RATE_LIMITED", c.remote, body)
		}
	}
}

// Registrations per hour count an IPv6 address by its /64 too.
func TestRegistrationsKeyIPv6ByItsBlock(t *testing.T) {
	r := &Resolver{Engine: engine.New(engine.Config{Store: memstore.New()})}
	defer r.Close()
	h := Handler(r, Limits{RegistrationsPerHour: 1, Log: slog.New(slog.DiscardHandler)})
	register := `{"query": "mutation($n: String!) { registerPlayer(name: $n) { player { id } } }", "variables": {"n": "%s"}}`
	for _, c := range []struct {
		remote, name string
		limited      bool
	}{
		{"[2001:db8:5:6::1]:40000", "ann", false},
		{"[2001:db8:5:6::2]:40000", "bob", true},
		{"[2001:db8:5:7::1]:40000", "cid", false},
	} {
		code, body := post(t, h, c.remote, strings.Replace(register, "%s", c.name, 1))
		if got := strings.Contains(body, `"RATE_LIMITED"`); code != http.StatusOK || got != c.limited {
			t.Errorf("%s from %s: %d %s, want limited=%v", c.name, c.remote, code, body, c.limited)
		}
	}
}
