package graph

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/projections"
)

// matchModel turns a read-side view into the API's Match for one caller.
func matchModel(v *projections.MatchView, viewerID string) *model.Match {
	st := v.State
	m := &model.Match{
		ID: v.ID, Game: model.Game(st.Game), RulesVersion: st.RulesVersion,
		Status: model.MatchStatus(st.Status), Rated: st.Rated, Version: int(v.Version),
		SeedCommitment: st.SeedCommitment, CreatedAt: v.CreatedAt, View: v, ViewerID: viewerID, Seen: &model.Seen{},
		ToAct: []int{}, Choices: []string{}, Options: optionsOf(st.Options),
	}
	if st.RematchOf != "" {
		of := st.RematchOf
		m.RematchOf = &of
	}
	var gs game.Status // the game's status while the match is live: nobody's clock runs after it
	if st.Status == match.Live {
		gs = st.GameStatus(v.Rules)
		m.ToAct = append(m.ToAct, gs.ToAct...)
		m.Choices = append(m.Choices, gs.Choices...)
		if len(gs.ToAct) == 1 {
			t := gs.ToAct[0]
			m.Turn = &t
		}
		phase := gs.Phase
		m.Phase = &phase
		if st.DrawOfferBy >= 0 {
			d := st.DrawOfferBy
			m.DrawOfferBy = &d
		}
	}
	if st.Result != nil {
		r := &model.Result{Winners: append([]int{}, st.Result.Winners...), Draw: len(st.Result.Winners) == 0, Reason: st.Result.Reason}
		if len(r.Winners) == 1 {
			w := r.Winners[0]
			r.Winner = &w
		}
		m.Result = r
	}
	if st.SeedRevealed {
		s := hex.EncodeToString(st.Seed)
		m.Seed = &s
	}
	m.Fairness = fairnessModel(st)
	if timed, ok := v.Rules.(clock.Timed); ok && st.GameState != nil {
		if r, ok := timed.Clock(st.GameState).Read(gs); ok {
			m.Clock = clockModel(r)
		}
	}
	return m
}

// clockModel turns a clock's reading into the API's Clock.
func clockModel(r clock.Reading) *model.Clock {
	c := &model.Clock{Control: r.Control.String(), InitialMs: int(r.Control.InitialMs), IncrementMs: int(r.Control.IncrementMs)}
	for seat, left := range r.Left {
		c.Seats = append(c.Seats, &model.SeatClock{Seat: seat, RemainingMs: int(left.Milliseconds())})
	}
	if r.Running >= 0 {
		running, since := r.Running, r.Since
		c.Running, c.Since = &running, &since
	}
	return c
}

// optionsOf lists a match's options sorted by key.
func optionsOf(opts game.Options) []*model.Option {
	out := make([]*model.Option, 0, len(opts))
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		out = append(out, &model.Option{Key: k, Value: opts[k]})
	}
	return out
}

// eventModel turns a stored event, as the viewer may see it, into the API's MatchEvent.
func eventModel(matchID string, rules game.Rules, v projections.Viewer, ev eventstore.Event) *model.MatchEvent {
	s := v.Event(rules, ev)
	return &model.MatchEvent{
		MatchID: matchID, Version: int(s.Version), Position: int(s.Position), Type: s.Type,
		SchemaVersion: s.SchemaVersion, At: s.Time, Actor: s.Actor, Data: model.JSON(s.Payload),
		Redacted: s.Redacted, Hash: s.Hash, PrevHash: s.PrevHash, Visibility: visibilityName(s.Visibility),
	}
}

// viewerOf is who reads the match m of state st: its caller, as a reviewer of disputes
// when m is a reviewer's (reviewMatch, a dispute's match).
func viewerOf(m *model.Match, st match.State) projections.Viewer {
	v := projections.ViewerOf(st, m.ViewerID)
	if m.Review {
		v = v.Reviewing()
	}
	return v
}

