package match

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The checks an audit names, beside those of the stream that carries the events (its hash
// chain, versions and payloads: see replay).
const (
	CheckLifecycle = "lifecycle" // the order of creation, seats, start, play and end
	CheckSeed      = "seed"      // the seed matches its commitment
	CheckSetup     = "setup"     // the game's opening events follow from the seed
	CheckRules     = "rules"     // a game event is what the rules record (game.Auditor, Evolve)
	CheckResult    = "result"    // MatchEnded says what the game's status says
	CheckSight     = "sight"     // a game event is stored with the visibility the rules give it (game.Sighted)
	CheckFairness  = "fairness"  // a random outcome is what the revealed seed and the entropies draw (Audit.Fairness)
)

// Report receives what an audit finds wrong: the version of the event (0 for the match as
// a whole), the check it fails, and what differs, as a format and its arguments.
type Report func(version int64, check, format string, args ...any)

// Audit checks a match's stored events, in order, each against the state before it, and
// folds them. The commands that caused the events are not stored, so Decide cannot be run
// again; the audit checks instead that the events are ones the rules could have recorded:
//   - the lifecycle's order: seats taken while open, game events only while live, nothing
//     after the end but the seed's reveal;
//   - the seed: SeedDrawn and SeedRevealed match MatchCreated's commitment, and the game's
//     opening events after MatchStarted are what Setup deals from that seed;
//   - each game event: Evolve accepts it, a game that implements game.Auditor agrees that
//     it is exactly what its rules record from the state before (for chess: SAN and FEN
//     follow from the UCI move), and one that implements game.Sighted gives it the
//     visibility it is stored with;
//   - a seat's withdrawal (game.Withdrawing, Sovereign Chess Royale): right after a
//     Resigned that leaves the match going on come exactly the events Withdraw gives
//     for the seat at the Resigned's time (the command's, which the events of a command
//     share), and no game event elsewhere is a seat's withdrawal;
//   - presence: a seat leaves once before it returns, and forfeits no earlier than the
//     match's rule allows;
//   - the result: a game that ends by itself is followed by MatchEnded with the outcome
//     that the game's Status gives; a resignation leaves the other side as winners, an
//     agreement has none; an abort comes only before every seat has moved.
type Audit struct {
	id     string
	rules  game.Rules
	report Report
	st     State

	seed   []byte         // from SeedDrawn
	fair   bool           // the audit of the match's fairness (Fairness)
	reveal []byte         // the seed revealed at the end, under fair
	drawn  []Drawn        // the random outcomes recomputed, under fair
	setup  []game.Emitted // opening events still expected from Setup
	overAt int64          // version of the game event after which the game was over
	overAs game.Outcome   // the outcome the game's Status gave then

	// withdrawal holds the events still expected from game.Withdrawing after a Resigned
	// that left the match going on; withdrawer is the seat that resigned.
	withdrawal []game.Emitted
	withdrawer int

	forfeiter int  // the seat a Forfeited names, whose Resigned must come next; -1 for none
	forfeited bool // the last Resigned carried out a forfeit
}

// NewAudit starts the audit of match id, played under rules (those its MatchCreated
// pinned: see Folder.Rules); what it finds goes to report.
func NewAudit(id string, rules game.Rules, report Report) *Audit {
	return &Audit{id: id, rules: rules, report: report, forfeiter: -1}
}

// Drawn is one event whose random outcomes a fairness audit recomputed.
type Drawn struct {
	Version  int64
	Type     string
	Purposes []string // the labels of the streams they were drawn from (game.Random)
}

// Fairness makes the audit one of the match's fairness (`arbiter verify --fairness`): the
// openings and every random outcome the game records are drawn again from revealed, the
// seed of the match's SeedRevealed (the verifier reads it first), and the entropies of its
// seats; a difference is reported under CheckFairness with the purpose it was drawn for.
// Without a revealed seed the match cannot be checked, which End reports.
func (a *Audit) Fairness(revealed []byte) {
	a.fair, a.reveal = true, revealed
}

// Drawn lists the events whose random outcomes the fairness audit recomputed.
func (a *Audit) Drawn() []Drawn { return a.drawn }

// State is the match as folded so far.
func (a *Audit) State() State { return a.st }

// Rules are the rules the match is audited under.
func (a *Audit) Rules() game.Rules { return a.rules }

// End reports what the stream, ending after the events checked so far, leaves undone: a
// game over with no MatchEnded, a finished match whose seed was never revealed, an opening
// cut short.
func (a *Audit) End() {
	switch {
	case a.overAt > 0 && a.st.Status == Live:
		a.report(0, CheckResult, "the game ended at version %d (%s) but no MatchEnded follows", a.overAt, a.overAs.Reason)
	case a.st.Status == Finished && !a.st.SeedRevealed:
		a.report(0, CheckSeed, "the match is over but its seed was never revealed")
	case len(a.setup) > 0:
		a.report(0, CheckSetup, "the stream ends before the game's opening event %s", a.setup[0].Event.EventType())
	case a.fair && (a.st.Status != Finished || a.reveal == nil):
		a.report(0, CheckFairness, "the match is %s and its seed not revealed: its random outcomes cannot be drawn again yet", statusName(a.st.Status))
	}
}

// purposes is what d's random outcomes were drawn for, under a fairness audit; nil for
// an event that records none, or outside a fairness audit.
func (a *Audit) purposes(d game.Event) []string {
	if r, ok := a.rules.(game.Random); ok && a.fair {
		return r.Drawn(d)
	}
	return nil
}

// Check verifies one decoded event against the state before it and folds it; false stops
// the audit (the state no longer means anything).
func (a *Audit) Check(ev Stored, d game.Event) bool {
	version, st := ev.Version, &a.st
	if r, ok := d.(Resigned); ok {
		a.forfeited = a.forfeiter == r.Seat
	}
	if a.forfeiter >= 0 {
		if r, ok := d.(Resigned); !ok || r.Seat != a.forfeiter {
			a.report(version, CheckLifecycle, "%s where seat %d's resignation should follow its forfeit", ev.Type, a.forfeiter)
		}
		a.forfeiter = -1
	}
	if st.Status == Finished {
		if _, ok := d.(SeedRevealed); !ok || st.SeedRevealed {
			a.report(version, CheckLifecycle, "%s after the match ended", ev.Type)
		}
	}
	if a.overAt > 0 && st.Status == Live {
		if _, ok := d.(MatchEnded); !ok {
			a.report(version, CheckResult, "%s after the game ended at version %d (%s): MatchEnded should have followed", ev.Type, a.overAt, a.overAs.Reason)
			a.overAt = 0
		}
	}
	switch {
	case len(a.setup) > 0:
		want := a.setup[0]
		a.setup = a.setup[1:]
		a.expect(ev, d, want, CheckSetup, "the opening dealt from the seed")
		a.drew(ev, d)
	case len(a.withdrawal) > 0:
		want := a.withdrawal[0]
		a.withdrawal = a.withdrawal[1:]
		a.expect(ev, d, want, CheckRules, fmt.Sprintf("the withdrawal of seat %d, who resigned,", a.withdrawer))
	case !IsLifecycle(ev.Type):
		if st.Status != Live {
			a.report(version, CheckLifecycle, "game event %s while the match is %s", ev.Type, statusName(st.Status))
		}
		if au, ok := a.rules.(game.Auditor); ok {
			if err := a.gameAudit(au, d); err != nil {
				if p := a.purposes(d); p != nil {
					a.report(version, CheckFairness, "%s drawn for %s: %v", ev.Type, strings.Join(p, ", "), err)
				} else {
					a.report(version, CheckRules, "%v", err)
				}
			}
		}
		a.drew(ev, d)
		if s, ok := a.rules.(game.Sighted); ok {
			if want := s.Sight(d); want != ev.Visibility {
				a.report(version, CheckSight, "%s is stored visible to %s; the rules show it to %s", ev.Type, sightName(ev.Visibility), sightName(want))
			}
		}
		a.strayWithdrawal(ev, d)
	}
	switch e := d.(type) {
	case MatchCreated:
		if version != 1 {
			a.report(version, CheckLifecycle, "a second MatchCreated")
		}
		if e.Reserved != nil && len(e.Reserved) != e.Seats {
			a.report(version, CheckLifecycle, "%d seats reserved in a match of %d", len(e.Reserved), e.Seats)
			return false
		}
		if plan, err := a.rules.Plan(GameOptions(e.Options)); err != nil {
			a.report(version, CheckLifecycle, "the rules refuse the match's options: %v", err)
		} else if plan.Seats != e.Seats || !slices.Equal(plan.Teams, e.Teams) {
			a.report(version, CheckLifecycle, "%d seats in teams %v recorded; the options give %d in teams %v", e.Seats, e.Teams, plan.Seats, plan.Teams)
		}
		if e.RematchOf != "" && RematchID(e.RematchOf) != a.id {
			a.report(version, CheckLifecycle, "the rematch of %s would be match %s, not %s", e.RematchOf, RematchID(e.RematchOf), a.id)
		}
	case SeedDrawn:
		switch {
		case a.fair && a.reveal != nil && !bytes.Equal(e.Seed, a.reveal):
			a.report(version, CheckFairness, "SeedDrawn holds another seed than the one revealed at the end")
		case a.seed != nil:
			a.report(version, CheckLifecycle, "a second SeedDrawn")
		case Commitment(e.Seed) != st.SeedCommitment:
			a.report(version, CheckSeed, "SeedDrawn's seed hashes to %s, MatchCreated committed to %s", Commitment(e.Seed), st.SeedCommitment)
		}
		a.seed = e.Seed
	case SeatTaken:
		switch {
		case st.Status != Open:
			a.report(version, CheckLifecycle, "SeatTaken while the match is %s", statusName(st.Status))
		case e.Seat < 0 || e.Seat >= len(st.Seats):
			a.report(version, CheckLifecycle, "SeatTaken names seat %d; the match has %d seats", e.Seat, len(st.Seats))
			return false
		case st.Seats[e.Seat].Taken():
			a.report(version, CheckLifecycle, "seat %d is taken twice", e.Seat)
		case st.SeatOf(e.PlayerID) >= 0 && !e.Bot:
			a.report(version, CheckLifecycle, "player %s sits at two seats", e.PlayerID)
		case st.Reserved != nil && st.Reserved[e.Seat] != e.PlayerID:
			a.report(version, CheckLifecycle, "player %s sits at seat %d, kept for %q", e.PlayerID, e.Seat, st.Reserved[e.Seat])
		}
		a.entropy(version, e)
	case MatchStarted:
		a.started(ev)
	case SeatLeft, SeatReturned, Forfeited:
		a.presence(ev, d)
	case DrawOffered, DrawAccepted, DrawDeclined, Resigned:
		if st.Status != Live {
			a.report(version, CheckLifecycle, "%s while the match is %s", ev.Type, statusName(st.Status))
		}
		if e, ok := d.(Resigned); ok {
			a.resigned(e.Seat, ev.Time)
		}
		if e, ok := d.(DrawOffered); ok && e.Seat >= 0 && e.Seat < len(st.Offered) && st.Offered[e.Seat] {
			a.report(version, CheckLifecycle, "seat %d offers a draw again before an opponent has moved", e.Seat)
		}
	case MatchEnded:
		a.ended(version, e, ev.Time)
	case SeatFunded:
		switch {
		case st.Status != Open:
			a.report(version, CheckLifecycle, "SeatFunded while the match is %s", statusName(st.Status))
		case e.Seat < 0 || e.Seat >= len(st.Seats) || !st.Seats[e.Seat].Taken() || st.Holds[e.Seat] != "":
			a.report(version, CheckLifecycle, "SeatFunded for seat %d, which is not a seat just taken", e.Seat)
			return false
		case !Funded(a.rules, st.Options):
			a.report(version, CheckLifecycle, "SeatFunded in a match that moves no coins")
		}
		if want := visibility.Seat(e.Seat); ev.Visibility != want {
			a.report(version, CheckSight, "SeatFunded is stored visible to %s; it is its seat's alone", sightName(ev.Visibility))
		}
	case SeatVacated:
		switch {
		case st.Status != Open:
			a.report(version, CheckLifecycle, "SeatVacated while the match is %s", statusName(st.Status))
		case e.Seat < 0 || e.Seat >= len(st.Seats) || !st.Seats[e.Seat].Taken():
			a.report(version, CheckLifecycle, "seat %d is vacated, but nobody sits there", e.Seat)
			return false
		}
	case SeedRevealed:
		switch {
		case st.Status != Finished:
			a.report(version, CheckLifecycle, "SeedRevealed before the match ended")
		case Commitment(e.Seed) != st.SeedCommitment:
			a.report(version, CheckSeed, "the revealed seed hashes to %s, MatchCreated committed to %s", Commitment(e.Seed), st.SeedCommitment)
		case a.seed != nil && !bytes.Equal(e.Seed, a.seed):
			a.report(version, CheckSeed, "the revealed seed is not the one drawn at creation")
		}
		a.revealed(version, e)
	}
	if !a.evolve(version, d) {
		return false
	}
	if !IsLifecycle(ev.Type) && st.Status == Live && a.overAt == 0 {
		if gs := a.rules.Status(st.GameState); gs.Over {
			a.overAt, a.overAs = version, gs.Outcome
		}
	}
	return true
}

// gameAudit is the game's audit of d, a panic of the rules turned into an error: a forged
// event (an arena that does not exist) must be reported, not crash the verifier.
func (a *Audit) gameAudit(au game.Auditor, d game.Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the rules cannot check %s: %v", d.EventType(), p)
		}
	}()
	return au.Audit(a.st.GameState, d)
}

