package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// The checks a Problem may name.
const (
	CheckChain     = "chain"     // the hash chain (eventstore.VerifyChain)
	CheckVersion   = "version"   // versions count up from 1 without a gap
	CheckDecode    = "decode"    // the payload reads as an event of the pinned rules
	CheckLifecycle = "lifecycle" // the order of creation, seats, start, play and end
	CheckSeed      = "seed"      // the seed matches its commitment
	CheckSetup     = "setup"     // the game's opening events follow from the seed
	CheckRules     = "rules"     // a game event is what the rules record (game.Auditor, Evolve)
	CheckResult    = "result"    // MatchEnded says what the game's status says
	CheckSight     = "sight"     // a game event is stored with the visibility the rules give it (game.Sighted)
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
// The commands that caused the events are not stored, so match.Decide cannot be run
// again. Verify checks instead that the stream is one the rules could have produced:
//   - the hash chain and contiguous versions;
//   - every payload decodes under the rules the match pinned in MatchCreated, its first event;
//   - the lifecycle's order: seats taken while open, game events only while live, nothing
//     after the end but the seed's reveal;
//   - the seed: SeedDrawn and SeedRevealed match MatchCreated's commitment, and the game's
//     opening events after MatchStarted are what Setup deals from that seed;
//   - each game event: Evolve accepts it, and a game that implements game.Auditor agrees
//     that it is exactly what its rules record from the state before (for chess: SAN and
//     FEN follow from the UCI move);
//   - a seat's withdrawal (game.Withdrawing, Sovereign Chess Royale): right after a
//     Resigned that leaves the match going on come exactly the events Withdraw gives
//     for the seat at the Resigned's time (the command's, which the events of a command
//     share), or at no time (as stored before Withdraw was told the time), and no game
//     event elsewhere is a seat's withdrawal;
//   - the result: a game that ends by itself is followed by MatchEnded with the outcome
//     that the game's Status gives; a resignation leaves the other side as winners, an
//     agreement has none.
func Verify(ctx context.Context, store Reader, games *game.Registry, matchID string) (Report, error) {
	stream := matchstream.Name(matchID)
	evs, err := readStream(ctx, store, stream)
	if err != nil {
		return Report{}, err
	}
	if len(evs) == 0 {
		return Report{}, game.Reject(game.NotFound, "no match %q in this store", matchID)
	}
	return VerifyEvents(games, stream, evs), nil
}

// VerifyEvents checks the events of one stream, as Verify does; a stream that is not a
// match's gets its chain and versions checked only.
func VerifyEvents(games *game.Registry, stream string, evs []eventstore.Event) Report {
	r := Report{Stream: stream, Events: len(evs)}
	if len(evs) > 0 {
		r.Version = evs[len(evs)-1].Version
	}
	if err := eventstore.VerifyChain(evs); err != nil {
		var ce *eventstore.ChainError
		if errors.As(err, &ce) {
			r.add(ce.Version, CheckChain, "%s", ce.Reason)
		} else {
			r.add(0, CheckChain, "%v", err)
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
	v := verifier{games: games, r: &r, forfeiter: -1}
	v.run(evs)
	r.Status, r.Result, r.Seats = v.st.Status, v.st.Result, len(v.st.Seats)
	r.Game, r.Ending = v.st.Game, Result(v.rules, v.st)
	return r
}

// verifier folds a match stream and checks each event against the state before it.
type verifier struct {
	games *game.Registry
	r     *Report
	rules game.Rules
	st    match.State

	seed   []byte         // from SeedDrawn
	setup  []game.Emitted // opening events still expected from Setup
	overAt int64          // version of the game event after which the game was over
	overAs game.Outcome   // the outcome the game's Status gave then

	// withdrawal holds the events still expected from game.Withdrawing after a Resigned
	// that left the match going on; withdrawer is the seat that resigned. untimed is the
	// withdrawal at no time, until the first of its events says which one is stored.
	withdrawal []game.Emitted
	untimed    []game.Emitted
	withdrawer int

	forfeiter int  // the seat a Forfeited names, whose Resigned must come next; -1 for none
	forfeited bool // the last Resigned carried out a forfeit
}

func (v *verifier) run(evs []eventstore.Event) {
	for i, stored := range evs {
		version, ev := int64(i)+1, matchstream.Record(stored)
		if ev.Version != version {
			v.r.add(version, CheckVersion, "the event here has version %d: the stream has a gap or a duplicate", ev.Version)
			return
		}
		if i == 0 {
			rules, err := match.Folder{Games: v.games}.Rules(ev)
			if err != nil {
				v.r.add(version, CheckLifecycle, "%v", err)
				return
			}
			v.rules = rules
		}
		d, err := ev.Decode(v.rules)
		if err != nil {
			v.r.add(version, CheckDecode, "%v", err)
			return
		}
		if !v.check(ev, d) {
			return
		}
	}
	switch {
	case v.overAt > 0 && v.st.Status == match.Live:
		v.r.add(0, CheckResult, "the game ended at version %d (%s) but no MatchEnded follows", v.overAt, v.overAs.Reason)
	case v.st.Status == match.Finished && !v.st.SeedRevealed:
		v.r.add(0, CheckSeed, "the match is over but its seed was never revealed")
	case len(v.setup) > 0:
		v.r.add(0, CheckSetup, "the stream ends before the game's opening event %s", v.setup[0].Event.EventType())
	}
}

// check verifies one decoded event against the state before it and folds it; false stops
// the fold (the state no longer means anything).
func (v *verifier) check(ev match.Recorded, d game.Event) bool {
	version, st := ev.Version, &v.st
	if r, ok := d.(match.Resigned); ok {
		v.forfeited = v.forfeiter == r.Seat
	}
	if v.forfeiter >= 0 {
		if r, ok := d.(match.Resigned); !ok || r.Seat != v.forfeiter {
			v.r.add(version, CheckLifecycle, "%s where seat %d's resignation should follow its forfeit", ev.Type, v.forfeiter)
		}
		v.forfeiter = -1
	}
	if st.Status == match.Finished {
		if _, ok := d.(match.SeedRevealed); !ok || st.SeedRevealed {
			v.r.add(version, CheckLifecycle, "%s after the match ended", ev.Type)
		}
	}
	if v.overAt > 0 && st.Status == match.Live {
		if _, ok := d.(match.MatchEnded); !ok {
			v.r.add(version, CheckResult, "%s after the game ended at version %d (%s): MatchEnded should have followed", ev.Type, v.overAt, v.overAs.Reason)
			v.overAt = 0
		}
	}
	switch {
	case len(v.setup) > 0:
		want := v.setup[0]
		v.setup = v.setup[1:]
		v.expect(ev, d, want, CheckSetup, "the opening dealt from the seed")
	case len(v.withdrawal) > 0:
		if len(v.untimed) > 0 {
			if same, _ := sameEvent(d, v.untimed[0].Event); same {
				v.withdrawal = v.untimed
			}
			v.untimed = nil
		}
		want := v.withdrawal[0]
		v.withdrawal = v.withdrawal[1:]
		v.expect(ev, d, want, CheckRules, fmt.Sprintf("the withdrawal of seat %d, who resigned,", v.withdrawer))
	case !match.IsLifecycle(ev.Type):
		if st.Status != match.Live {
			v.r.add(version, CheckLifecycle, "game event %s while the match is %s", ev.Type, statusName(st.Status))
		}
		if a, ok := v.rules.(game.Auditor); ok {
			if err := a.Audit(st.GameState, d); err != nil {
				v.r.add(version, CheckRules, "%v", err)
			}
		}
		if s, ok := v.rules.(game.Sighted); ok {
			if want := s.Sight(d); want != ev.Visibility {
				v.r.add(version, CheckSight, "%s is stored visible to %s; the rules show it to %s", ev.Type, sightName(ev.Visibility), sightName(want))
			}
		}
		v.strayWithdrawal(ev, d)
	}
	switch e := d.(type) {
	case match.MatchCreated:
		if version != 1 {
			v.r.add(version, CheckLifecycle, "a second MatchCreated")
		}
		if e.Reserved != nil && len(e.Reserved) != e.Seats {
			v.r.add(version, CheckLifecycle, "%d seats reserved in a match of %d", len(e.Reserved), e.Seats)
			return false
		}
		if plan, err := v.rules.Plan(match.GameOptions(e.Options)); err != nil {
			v.r.add(version, CheckLifecycle, "the rules refuse the match's options: %v", err)
		} else if plan.Seats != e.Seats || !slices.Equal(plan.Teams, e.Teams) {
			v.r.add(version, CheckLifecycle, "%d seats in teams %v recorded; the options give %d in teams %v", e.Seats, e.Teams, plan.Seats, plan.Teams)
		}
		if e.RematchOf != "" && match.RematchID(e.RematchOf) != v.r.MatchID {
			v.r.add(version, CheckLifecycle, "the rematch of %s would be match %s, not %s", e.RematchOf, match.RematchID(e.RematchOf), v.r.MatchID)
		}
	case match.SeedDrawn:
		switch {
		case v.seed != nil:
			v.r.add(version, CheckLifecycle, "a second SeedDrawn")
		case match.Commitment(e.Seed) != st.SeedCommitment:
			v.r.add(version, CheckSeed, "SeedDrawn's seed hashes to %s, MatchCreated committed to %s", match.Commitment(e.Seed), st.SeedCommitment)
		}
		v.seed = e.Seed
	case match.SeatTaken:
		switch {
		case st.Status != match.Open:
			v.r.add(version, CheckLifecycle, "SeatTaken while the match is %s", statusName(st.Status))
		case e.Seat < 0 || e.Seat >= len(st.Seats):
			v.r.add(version, CheckLifecycle, "SeatTaken names seat %d; the match has %d seats", e.Seat, len(st.Seats))
			return false
		case st.Seats[e.Seat].Taken():
			v.r.add(version, CheckLifecycle, "seat %d is taken twice", e.Seat)
		case st.SeatOf(e.PlayerID) >= 0 && !e.Bot:
			v.r.add(version, CheckLifecycle, "player %s sits at two seats", e.PlayerID)
		case st.Reserved != nil && st.Reserved[e.Seat] != e.PlayerID:
			v.r.add(version, CheckLifecycle, "player %s sits at seat %d, kept for %q", e.PlayerID, e.Seat, st.Reserved[e.Seat])
		}
	case match.MatchStarted:
		v.started(ev)
	case match.SeatLeft, match.SeatReturned, match.Forfeited:
		v.presence(ev, d)
	case match.DrawOffered, match.DrawAccepted, match.DrawDeclined, match.Resigned:
		if st.Status != match.Live {
			v.r.add(version, CheckLifecycle, "%s while the match is %s", ev.Type, statusName(st.Status))
		}
		if e, ok := d.(match.Resigned); ok {
			v.resigned(e.Seat, ev.Time)
		}
		if e, ok := d.(match.DrawOffered); ok && e.Seat >= 0 && e.Seat < len(st.Offered) && st.Offered[e.Seat] && !st.StartedAt.IsZero() {
			v.r.add(version, CheckLifecycle, "seat %d offers a draw again before an opponent has moved", e.Seat)
		}
	case match.MatchEnded:
		v.ended(version, e, ev.Time)
	case match.SeatVacated:
		switch {
		case st.Status != match.Open:
			v.r.add(version, CheckLifecycle, "SeatVacated while the match is %s", statusName(st.Status))
		case e.Seat < 0 || e.Seat >= len(st.Seats) || !st.Seats[e.Seat].Taken():
			v.r.add(version, CheckLifecycle, "seat %d is vacated, but nobody sits there", e.Seat)
			return false
		}
	case match.SeedRevealed:
		switch {
		case st.Status != match.Finished:
			v.r.add(version, CheckLifecycle, "SeedRevealed before the match ended")
		case match.Commitment(e.Seed) != st.SeedCommitment:
			v.r.add(version, CheckSeed, "the revealed seed hashes to %s, MatchCreated committed to %s", match.Commitment(e.Seed), st.SeedCommitment)
		case v.seed != nil && !bytes.Equal(e.Seed, v.seed):
			v.r.add(version, CheckSeed, "the revealed seed is not the one drawn at creation")
		}
	}
	if !v.evolve(version, d) {
		return false
	}
	if !match.IsLifecycle(ev.Type) && st.Status == match.Live && v.overAt == 0 {
		if gs := v.rules.Status(st.GameState); gs.Over {
			v.overAt, v.overAs = version, gs.Outcome
		}
	}
	return true
}

// evolve folds d, turning a panic of the rules into a problem.
func (v *verifier) evolve(version int64, d game.Event) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			v.r.add(version, CheckRules, "the rules cannot apply %s: %v", d.EventType(), p)
			ok = false
		}
	}()
	v.st = match.Evolve(v.rules, v.st, d)
	return true
}

