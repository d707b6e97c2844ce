package match

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Stored is one stored event of a match as its fold and its audit read it: the store's
// envelope without what only the store needs (hashes, global positions, command IDs).
type Stored struct {
	Stream     string
	Version    int64 // in the stream, from 1
	Type       string
	Schema     int
	Payload    []byte
	Visibility visibility.Visibility
	Time       time.Time // when the command that recorded it was received
}

// Folder turns a match's stored events into its state: the engine, the projections and
// replay all fold a match through it.
type Folder struct {
	Games *game.Registry
}

// Rules returns the rules a match was created under, from its first event: the game's
// current rules, or those of the older version the match pinned (game.Pinned).
func (f Folder) Rules(first Stored) (game.Rules, error) {
	if first.Type != (MatchCreated{}).EventType() || first.Version != 1 {
		return nil, fmt.Errorf("stream %s starts with %s at version %d, not MatchCreated at 1", first.Stream, first.Type, first.Version)
	}
	d, err := Decode(nil, first.Type, first.Schema, first.Payload)
	if err != nil {
		return nil, err
	}
	created := d.(MatchCreated)
	rules, err := f.Games.Get(created.Game)
	if err != nil {
		return nil, &GameNotHosted{Stream: first.Stream, Game: created.Game, Hosted: f.Games.IDs()}
	}
	if pinned, ok := game.RulesOf(rules, created.RulesVersion); ok {
		return pinned, nil
	}
	have := []string{rules.Info().RulesVersion}
	if p, ok := rules.(game.Pinned); ok {
		have = append(have, p.Versions()...)
	}
	return nil, &UnknownRulesVersion{Stream: first.Stream, Game: created.Game, Version: created.RulesVersion, Have: have}
}

// UnknownRulesVersion is the error of a match pinned to a rules version of its game that
// this build does not play: a newer build's, or an older one's it no longer keeps
// (game.Pinned). Nothing is wrong with the match: a build that plays Version serves and
// verifies it, and this one sets it aside (an *Unreplayable wraps this error).
type UnknownRulesVersion struct {
	Stream        string   // the match's stream
	Game, Version string   // the game's ID and the rules version the match pinned
	Have          []string // the versions of Game this build plays, today's first
}

func (e *UnknownRulesVersion) Error() string {
	return fmt.Sprintf("%s was played under %s rules %q, which this build does not play (it plays %s): serve and verify it with a build that plays %q",
		e.Stream, e.Game, e.Version, strings.Join(e.Have, ", "), e.Version)
}

// GameNotHosted is the error of a match of a game this build does not host. Nothing is
// wrong with the match: a server that hosts Game serves and verifies it, and this one
// sets it aside (an *Unreplayable wraps this error) and refuses it with game.NotHosted.
type GameNotHosted struct {
	Stream string   // the match's stream
	Game   string   // the game's ID, as the match's first event names it
	Hosted []string // the games this build hosts
}

func (e *GameNotHosted) Error() string {
	return fmt.Sprintf("%s is a match of %s, which this server does not host (it hosts %s): serve and verify it with a server that hosts %s",
		e.Stream, e.Game, strings.Join(e.Hosted, ", "), e.Game)
}

// Decode reads one stored event of a match played under rules.
func (ev Stored) Decode(rules game.Rules) (game.Event, error) {
	d, err := Decode(rules, ev.Type, ev.Schema, ev.Payload)
	if err != nil {
		return nil, fmt.Errorf("%s version %d: %w", ev.Stream, ev.Version, err)
	}
	return d, nil
}

// Unreplayable is the error of a match whose stored events do not fold: a version out of
// order, rules this server does not have, a payload that does not decode, or an event the
// rules refuse to apply. Such a match is set aside (commands and queries on it are
// refused with game.Unavailable) while every other match is served.
type Unreplayable struct {
	Match   string
	Version int64 // the event that does not fold
	Err     error
}

func (e *Unreplayable) Error() string {
	return fmt.Sprintf("match %s does not replay at version %d: %v", e.Match, e.Version, e.Err)
}

func (e *Unreplayable) Unwrap() error { return e.Err }

// Refusal is what a caller is told of a match set aside: its ID and what an operator can
// run, not the cause, which is for the server's log; of a match of a game not hosted
// here, that (game.NotHosted), and where to ask instead.
func (e *Unreplayable) Refusal() *game.Error {
	if nh := (*GameNotHosted)(nil); errors.As(e.Err, &nh) {
		return &game.Error{Code: game.NotHosted, Err: e, Reason: fmt.Sprintf(
			"match %s is a match of %s, a game this server does not host (it hosts %s): ask a server that hosts %s; the match is not lost",
			e.Match, nh.Game, strings.Join(nh.Hosted, ", "), nh.Game)}
	}
	return &game.Error{Code: game.Unavailable, Err: e, Reason: fmt.Sprintf(
		"match %s is unavailable: its stored events do not replay; the server's operator can see why with `arbiter verify --match %s`", e.Match, e.Match)}
}

// Apply folds the stored event ev of match id into st, which is at version; rules is
// nil before the first event, which pins them. Any failure is an *Unreplayable: the rules
// panic on a stored event they cannot apply (it cannot have been decided), and that
// panic is recovered here so that one damaged match does not stop the process.
func (f Folder) Apply(id string, rules game.Rules, st State, version int64, ev Stored) (_ game.Rules, _ State, err error) {
	fail := func(e error) (game.Rules, State, error) {
		return nil, State{}, &Unreplayable{Match: id, Version: ev.Version, Err: e}
	}
	if ev.Version != version+1 {
		return fail(fmt.Errorf("stream %s jumps from version %d to %d", ev.Stream, version, ev.Version))
	}
	if rules == nil {
		if rules, err = f.Rules(ev); err != nil {
			return fail(err)
		}
	}
	d, err := ev.Decode(rules)
	if err != nil {
		return fail(err)
	}
	defer func() {
		if p := recover(); p != nil {
			_, _, err = fail(fmt.Errorf("the rules cannot apply %s: %v", ev.Type, p))
		}
	}()
	return rules, Evolve(rules, st, d), nil
}