// evolve folds d, turning a panic of the rules into a problem.
func (a *Audit) evolve(version int64, d game.Event) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			a.report(version, CheckRules, "the rules cannot apply %s: %v", d.EventType(), p)
			ok = false
		}
	}()
	a.st = Evolve(a.rules, a.st, d)
	return true
}

// started checks that every seat is taken and deals the game's opening again from the
// seed, to compare it with the events that follow.
func (a *Audit) started(ev Stored) {
	st := &a.st
	if st.Status != Open {
		a.report(ev.Version, CheckLifecycle, "MatchStarted while the match is %s", statusName(st.Status))
		return
	}
	for i, s := range st.Seats {
		if !s.Taken() {
			a.report(ev.Version, CheckLifecycle, "MatchStarted with seat %d free", i)
		} else if Funded(a.rules, st.Options) && st.Holds[i] == "" {
			a.report(ev.Version, CheckLifecycle, "MatchStarted with seat %d not funded, in a match that moves coins", i)
		}
	}
	if a.seed == nil {
		a.report(ev.Version, CheckSeed, "the match started without a SeedDrawn: its opening cannot be checked")
		return
	}
	// The engine does not record the command's receive time; the start event's time is
	// the closest record of it. Games whose opening depends on it would need it stored.
	seed := a.seed
	if a.fair && a.reveal != nil {
		seed = a.reveal // the opening drawn again from what the end revealed
	}
	opening, err := a.rules.Setup(st.setup(a.rules, st.GameSeed(seed), ev.Time))
	if err != nil {
		a.report(ev.Version, CheckSetup, "the rules refuse to deal this match's opening: %v", err)
		return
	}
	a.setup = opening
}

