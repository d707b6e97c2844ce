package graph

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/graph/model"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/replay"
)

// exports serves GET /matches/{id}.pgn and GET /matches/{id}.ndjson (docs/exports.md):
// the match exactly as the caller may see it through the API, the same bearer token
// naming the caller. It reads the match as the match query does (a spectator's delay
// included) and redacts its events where every event is redacted, projections.Viewer.
func (r *Resolver) exports(limit *limiter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		req = r.identify(req)
		if limit != nil {
			if ok, wait := limit.take(callerOf(req.Context()).rateKey()); !ok {
				limit.refuse(w, wait)
				return
			}
		}
		file := req.PathValue("file")
		id, ext, ok := strings.Cut(file, ".")
		if !ok || id == "" || (ext != "pgn" && ext != "ndjson") {
			writeError(w, http.StatusNotFound, string(game.NotFound), fmt.Sprintf("no export %q: ask for /matches/{id}.pgn (chess) or /matches/{id}.ndjson (every game)", file))
			return
		}
		if len(id) > engine.MaxIDBytes { // as idLimit refuses it in the API, before any read
			writeError(w, http.StatusBadRequest, string(game.BadInput), fmt.Sprintf("the match ID has %d bytes; IDs are at most %d bytes long", len(id), engine.MaxIDBytes))
			return
		}
		var (
			body        bytes.Buffer
			contentType string
			err         error
		)
		switch ext {
		case "pgn":
			contentType = "application/x-chess-pgn; charset=utf-8"
			err = r.exportPGN(req.Context(), &body, id)
		default:
			contentType = "application/x-ndjson; charset=utf-8"
			err = r.exportNDJSON(req.Context(), &body, id)
		}
		if err != nil {
			r.exportFailed(w, req, err)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+"."+ext))
		_, _ = w.Write(body.Bytes())
	})
}

// exportFailed answers an export that failed: a refusal with its reason; a failure of
// the server, as the API answers one (presentError), with its code and an error ID alone,
// the cause in the log under that ID. The cause (a database's message, a file's path)
// used to be the answer.
func (r *Resolver) exportFailed(w http.ResponseWriter, req *http.Request, err error) {
	if game.CodeOf(err) != "" {
		code, status := exportStatus(err)
		writeError(w, status, code, err.Error())
		return
	}
	code, message, id := logFailure(req.Context(), r.limits.Log, err, "path", req.URL.Path)
	status := http.StatusInternalServerError
	if code == CodeUnavailable {
		status = http.StatusServiceUnavailable
	}
	writeGraphQLError(w, status, &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code, "errorId": id}})
}

// exportStatus is the code and HTTP status of an export's refusal.
func exportStatus(err error) (string, int) {
	code := game.CodeOf(err)
	switch code {
	case game.NotFound, game.NotHosted:
		return string(code), http.StatusNotFound
	case game.Unauthenticated:
		return string(code), http.StatusUnauthorized
	case game.Forbidden:
		return string(code), http.StatusForbidden
	case game.BadInput:
		return string(code), http.StatusBadRequest
	case game.Unavailable:
		return string(code), http.StatusServiceUnavailable
	}
	return string(code), http.StatusConflict
}

// matchFor reads a match as the match query shows it to the caller.
func (r *Resolver) matchFor(ctx context.Context, id string) (*model.Match, error) {
	m, err := r.Query().Match(ctx, id)
	if err == nil && m == nil {
		err = game.Reject(game.NotFound, "no match %q", id)
	}
	return m, err
}

// exportPGN writes the match's PGN: the match field pgn, for the games that have one.
func (r *Resolver) exportPGN(ctx context.Context, w *bytes.Buffer, id string) error {
	m, err := r.matchFor(ctx, id)
	if err != nil {
		return err
	}
	pgn, err := r.Match().Pgn(ctx, m)
	if err != nil {
		return err
	}
	if pgn == nil {
		return game.Reject(game.NotFound, "match %s: %s has no PGN (or play has not started); /matches/%s.ndjson exports every game", id, m.Game, id)
	}
	w.WriteString(*pgn)
	if !strings.HasSuffix(*pgn, "\n") {
		w.WriteByte('\n')
	}
	return nil
}

// exportNDJSON writes the match's events up to the version the caller sees, each as the
// caller may see it.
func (r *Resolver) exportNDJSON(ctx context.Context, w *bytes.Buffer, id string) error {
	m, err := r.matchFor(ctx, id)
	if err != nil {
		return err
	}
	v := m.View
	viewer := projections.ViewerOf(v.State, m.ViewerID)
	h := replay.ExportHeader{
		Match: id, Game: v.State.Game, RulesVersion: v.State.RulesVersion, Status: string(v.State.Status),
		Viewer: "spectator", ExportedAt: time.Now().UTC(),
	}
	if m.ViewerID != "" {
		h.Viewer = "player:" + m.ViewerID
	}
	var evs []eventstore.Event
	keep := func(ev eventstore.Event) bool { evs = append(evs, ev); return true }
	// Up to the match as the caller sees it, a spectator's delay included.
	h.Version, err = r.eachEvent(ctx, matchstream.Name(id), 0, int64(m.Version), keep)
	if err != nil {
		return fmt.Errorf("reading match %s for its export: %w", id, err)
	}
	for _, t := range exportedTeams(v, viewer) {
		if _, err := r.eachEvent(ctx, matchstream.Hidden(id, t), 0, v.At.HiddenVersion(t), keep); err != nil {
			return fmt.Errorf("reading match %s for its export: %w", id, err)
		}
	}
	// In the store's order, the order the match is folded in (matchstream.Cursor); the
	// positions themselves are not exported.
	slices.SortStableFunc(evs, func(a, b eventstore.Event) int { return cmp.Compare(a.Position, b.Position) })
	lines := make([]replay.ExportLine, len(evs))
	for i, ev := range evs {
		shown := viewer.Event(v.Rules, ev)
		if shown.Redacted {
			h.Redacted++
		}
		lines[i] = replay.LineOf(shown.Event, shown.Redacted)
	}
	if h.Version != int64(m.Version) {
		return errors.New("the store holds fewer events than the read side: try again")
	}
	return replay.WriteExport(w, h, lines)
}

// exportedTeams lists the teams whose hidden streams (matchstream.Hidden) an export holds
// for viewer: in a match that keeps them, its own team's while the match is live (what
// its state already shows it), and every team's once the viewer sees the match over, when
// every secret of it is shown. Nobody else reads a hidden stream while the match is live:
// not even that one exists.
func exportedTeams(v *projections.MatchView, viewer projections.Viewer) []int {
	switch {
	case v.Rules == nil || !matchstream.Covering(v.Rules, v.State.Plan):
		return nil
	case viewer.Finished:
		return matchstream.Teams(v.State)
	}
	return slices.Compact(slices.Sorted(slices.Values(viewer.Teams)))
}