// started checks that every seat is taken and deals the game's opening again from the
// seed, to compare it with the events that follow.
func (v *verifier) started(ev match.Recorded) {
	st := &v.st
	if st.Status != match.Open {
		v.r.add(ev.Version, CheckLifecycle, "MatchStarted while the match is %s", statusName(st.Status))
		return
	}
	for i, s := range st.Seats {
		if !s.Taken() {
			v.r.add(ev.Version, CheckLifecycle, "MatchStarted with seat %d free", i)
		}
	}
	if v.seed == nil {
		v.r.add(ev.Version, CheckSeed, "the match started without a SeedDrawn: its opening cannot be checked")
		return
	}
	// The engine does not record the command's receive time; the start event's time is
	// the closest record of it. Games whose opening depends on it would need it stored.
	opening, err := v.rules.Setup(game.Setup{Plan: st.Plan, Options: match.GameOptions(st.Options), Seed: v.seed, At: ev.Time})
	if err != nil {
		v.r.add(ev.Version, CheckSetup, "the rules refuse to deal this match's opening: %v", err)
		return
	}
	v.setup = opening
}

// expect compares one stored event with the event the rules give there (want), under
// check; source names what gives it.
func (v *verifier) expect(ev match.Recorded, d game.Event, want game.Emitted, check, source string) {
	if ev.Type != want.Event.EventType() {
		v.r.add(ev.Version, check, "%s recorded where %s records %s", ev.Type, source, want.Event.EventType())
		return
	}
	if ev.Visibility != want.Visibility {
		v.r.add(ev.Version, check, "%s has visibility %q; the rules give it %q", ev.Type, ev.Visibility, want.Visibility)
	}
	if same, err := sameEvent(d, want.Event); err != nil {
		v.r.add(ev.Version, check, "encoding %s: %v", ev.Type, err)
	} else if !same {
		got, _ := game.Encode(d)
		exp, _ := game.Encode(want.Event)
		v.r.add(ev.Version, check, "%s recorded as %s; %s records %s", ev.Type, got, source, exp)
	}
}

