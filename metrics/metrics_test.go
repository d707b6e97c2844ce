package metrics

import (
	"math"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTheTextFormat(t *testing.T) {
	r := New()
	r.Command("act", "ok", 700*time.Microsecond)
	r.Command("act", "ok", 30*time.Millisecond)
	r.Command("act", "illegal_move", 200*time.Microsecond)
	r.Gauge("arbiter_matches", "Matches by status.", func() []Sample {
		return []Sample{{Labels: []string{"status", "LIVE"}, Value: 3}}
	})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	for _, want := range []string{
		"# TYPE arbiter_command_seconds histogram\n",
		`arbiter_command_seconds_bucket{kind="act",outcome="ok",le="0.0005"} 0` + "\n",
		`arbiter_command_seconds_bucket{kind="act",outcome="ok",le="0.001"} 1` + "\n",
		`arbiter_command_seconds_bucket{kind="act",outcome="ok",le="0.05"} 2` + "\n",
		`arbiter_command_seconds_bucket{kind="act",outcome="ok",le="+Inf"} 2` + "\n",
		`arbiter_command_seconds_count{kind="act",outcome="ok"} 2` + "\n",
		`arbiter_command_seconds_count{kind="act",outcome="illegal_move"} 1` + "\n",
		"# TYPE arbiter_matches gauge\n",
		`arbiter_matches{status="LIVE"} 3` + "\n",
		"# TYPE arbiter_goroutines gauge\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	var sum float64
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, `arbiter_command_seconds_sum{kind="act",outcome="ok"} `); ok {
			sum, _ = strconv.ParseFloat(v, 64)
		}
	}
	if math.Abs(sum-0.0307) > 1e-9 {
		t.Errorf("the sum of the two acts is %g, want 0.0307", sum)
	}
	if runtime.GOOS == "linux" {
		var rss float64
		for line := range strings.Lines(out) {
			if v, ok := strings.CutPrefix(line, "arbiter_process_resident_bytes "); ok {
				rss, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
			}
		}
		// A running Go test holds megabytes; below one, the unit (kB) was not converted.
		if rss < 1<<20 {
			t.Errorf("arbiter_process_resident_bytes is %g, want the process's RSS in bytes, in:\n%s", rss, out)
		}
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content type %q", ct)
	}
}