// expect compares one stored event with the event the rules give there (want), under
// check; source names what gives it.
func (a *Audit) expect(ev Stored, d game.Event, want game.Emitted, check, source string) {
	if ev.Type != want.Event.EventType() {
		a.report(ev.Version, check, "%s recorded where %s records %s", ev.Type, source, want.Event.EventType())
		return
	}
	if ev.Visibility != want.Visibility {
		a.report(ev.Version, check, "%s has visibility %q; the rules give it %q", ev.Type, ev.Visibility, want.Visibility)
	}
	if same, err := sameEvent(d, want.Event); err != nil {
		a.report(ev.Version, check, "encoding %s: %v", ev.Type, err)
	} else if !same {
		got, _ := game.Encode(d)
		exp, _ := game.Encode(want.Event)
		if p := a.purposes(d); p != nil {
			a.report(ev.Version, CheckFairness, "%s drawn for %s: recorded as %s; the revealed seed and the seats' entropy draw %s", ev.Type, strings.Join(p, ", "), got, exp)
			return
		}
		a.report(ev.Version, check, "%s recorded as %s; %s records %s", ev.Type, got, source, exp)
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
// match records them right after Resigned (Decide), given the command's time, which
// the store records on every event of the command.
func (a *Audit) resigned(seat int, at time.Time) {
	st := a.st
	st.Resigned = append(slices.Clone(st.Resigned), seat)
	w, ok := a.rules.(game.Withdrawing)
	if _, teams := seatsLeft(a.rules, st); !ok || teams <= 1 || st.GameState == nil {
		return
	}
	a.withdrawal, a.withdrawer = w.Withdraw(st.GameState, seat, at), seat
}

// strayWithdrawal reports a game event that is the withdrawal of a seat that did not
// resign just before: only the match's resignation may take a seat out of play.
func (a *Audit) strayWithdrawal(ev Stored, d game.Event) {
	w, ok := a.rules.(game.Withdrawing)
	if !ok || a.st.GameState == nil {
		return
	}
	for seat := range a.st.Seats {
		if evs := w.Withdraw(a.st.GameState, seat, ev.Time); len(evs) > 0 {
			if same, _ := sameEvent(d, evs[0].Event); same {
				a.report(ev.Version, CheckRules, "%s takes seat %d out of play, but the seat did not resign just before", ev.Type, seat)
				return
			}
		}
	}
}

// seatsLeft lists the seats still playing (State.Playing: neither resigned nor out
// by the game's decision), and counts their teams.
func seatsLeft(rules game.Rules, st State) (left []int, teams int) {
	seen := map[int]bool{}
	left = st.Playing(rules)
	for _, seat := range left {
		seen[st.Plan.Teams[seat]] = true
	}
	return left, len(seen)
}

// ended checks a MatchEnded, recorded at at, against the state before it.
func (a *Audit) ended(version int64, e MatchEnded, at time.Time) {
	st := &a.st
	if e.Reason == Cancelled {
		if st.Status != Open || len(e.Winners) != 0 {
			a.report(version, CheckResult, "cancelled with winners %v while the match is %s: only an open match is cancelled, for nobody", e.Winners, statusName(st.Status))
		}
		return
	}
	if st.Status != Live {
		a.report(version, CheckLifecycle, "MatchEnded while the match is %s", statusName(st.Status))
		return
	}
	winners := slices.Clone(e.Winners)
	slices.Sort(winners)
	abortAt, abortable := st.AbortAt()
	switch {
	case e.Reason == Aborted:
		switch {
		case st.Opened:
			a.report(version, CheckResult, "aborted after every seat had moved")
		case len(e.Winners) != 0:
			a.report(version, CheckResult, "aborted with winners %v", e.Winners)
		case !st.Rated && (!abortable || at.Before(abortAt)):
			a.report(version, CheckResult, "a friendly match aborted before its first moves were due")
		}
		a.overAt = 0
		return
	case st.Rated && !st.Opened:
		a.report(version, CheckResult, "a rated match ended by %s before every seat had moved: it should have been aborted", e.Reason)
	}
	switch e.Reason {
	case "resignation", "abandonment": // a forfeit for absence is carried out as a resignation
		left, teams := seatsLeft(a.rules, *st)
		switch {
		case len(st.Resigned) == 0:
			a.report(version, CheckResult, "ended by %s, but nobody resigned", e.Reason)
		case e.Reason == "abandonment" && !a.forfeited:
			a.report(version, CheckResult, "ended by abandonment, but the last resignation was no forfeit")
		case teams > 1 && !a.withdrawnToEnd(e.Reason, winners):
			a.report(version, CheckResult, "ended by %s with %d teams still playing", e.Reason, teams)
		case teams > 1: // the game ended on the resigned seat's withdrawal, as it says
		case !slices.Equal(winners, left) && !(len(winners) == 0 && len(left) == 0):
			a.report(version, CheckResult, "ended by %s with winners %v; the seats left are %v", e.Reason, e.Winners, left)
		}
	case "agreement":
		switch {
		case st.DrawOfferBy < 0:
			a.report(version, CheckResult, "ended by agreement without a pending draw offer")
		case len(e.Winners) != 0:
			a.report(version, CheckResult, "ended by agreement with winners %v", e.Winners)
		}
	default:
		gs := a.rules.Status(st.GameState)
		if !gs.Over {
			a.report(version, CheckResult, "ended by %q, but the game is not over", e.Reason)
			return
		}
		want := slices.Clone(gs.Outcome.Winners)
		slices.Sort(want)
		if e.Reason != gs.Outcome.Reason || !slices.Equal(winners, want) {
			a.report(version, CheckResult, "recorded winners %v by %q; the game says winners %v by %q", e.Winners, e.Reason, gs.Outcome.Winners, gs.Outcome.Reason)
		}
	}
	a.overAt = 0
}

// withdrawnToEnd reports whether the game is over by reason with winners (sorted): a
// resignation the game carried out (game.Withdrawing) ended it while several teams were
// still playing (in Ajedrez Mágico's doubles a player's resignation is its team's loss).
func (a *Audit) withdrawnToEnd(reason string, winners []int) bool {
	if _, ok := a.rules.(game.Withdrawing); !ok || a.st.GameState == nil {
		return false
	}
	gs := a.rules.Status(a.st.GameState)
	want := slices.Clone(gs.Outcome.Winners)
	slices.Sort(want)
	return gs.Over && gs.Outcome.Reason == reason && slices.Equal(winners, want)
}

func statusName(s Status) string {
	if s == None {
		return "not created"
	}
	return string(s)
}

// sightName writes a visibility for a person.
func sightName(vis visibility.Visibility) string {
	if vis.IsPublic() {
		return "everyone"
	}
	return vis.String()
}

// presence checks the events of players leaving and coming back: only in a live match, a
// seat leaves once before it returns, and a forfeit comes no earlier than the match's rule
// allows (a claim after ClaimAfter away, the timer's forfeit at ForfeitAfter, or
// BotForfeitAfter against the bot).
func (a *Audit) presence(ev Stored, d game.Event) {
	st := &a.st
	if st.Status != Live {
		a.report(ev.Version, CheckLifecycle, "%s while the match is %s", ev.Type, statusName(st.Status))
		return
	}
	switch e := d.(type) {
	case SeatLeft:
		if _, away := st.Away(e.Seat); away || e.Seat < 0 || e.Seat >= len(st.Seats) {
			a.report(ev.Version, CheckLifecycle, "seat %d leaves, but it has left already or does not exist", e.Seat)
		}
		if e.At.After(ev.Time) {
			a.report(ev.Version, CheckLifecycle, "seat %d left at %s, after the event recording it", e.Seat, e.At)
		}
	case SeatReturned:
		if _, away := st.Away(e.Seat); !away {
			a.report(ev.Version, CheckLifecycle, "seat %d returns, but it had not left", e.Seat)
		}
	case Forfeited:
		since, away := st.Away(e.Seat)
		switch {
		case !away || st.Abandon == nil:
			a.report(ev.Version, CheckLifecycle, "seat %d forfeits without having left under a rule for it", e.Seat)
		case e.ClaimedBy >= 0 && ev.Time.Sub(since) < time.Duration(st.Abandon.ClaimAfterMs)*time.Millisecond:
			a.report(ev.Version, CheckLifecycle, "seat %d's win was claimed %s after seat %d left; the rule waits %d ms", e.ClaimedBy, ev.Time.Sub(since), e.Seat, st.Abandon.ClaimAfterMs)
		case e.ClaimedBy < 0 && ev.Time.Sub(since) < st.ForfeitAfter(a.rules, e.Seat):
			a.report(ev.Version, CheckLifecycle, "seat %d forfeited %s after it left; the rule waits %s", e.Seat, ev.Time.Sub(since), st.ForfeitAfter(a.rules, e.Seat))
		}
		a.forfeiter = e.Seat
	}
}

// drew counts d among the random outcomes recomputed, under a fairness audit.
func (a *Audit) drew(ev Stored, d game.Event) {
	if p := a.purposes(d); p != nil {
		a.drawn = append(a.drawn, Drawn{Version: ev.Version, Type: ev.Type, Purposes: p})
	}
}

// entropy checks the entropy a SeatTaken records: under V1, 16 to 64 bytes in hex, drawn
// by the player or the server; none under Legacy.
func (a *Audit) entropy(version int64, e SeatTaken) {
	if a.st.Fairness == fairness.Legacy {
		if e.Entropy != "" || e.EntropyBy != "" {
			a.report(version, CheckFairness, "seat %d brings entropy to a match of the Legacy procedure, which takes none", e.Seat)
		}
		return
	}
	b, err := hex.DecodeString(e.Entropy)
	if err == nil {
		err = fairness.CheckEntropy(b)
	}
	switch {
	case err != nil:
		a.report(version, CheckFairness, "seat %d's entropy %q: %v", e.Seat, e.Entropy, err)
	case e.EntropyBy != EntropyByPlayer && e.EntropyBy != EntropyByServer:
		a.report(version, CheckFairness, "seat %d's entropy drawn by %q: the player or the server draws it", e.Seat, e.EntropyBy)
	}
}

// revealed checks the match seed a SeedRevealed records against the one the revealed seed
// and the seats' entropy derive (none before the start, nor under Legacy).
func (a *Audit) revealed(version int64, e SeedRevealed) {
	st := &a.st
	var want []byte
	if st.Fairness != fairness.Legacy && st.Started() {
		want = st.GameSeed(e.Seed)
	}
	if !bytes.Equal(e.MatchSeed, want) {
		a.report(version, CheckFairness, "the revealed match seed is %x; the revealed seed and the seats' entropy derive %x", e.MatchSeed, want)
	}
}