// sameEvent reports whether two events are stored alike. Both go through the event's
// struct, which drops the salt of a private payload.
func sameEvent(a, b game.Event) (bool, error) {
	if a.EventType() != b.EventType() {
		return false, nil
	}
	pa, err1 := game.Encode(a)
	pb, err2 := game.Encode(b)
	if err := errors.Join(err1, err2); err != nil {
		return false, err
	}
	return bytes.Equal(pa, pb), nil
}

// resigned expects, after seat's resignation at at, the events by which a game that
// implements game.Withdrawing takes the seat out of play, when the match goes on: the
// match records them right after Resigned (match.Decide), given the command's time, which
// the store records on every event of the command.
func (v *verifier) resigned(seat int, at time.Time) {
	st := v.st
	st.Resigned = append(slices.Clone(st.Resigned), seat)
	w, ok := v.rules.(game.Withdrawing)
	if _, teams := seatsLeft(v.rules, st); !ok || teams <= 1 || st.GameState == nil {
		return
	}
	v.withdrawal, v.withdrawer = w.Withdraw(st.GameState, seat, at), seat
	v.untimed = w.Withdraw(st.GameState, seat, time.Time{})
}

// strayWithdrawal reports a game event that is the withdrawal of a seat that did not
// resign just before, at the event's time or at none: only the match's resignation may
// take a seat out of play.
func (v *verifier) strayWithdrawal(ev match.Recorded, d game.Event) {
	w, ok := v.rules.(game.Withdrawing)
	if !ok || v.st.GameState == nil {
		return
	}
	for seat := range v.st.Seats {
		for _, at := range []time.Time{ev.Time, {}} {
			if evs := w.Withdraw(v.st.GameState, seat, at); len(evs) > 0 {
				if same, _ := sameEvent(d, evs[0].Event); same {
					v.r.add(ev.Version, CheckRules, "%s takes seat %d out of play, but the seat did not resign just before", ev.Type, seat)
					return
				}
			}
		}
	}
}