// matchView returns the read side's view of a match, waiting for it to reach at least the
// given position (a mutation's own events).
func (r *Resolver) matchView(ctx context.Context, id string, atLeast int64) (*projections.MatchView, error) {
	if atLeast > 0 {
		if err := r.ReadPos.WaitFor(ctx, atLeast); err != nil {
			return nil, fmt.Errorf("waiting for the read side: %w", err)
		}
	}
	v, err := r.Lobby.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, r.noMatch(id)
	}
	return v, nil
}

// noMatch is the error for a match the read side does not hold: MATCH_UNAVAILABLE, naming
// it, when it was set aside because its events do not replay, else NOT_FOUND.
func (r *Resolver) noMatch(id string) error {
	if err := r.Lobby.Unavailable(id); err != nil {
		return err
	}
	return game.Reject(game.NotFound, "no match %q", id)
}

// act runs a player's command on a match and answers with the match as it is after it.
func (r *Resolver) act(ctx context.Context, matchID string, commandID *string, build func(playerID string) match.Command) (*model.ActionPayload, error) {
	p, err := r.player(ctx)
	if err != nil {
		return nil, err
	}
	ack, err := r.Engine.Handle(ctx, matchID, build(p.ID), engine.Meta{CommandID: deref(commandID), Actor: "player:" + p.ID})
	if err != nil {
		return nil, r.missing(ctx, matchID, p.ID, err)
	}
	v, err := r.matchView(ctx, matchID, ack.LastPosition)
	if err != nil {
		return nil, err
	}
	return &model.ActionPayload{Match: matchModel(v, p.ID), Version: int(ack.LastVersion), Duplicate: ack.Duplicate}, nil
}

