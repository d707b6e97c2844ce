package replay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// The checks a Problem may name.
const (
	CheckChain   = "chain"   // the hash chain (eventstore.VerifyChain)
	CheckVersion = "version" // versions count up from 1 without a gap
	CheckDecode  = "decode"  // the payload reads as an event of the pinned rules
	// The match's own audit (match.Audit) names the others.
	CheckLifecycle = match.CheckLifecycle
	CheckSeed      = match.CheckSeed
	CheckSetup     = match.CheckSetup
	CheckRules     = match.CheckRules
	CheckResult    = match.CheckResult
	CheckSight     = match.CheckSight
	CheckFairness  = match.CheckFairness
)

// maxProblems bounds the problems kept per stream: after a real break, later checks
// mostly report its consequences.
const maxProblems = 20

// Problem is one thing wrong in a stream.
type Problem struct {
	Version int64  // the event's version; 0 when it is about the stream as a whole
	Check   string // one of the Check constants
	Detail  string // what differs: what is recorded and what was expected
}

func (p Problem) String() string {
	if p.Version == 0 {
		return fmt.Sprintf("%s: %s", p.Check, p.Detail)
	}
	return fmt.Sprintf("version %d: %s: %s", p.Version, p.Check, p.Detail)
}

// Report is the verification of one stream.
type Report struct {
	Stream   string
	MatchID  string // "" for a stream that is not a match's (a player's)
	Game     string
	Events   int
	Version  int64 // the last version read
	Status   match.Status
	Seats    int // how many seats the match has
	Result   *game.Outcome
	Ending   string // the result for a person to read (see Result); "" before the end
	Problems []Problem
	// Fairness is what a fairness verification (VerifyFairness) drew again; nil when it
	// was not asked for, or the match was not over.
	Fairness *Fairness
}

// OK reports whether the stream verified.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Err returns nil for a stream that verified, or an error naming the stream and its first
// problem.
func (r Report) Err() error {
	if r.OK() {
		return nil
	}
	name := r.Stream
	if r.MatchID != "" {
		name = "match " + r.MatchID
	}
	more := ""
	if n := len(r.Problems) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more problem(s))", n)
	}
	return fmt.Errorf("%s: %s%s", name, r.Problems[0], more)
}

func (r *Report) add(version int64, check, format string, args ...any) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, Problem{Version: version, Check: check, Detail: fmt.Sprintf(format, args...)})
	}
}

// Verify reads a match's stream and checks it. A problem with the stream goes into the
// Report; the error is for a store that could not be read or a match that does not exist.
//
// The stream's own checks are here: the hash chain, contiguous versions, and every payload
// decoding under the rules the match pinned in MatchCreated, its first event. Each event
// then goes to the match's audit (match.Audit), which checks it against the state before
// it under the match's rules.
func Verify(ctx context.Context, store Reader, games *game.Registry, matchID string) (Report, error) {
	return verifyMatch(ctx, store, games, matchID, false)
}

// verifyMatch is Verify, and with fair VerifyFairness.
func verifyMatch(ctx context.Context, store Reader, games *game.Registry, matchID string, fair bool) (Report, error) {
	stream := matchstream.Name(matchID)
	evs, err := readMatch(ctx, store, games, matchID)
	if err != nil {
		return Report{}, err
	}
	if len(evs) == 0 {
		return Report{}, game.Reject(game.NotFound, "no match %q in this store", matchID)
	}
	return verifyEvents(games, stream, evs, fair), nil
}

// VerifyEvents checks the events of one stream, as Verify does; a stream that is not a
// match's gets its chain and versions checked only. A match's events may hold those of
// its hidden streams (matchstream.Hidden), in global order: each stream's chain is checked
// apart, and the match is audited from all of them.
func VerifyEvents(games *game.Registry, stream string, evs []eventstore.Event) Report {
	return verifyEvents(games, stream, evs, false)
}

// verifyEvents is VerifyEvents, and with fair the match's fairness too (VerifyFairness).
func verifyEvents(games *game.Registry, stream string, evs []eventstore.Event, fair bool) Report {
	r := Report{Stream: stream, Events: len(evs)}
	byStream := map[string][]eventstore.Event{}
	var streams []string
	for _, ev := range evs {
		if ev.Stream == stream {
			r.Version = ev.Version
		}
		if byStream[ev.Stream] == nil {
			streams = append(streams, ev.Stream)
		}
		byStream[ev.Stream] = append(byStream[ev.Stream], ev)
	}
	for _, s := range streams {
		if err := eventstore.VerifyChain(byStream[s]); err != nil {
			var ce *eventstore.ChainError
			where := ""
			if s != stream {
				where = s + ": "
			}
			if errors.As(err, &ce) {
				r.add(ce.Version, CheckChain, "%s%s", where, ce.Reason)
			} else {
				r.add(0, CheckChain, "%s%v", where, err)
			}
		}
	}
	id, isMatch := matchstream.MatchID(stream)
	if !isMatch {
		for i, ev := range evs {
			if ev.Version != int64(i)+1 {
				r.add(int64(i)+1, CheckVersion, "the event here has version %d", ev.Version)
				break
			}
		}
		return r
	}
	r.MatchID = id
	rules, st := audit(games, &r, evs, fair)
	r.Status, r.Result, r.Seats = st.Status, st.Result, len(st.Seats)
	r.Game, r.Ending = st.Game, Result(rules, st)
	return r
}

