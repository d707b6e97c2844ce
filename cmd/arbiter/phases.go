package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// A move's latency, split where it changes hands (`arbiter bench --phases`). The clock
// readings are the bench's, around engine.Handle, and the store's, in the append's
// eventstore.AppendTrace; each phase is the time between two consecutive readings, so the
// phases of a move add up to its latency exactly.
const (
	// phaseBacklog is from when the move was due until its match's previous move returned,
	// if that was later: a match sends one move at a time, so once it is late its next
	// moves are due before they can be sent, and the latency of one slow move counts again
	// in the next ones (as a player's would).
	phaseBacklog = iota
	phaseLag     // then to the call of Handle: the generator's timer and a wait for a CPU
	phaseDecide  // Handle up to the append: the cache, the rules, encoding the events
	phaseQueue   // in the writer's queue, behind the transactions before its own
	phaseCommit  // its transaction, from the writer taking it to COMMIT's return
	phaseWake    // from the commit to the caller's goroutine running again
	phaseAfter   // the engine's work after the append (the fold), until Handle returned
	numPhases
)

var phaseNames = [numPhases]string{"backlog", "lag", "decide", "queue", "commit", "wake", "after"}

// movePhases is one move's latency, split.
type movePhases [numPhases]time.Duration

// Total is the move's latency: the sum of its phases.
func (p movePhases) Total() time.Duration {
	var t time.Duration
	for _, d := range p {
		t += d
	}
	return t
}

// splitMove splits a move due at due, whose match's previous move returned at prev (zero
// for the first), and whose Handle ran from start to end, with the stamps of its append
// in t. ok is false if the store did not stamp the append (a store without a writer
// queue) or the stamps are out of order.
func splitMove(due, prev, start, end time.Time, t *eventstore.AppendTrace) (p movePhases, ok bool) {
	ready := due
	if prev.After(due) {
		ready = prev
	}
	marks := [numPhases + 1]time.Time{due, ready, start, t.Queued, t.Began, t.Committed, t.Resumed, end}
	for i := range p {
		if marks[i].IsZero() || marks[i+1].Before(marks[i]) {
			return movePhases{}, false
		}
		p[i] = marks[i+1].Sub(marks[i])
	}
	return p, true
}

// phaseReport is what a run's split moves say: for the moves around the median and the
// slowest 1 %, each phase's mean, and each phase's own percentiles over all moves.
type phaseReport struct {
	Moves          int // moves split (every move of the timed part, when the store stamps)
	Median, Slow   movePhases
	MedianN, SlowN int
	P50, P99       movePhases // of each phase alone
}

// reportPhases summarizes moves; it sorts them by latency.
func reportPhases(moves []movePhases) phaseReport {
	r := phaseReport{Moves: len(moves)}
	if len(moves) == 0 {
		return r
	}
	slices.SortFunc(moves, func(a, b movePhases) int { return int(a.Total() - b.Total()) })
	// The median move alone is one sample; the 1 % of moves around it say the same more
	// steadily.
	lo, hi := len(moves)*495/1000, max(len(moves)*505/1000, len(moves)/2+1)
	r.Median, r.MedianN = meanPhases(moves[lo:hi]), hi-lo
	slow := moves[min(len(moves)*99/100, len(moves)-1):]
	r.Slow, r.SlowN = meanPhases(slow), len(slow)
	alone := make([]time.Duration, len(moves))
	for ph := range numPhases {
		for i, m := range moves {
			alone[i] = m[ph]
		}
		slices.Sort(alone)
		r.P50[ph], r.P99[ph] = alone[len(alone)*50/100], alone[min(len(alone)*99/100, len(alone)-1)]
	}
	return r
}

func meanPhases(moves []movePhases) movePhases {
	var sum movePhases
	for _, m := range moves {
		for ph, d := range m {
			sum[ph] += d
		}
	}
	for ph := range sum {
		sum[ph] /= time.Duration(len(moves))
	}
	return sum
}

func (r phaseReport) print(w io.Writer) {
	if r.Moves == 0 {
		fmt.Fprintln(w, "phases:  none: the store did not stamp its appends (it has no writer queue)")
		return
	}
	fmt.Fprintf(w, "phases:  where a move's time went, in ms, of %d moves (--phases)\n", r.Moves)
	fmt.Fprintf(w, "         %-26s", "")
	for _, n := range phaseNames {
		fmt.Fprintf(w, " %8s", n)
	}
	fmt.Fprintf(w, " %8s\n", "total")
	row := func(label string, p movePhases, total bool) {
		fmt.Fprintf(w, "         %-26s", label)
		for _, d := range p {
			fmt.Fprintf(w, " %8.3f", ms(d))
		}
		if total {
			fmt.Fprintf(w, " %8.3f", ms(p.Total()))
		}
		fmt.Fprintln(w)
	}
	row(fmt.Sprintf("median, mean of %d", r.MedianN), r.Median, true)
	row(fmt.Sprintf("slowest 1%%, mean of %d", r.SlowN), r.Slow, true)
	row("each alone, p50", r.P50, false)
	row("each alone, p99", r.P99, false)
	fmt.Fprintf(w, "         %s\n", strings.Join([]string{
		"backlog: due to the match's previous move's return", "lag: then to Handle", "decide: to the append", "queue: behind other transactions",
		"commit: its transaction", "wake: commit to the caller running", "after: the fold"}, "; "))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