// visibilityName is how the API writes a visibility.
func visibilityName(v visibility.Visibility) string {
	if v.IsPublic() {
		return "public"
	}
	return v.String()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// seatsOf lists a view's seats.
func seatsOf(v *projections.MatchView) []*model.Seat {
	out := make([]*model.Seat, len(v.State.Seats))
	for i, s := range v.State.Seats {
		out[i] = &model.Seat{Seat: i}
		if i < len(v.State.Plan.Teams) {
			out[i].Team = v.State.Plan.Teams[i]
		}
		if s.Taken() {
			out[i].Player = &model.Player{ID: s.PlayerID, Name: s.Name}
		}
		if since, away := v.State.Away(i); away && v.State.Status == match.Live {
			out[i].AwaySince = &since
		}
	}
	return out
}

// Page sizes of the lists: the size without first, and the most first may ask. The
// resolvers page by them and the complexity limit prices the lists by them (listCost).
const (
	matchesPage, matchesPageMax         = 50, 500
	eventsPage, eventsPageMax           = 1000, 1000
	leaderboardPage, leaderboardPageMax = 20, 500
)

// lobbyCursor checks the after of a page of the lobby: a match the read side holds (any
// match's existence is public: match(id) tells it), else BAD_USER_INPUT.
func (r *Resolver) lobbyCursor(ctx context.Context, after *string, viewerID string) (string, error) {
	if after == nil {
		return "", nil
	}
	held, err := r.Lobby.Holds(*after)
	if err != nil {
		return "", err
	}
	if held { // a match not there yet for the viewer is no cursor either (hiddenRematch)
		v, err := r.shownMatch(ctx, *after, viewerID)
		if err != nil {
			return "", err
		}
		held = v != nil
	}
	if !held {
		return "", game.Reject(game.BadInput, "after %q names no match of the lobby: give the id of the last match of the page before", *after)
	}
	return *after, nil
}

// ratingModel is a rating as the API shows it: rounded to the nearest point, and exact.
func ratingModel(x projections.Rating) *model.Rating {
	return &model.Rating{Game: model.Game(x.Game), Key: x.Key, Rating: int(math.Round(x.Rating)), RatingExact: x.Rating, Games: x.Games, Wins: x.Wins, Losses: x.Losses, Draws: x.Draws}
}

// page is the size of a page: def without first, first itself from 0 (none) to max.
func page(first *int, def, max int) (int, error) {
	if first == nil {
		return def, nil
	}
	if *first < 0 || *first > max {
		return 0, game.Reject(game.BadInput, "first must be between 0 and %d, not %d", max, *first)
	}
	return *first, nil
}

func actor(p *engine.Player) string {
	if p == nil {
		return "anonymous"
	}
	return "player:" + p.ID
}

// full returns a match's view with its game state: an archived match (see
// projections.ArchiveAfter) is folded again from the store, through the engine's cache.
func (r *Resolver) full(ctx context.Context, obj *model.Match) (*projections.MatchView, error) {
	v := obj.View
	if !v.Archived {
		return v, nil
	}
	snap, err := r.Engine.Match(ctx, obj.ID)
	if err != nil {
		return nil, err
	}
	cp := *v
	cp.Rules, cp.State, cp.Archived = snap.Rules, snap.State, false
	return &cp, nil
}

// gameView returns a match's game state as its caller may see it (projections.Viewer.View),
// nil for a game that shows none or a match not yet set up, with its rules.
func (r *Resolver) gameView(ctx context.Context, obj *model.Match) (game.View, game.Rules, error) {
	if obj.Seen != nil && !obj.View.Archived { // an archived match is folded with each caller's context
		return obj.Seen.View(func() (game.View, game.Rules, error) { return r.seeGame(ctx, obj) })
	}
	return r.seeGame(ctx, obj)
}

// seeGame computes gameView.
func (r *Resolver) seeGame(ctx context.Context, obj *model.Match) (game.View, game.Rules, error) {
	v, err := r.full(ctx, obj)
	if err != nil {
		return nil, nil, err
	}
	return viewerOf(obj, v.State).View(v.Rules, v.State.GameState), v.Rules, nil
}

// boardOf computes a match's board field (see matchResolver.Board).
func (r *Resolver) boardOf(ctx context.Context, obj *model.Match) (*game.Board, error) {
	gv, _, err := r.gameView(ctx, obj)
	if err != nil {
		return nil, err
	}
	b, ok := gv.(game.BoardView)
	if !ok {
		return nil, nil
	}
	board := b.ShownBoard()
	return &board, nil
}

// movesOf computes a match's moves field (see matchResolver.Moves).
func (r *Resolver) movesOf(ctx context.Context, obj *model.Match) ([]string, error) {
	gv, _, err := r.gameView(ctx, obj)
	if err != nil {
		return nil, err
	}
	b, ok := gv.(game.BoardView)
	if !ok {
		return []string{}, nil
	}
	return append([]string{}, b.ShownMoves()...), nil
}

// handOf computes a match's hand field (see matchResolver.Hand): the caller's own hand,
// null for a spectator or in a game without cards.
func (r *Resolver) handOf(ctx context.Context, obj *model.Match) ([]*model.HandCard, error) {
	if obj.ViewerID == "" || obj.View.State.SeatOf(obj.ViewerID) < 0 {
		return nil, nil
	}
	gv, rules, err := r.gameView(ctx, obj)
	if err != nil {
		return nil, err
	}
	c, ok := gv.(cards.View)
	if !ok {
		return nil, nil
	}
	return handModel(catalogOf(rules), c.ShownHand()), nil
}

// cardsOf computes a match's cards field (see matchResolver.Cards): what everyone may know
// of each seat's cards.
func (r *Resolver) cardsOf(ctx context.Context, obj *model.Match) ([]*model.SeatCards, error) {
	gv, rules, err := r.gameView(ctx, obj)
	if err != nil {
		return nil, err
	}
	c, ok := gv.(cards.View)
	if !ok {
		return []*model.SeatCards{}, nil
	}
	cat := catalogOf(rules)
	out := []*model.SeatCards{}
	for _, sc := range c.ShownCards() {
		out = append(out, seatCardsModel(cat, sc))
	}
	return out, nil
}