// seatsLeft lists the seats still playing (match.State.Playing: neither resigned nor out
// by the game's decision), and counts their teams.
func seatsLeft(rules game.Rules, st match.State) (left []int, teams int) {
	seen := map[int]bool{}
	left = st.Playing(rules)
	for _, seat := range left {
		seen[st.Plan.Teams[seat]] = true
	}
	return left, len(seen)
}

// ended checks a MatchEnded, recorded at at, against the state before it.
func (v *verifier) ended(version int64, e match.MatchEnded, at time.Time) {
	st := &v.st
	if e.Reason == match.Cancelled {
		if st.Status != match.Open || len(e.Winners) != 0 {
			v.r.add(version, CheckResult, "cancelled with winners %v while the match is %s: only an open match is cancelled, for nobody", e.Winners, statusName(st.Status))
		}
		return
	}
	if st.Status != match.Live {
		v.r.add(version, CheckLifecycle, "MatchEnded while the match is %s", statusName(st.Status))
		return
	}
	winners := slices.Clone(e.Winners)
	slices.Sort(winners)
	abortAt, abortable := st.AbortAt()
	switch {
	case e.Reason == match.Aborted:
		switch {
		case st.Opened:
			v.r.add(version, CheckResult, "aborted after every seat had moved")
		case len(e.Winners) != 0:
			v.r.add(version, CheckResult, "aborted with winners %v", e.Winners)
		case !st.Rated && (!abortable || at.Before(abortAt)):
			v.r.add(version, CheckResult, "a friendly match aborted before its first moves were due")
		}
		v.overAt = 0
		return
	case st.Rated && !st.Opened && !st.StartedAt.IsZero(): // a start without its time predates the rule
		v.r.add(version, CheckResult, "a rated match ended by %s before every seat had moved: it should have been aborted", e.Reason)
	}
	switch e.Reason {
	case "resignation", "abandonment": // a forfeit for absence is carried out as a resignation
		left, teams := seatsLeft(v.rules, *st)
		switch {
		case len(st.Resigned) == 0:
			v.r.add(version, CheckResult, "ended by %s, but nobody resigned", e.Reason)
		case e.Reason == "abandonment" && !v.forfeited:
			v.r.add(version, CheckResult, "ended by abandonment, but the last resignation was no forfeit")
		case teams > 1:
			v.r.add(version, CheckResult, "ended by %s with %d teams still playing", e.Reason, teams)
		case !slices.Equal(winners, left) && !(len(winners) == 0 && len(left) == 0):
			v.r.add(version, CheckResult, "ended by %s with winners %v; the seats left are %v", e.Reason, e.Winners, left)
		}
	case "agreement":
		switch {
		case st.DrawOfferBy < 0:
			v.r.add(version, CheckResult, "ended by agreement without a pending draw offer")
		case len(e.Winners) != 0:
			v.r.add(version, CheckResult, "ended by agreement with winners %v", e.Winners)
		}
	default:
		gs := v.rules.Status(st.GameState)
		if !gs.Over {
			v.r.add(version, CheckResult, "ended by %q, but the game is not over", e.Reason)
			return
		}
		want := slices.Clone(gs.Outcome.Winners)
		slices.Sort(want)
		if e.Reason != gs.Outcome.Reason || !slices.Equal(winners, want) {
			v.r.add(version, CheckResult, "recorded winners %v by %q; the game says winners %v by %q", e.Winners, e.Reason, gs.Outcome.Winners, gs.Outcome.Reason)
		}
	}
	v.overAt = 0
}

