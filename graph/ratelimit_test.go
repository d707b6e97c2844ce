package graph

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	l := newLimiter(2, 3) // 2 per second, bursts of 3
	l.now = func() time.Time { return now }
	for i := range 3 {
		if ok, _ := l.take("ann"); !ok {
			t.Fatalf("request %d of a burst of 3 refused", i+1)
		}
	}
	ok, wait := l.take("ann")
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("the fourth at once: ok=%v, retry in %s, want refused and 500ms", ok, wait)
	}
	if ok, _ := l.take("bob"); !ok {
		t.Fatalf("another caller has a bucket of its own")
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := l.take("ann"); !ok {
		t.Fatalf("half a second later, one more")
	}
	if ok, _ := l.take("ann"); ok {
		t.Fatalf("and only one")
	}
	now = now.Add(time.Hour)
	l.sweep(now)
	if len(l.buckets) != 0 {
		t.Fatalf("full buckets are forgotten: %d left", len(l.buckets))
	}
}

func TestRateLimitedAnswer(t *testing.T) {
	l := newLimiter(1, 1)
	w := httptest.NewRecorder()
	l.refuse(w, 200*time.Millisecond)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), `"code":"RATE_LIMITED"`) {
		t.Fatalf("the refusal: %d %v %s", w.Code, w.Header(), w.Body)
	}
}
