// Package metrics exposes what an operator watches on a running Arbiter, in the
// Prometheus text exposition format and without a dependency: the commands the engine
// decided (by kind and outcome) with their latency, and gauges read when scraped (matches
// by status, read-side lag, open subscriptions, Go's runtime).
package metrics

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// buckets are the upper bounds of the command latency histogram, in seconds: a durable
// append takes about a millisecond, a slow one under load a second.
var buckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// Registry collects the figures. The zero value is not usable: call New.
type Registry struct {
	mu       sync.Mutex
	commands map[[2]string]*histogram // (kind, outcome)
	gauges   []gauge
}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

type gauge struct {
	name, help string
	read       func() []Sample
}

// Sample is one value of a gauge, with its labels as name=value pairs.
type Sample struct {
	Labels []string // "status", "LIVE", ...
	Value  float64
}

// New returns an empty registry.
func New() *Registry { return &Registry{commands: map[[2]string]*histogram{}} }

// Command records a decided command: its kind ("act", "join", "create"...), its outcome
// ("ok", "duplicate", a rejection code in lower case, or "error") and how long it took.
func (r *Registry) Command(kind, outcome string, took time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.commands[[2]string{kind, outcome}]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(buckets)+1)}
		r.commands[[2]string{kind, outcome}] = h
	}
	s := took.Seconds()
	i := sort.SearchFloat64s(buckets, s)
	h.counts[i]++
	h.sum += s
	h.n++
}

// Gauge adds a gauge read at each scrape.
func (r *Registry) Gauge(name, help string, read func() []Sample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gauges = append(r.gauges, gauge{name: name, help: help, read: read})
}

// One is a gauge's read with a single, unlabelled value.
func One(f func() float64) func() []Sample {
	return func() []Sample { return []Sample{{Value: f()}} }
}

// ServeHTTP writes every figure in the Prometheus text format.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	r.Write(w)
}

// Write writes every figure in the Prometheus text format.
func (r *Registry) Write(w io.Writer) {
	r.mu.Lock()
	keys := make([][2]string, 0, len(r.commands))
	for k := range r.commands {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+"\x00"+keys[i][1] < keys[j][0]+"\x00"+keys[j][1] })
	var b strings.Builder
	b.WriteString("# HELP arbiter_command_seconds Commands the engine decided, by kind and outcome, and how long each took.\n")
	b.WriteString("# TYPE arbiter_command_seconds histogram\n")
	for _, k := range keys {
		h := r.commands[k]
		labels := fmt.Sprintf(`kind=%q,outcome=%q`, k[0], k[1])
		var cum uint64
		for i, le := range buckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "arbiter_command_seconds_bucket{%s,le=\"%g\"} %d\n", labels, le, cum)
		}
		fmt.Fprintf(&b, "arbiter_command_seconds_bucket{%s,le=\"+Inf\"} %d\n", labels, h.n)
		fmt.Fprintf(&b, "arbiter_command_seconds_sum{%s} %g\n", labels, h.sum)
		fmt.Fprintf(&b, "arbiter_command_seconds_count{%s} %d\n", labels, h.n)
	}
	gauges := append([]gauge(nil), r.gauges...)
	r.mu.Unlock()

	gauges = append(gauges,
		gauge{"arbiter_goroutines", "Goroutines of the process.", One(func() float64 { return float64(runtime.NumGoroutine()) })},
		gauge{"arbiter_heap_bytes", "Bytes of live heap objects (Go runtime).", One(func() float64 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return float64(m.HeapAlloc)
		})},
		gauge{"arbiter_process_resident_bytes", "Resident memory of the process (VmRSS of /proc/self/status; absent where there is none).", residentBytes},
	)
	for _, g := range gauges {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", g.name, g.help, g.name)
		for _, s := range g.read() {
			fmt.Fprintf(&b, "%s%s %s\n", g.name, labelText(s.Labels), value(s.Value))
		}
	}
	_, _ = io.WriteString(w, b.String())
}

func labelText(kv []string) string {
	if len(kv) == 0 {
		return ""
	}
	parts := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, fmt.Sprintf("%s=%q", kv[i], kv[i+1]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func value(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return fmt.Sprintf("%g", v)
}

// residentBytes is the gauge of Resident: no sample rather than a false 0 where unknown.
func residentBytes() []Sample {
	if rss, ok := Resident(); ok {
		return []Sample{{Value: rss}}
	}
	return nil
}

// Resident reads the process's resident set, in bytes, from /proc/self/status: the memory
// the system gives the process, which is what a load test divides by its connections (the
// Go heap leaves out stacks, buffers and what the runtime keeps). ok is false where the
// file does not exist (not Linux).
func Resident() (rss float64, ok bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}