func statusName(s match.Status) string {
	if s == match.None {
		return "not created"
	}
	return string(s)
}

// Options tune VerifyAll.
type Options struct {
	// Progress, when not nil, is called as streams are found and as they are verified.
	Progress func(p Progress)
	// Workers is how many streams are verified at once (default GOMAXPROCS).
	Workers int
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
				evs, err := readStream(ctx, store, streams[i])
				if err == nil {
					reports[i] = VerifyEvents(games, streams[i], evs)
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

// sightName writes a visibility for a person.
func sightName(v visibility.Visibility) string {
	if v.IsPublic() {
		return "everyone"
	}
	return v.String()
}

// presence checks the events of players leaving and coming back: only in a live match, a
// seat leaves once before it returns, and a forfeit comes no earlier than the match's rule
// allows (a claim after ClaimAfter away, the timer's forfeit at ForfeitAfter, or
// BotForfeitAfter against the bot).
func (v *verifier) presence(ev match.Recorded, d game.Event) {
	st := &v.st
	if st.Status != match.Live {
		v.r.add(ev.Version, CheckLifecycle, "%s while the match is %s", ev.Type, statusName(st.Status))
		return
	}
	switch e := d.(type) {
	case match.SeatLeft:
		if _, away := st.Away(e.Seat); away || e.Seat < 0 || e.Seat >= len(st.Seats) {
			v.r.add(ev.Version, CheckLifecycle, "seat %d leaves, but it has left already or does not exist", e.Seat)
		}
		if e.At.After(ev.Time) {
			v.r.add(ev.Version, CheckLifecycle, "seat %d left at %s, after the event recording it", e.Seat, e.At)
		}
	case match.SeatReturned:
		if _, away := st.Away(e.Seat); !away {
			v.r.add(ev.Version, CheckLifecycle, "seat %d returns, but it had not left", e.Seat)
		}
	case match.Forfeited:
		since, away := st.Away(e.Seat)
		switch {
		case !away || st.Abandon == nil:
			v.r.add(ev.Version, CheckLifecycle, "seat %d forfeits without having left under a rule for it", e.Seat)
		case e.ClaimedBy >= 0 && ev.Time.Sub(since) < time.Duration(st.Abandon.ClaimAfterMs)*time.Millisecond:
			v.r.add(ev.Version, CheckLifecycle, "seat %d's win was claimed %s after seat %d left; the rule waits %d ms", e.ClaimedBy, ev.Time.Sub(since), e.Seat, st.Abandon.ClaimAfterMs)
		case e.ClaimedBy < 0 && ev.Time.Sub(since) < st.ForfeitAfter(v.rules, e.Seat):
			v.r.add(ev.Version, CheckLifecycle, "seat %d forfeited %s after it left; the rule waits %s", e.Seat, ev.Time.Sub(since), st.ForfeitAfter(v.rules, e.Seat))
		}
		v.forfeiter = e.Seat
	}
}