// audit checks the versions of a match's events and decodes them under the rules its
// first event pinned, and has the match's audit check each; it returns the rules and the
// state folded as far as the audit went.
func audit(games *game.Registry, r *Report, evs []eventstore.Event, fair bool) (game.Rules, match.State) {
	var a *match.Audit
	result := func() (game.Rules, match.State) {
		if a == nil {
			return nil, match.State{}
		}
		return a.Rules(), a.State()
	}
	var at matchstream.Cursor
	for _, stored := range evs {
		ev := matchstream.Record(stored)
		live, err := at.Next(r.MatchID, stored)
		if err != nil {
			r.add(stored.Version, CheckVersion, "%v: the stream has a gap or a duplicate", errors.Unwrap(err))
			return result()
		}
		if !live {
			continue // a covert event that lost a race to a public one: void, and never folded
		}
		version := ev.Version
		if a == nil { // the first live event: void covert events before it are skipped
			rules, err := match.Folder{Games: games}.Rules(ev)
			if err != nil {
				r.add(version, CheckLifecycle, "%v", err)
				return result()
			}
			a = match.NewAudit(r.MatchID, rules, r.add)
			if fair {
				r.Fairness = fairnessOf(a, rules, evs)
			}
		}
		d, err := ev.Decode(a.Rules())
		if err != nil {
			r.add(version, CheckDecode, "%v", err)
			return result()
		}
		// A covert event in the match's own stream would be counted by everyone; a public
		// one in a hidden stream would never reach them.
		if want, err := matchstream.StreamOf(r.MatchID, d, ev.Visibility); err != nil {
			r.add(version, CheckSight, "%s is stored in %s: %v", ev.Type, stored.Stream, err)
		} else if want != stored.Stream {
			r.add(version, CheckSight, "%s is stored in %s: covert %v, it belongs in %s", ev.Type, stored.Stream, game.IsCovert(d), want)
		}
		if !a.Check(ev, d) {
			return result()
		}
	}
	if a != nil {
		a.End()
		if r.Fairness != nil {
			r.Fairness.fill(a)
		}
	}
	return result()
}

// Options tune VerifyAll.
type Options struct {
	// Progress, when not nil, is called as streams are found and as they are verified.
	Progress func(p Progress)
	// Workers is how many streams are verified at once (default GOMAXPROCS).
	Workers int
	// Fairness verifies each finished match's random outcomes too (VerifyFairness); a
	// match not over yet is verified without them (its Report's Fairness is nil).
	Fairness bool
}

// Progress is how far VerifyAll has come.
type Progress struct {
	Scanned  int64 // events read while listing streams
	Head     int64 // the store's last position when the listing ended
	Streams  int   // streams found
	Verified int   // streams verified so far
}

// VerifyAll lists every stream of the store (through ReadAll, in order of first
// appearance) and verifies each: a match stream fully, any other stream's hash chain and
// versions. Reports come back in that order.
func VerifyAll(ctx context.Context, store Reader, games *game.Registry, opts Options) ([]Report, error) {
	progress := opts.Progress
	if progress == nil {
		progress = func(Progress) {}
	}
	var (
		streams []string
		seen    = map[string]bool{}
		p       Progress
	)
	for {
		page, err := store.ReadAll(ctx, p.Head, 4096)
		if err != nil {
			return nil, fmt.Errorf("replay: listing streams after position %d: %w", p.Head, err)
		}
		for _, ev := range page {
			if !seen[ev.Stream] {
				seen[ev.Stream] = true
				streams = append(streams, ev.Stream)
			}
		}
		if len(page) == 0 {
			break
		}
		p.Scanned += int64(len(page))
		p.Head = page[len(page)-1].Position
		p.Streams = len(streams)
		progress(p)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	reports := make([]Report, len(streams))
	errs := make([]error, len(streams))
	next := make(chan int)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				var (
					evs []eventstore.Event
					err error
				)
				if id, ok := matchstream.MatchID(streams[i]); ok {
					evs, err = readMatch(ctx, store, games, id) // its own stream and its hidden ones
				} else {
					evs, err = readStream(ctx, store, streams[i])
				}
				if err == nil {
					reports[i] = verifyEvents(games, streams[i], evs, opts.Fairness && revealed(evs))
				}
				errs[i] = err
				mu.Lock()
				p.Verified++
				progress(p)
				mu.Unlock()
			}
		})
	}
feed:
	for i := range streams {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return reports, nil
}
