package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

// seedTries bounds the seeds Generate tries for a scenario before giving up on it.
const seedTries = 64

// Generate plays every scenario under the rules version each game has now and the current
// fairness procedure, and writes the match's export to dir (FileName: the whole match, as
// a finished match's export shows it to anyone), with the manifest of what each ended on;
// progress goes to log. A file already in dir's manifest is an archive: it is kept as it
// is and never played again, so a new rules version or procedure adds its files beside
// the old ones. Into an empty dir, the same build writes the same bytes.
func Generate(ctx context.Context, games *game.Registry, dir string, log io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m, err := ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m = Manifest{}
	case err != nil:
		return err
	}
	for _, sc := range Scenarios {
		rules, err := games.Get(sc.Game)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		file := FileName(sc.Name, rules.Info().RulesVersion, fairness.Current)
		if slices.ContainsFunc(m.Entries, func(e Entry) bool { return e.File == file }) {
			fmt.Fprintf(log, "%-18s kept: %s is archived\n", sc.Name, file)
			continue
		}
		e, body, err := generate(ctx, games, sc)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		if e.File != file {
			return fmt.Errorf("scenario %s: the match pinned rules %q and fairness procedure %d, not %s's %q and %d", sc.Name, e.RulesVersion, e.Fairness, sc.Game, rules.Info().RulesVersion, fairness.Current)
		}
		if err := os.WriteFile(filepath.Join(dir, e.File), body, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(log, "%-18s %-16s %-16s seed %2d %4d events %7d bytes  %s\n", sc.Name, e.Game, e.RulesVersion, e.Seed, e.Events, len(body), e.Ending)
		m.Entries = append(m.Entries, e)
	}
	return writeManifest(dir, m)
}

// FileName is the file of a scenario's match played under a rules version and a
// fairness procedure (docs/fairness.md): <scenario>.<rules version>.ndjson for a match of
// the legacy procedure, and .f<N> before .ndjson for procedure N.
func FileName(scenario, rulesVersion string, procedure fairness.Version) string {
	if procedure == fairness.Legacy {
		return scenario + "." + rulesVersion + ".ndjson"
	}
	return fmt.Sprintf("%s.%s.f%d.ndjson", scenario, rulesVersion, procedure)
}

// generate plays a scenario from its seed on until a match shows what the scenario
// wants, and returns its entry and its export.
func generate(ctx context.Context, games *game.Registry, sc Scenario) (Entry, []byte, error) {
	var last error
	for seed := sc.Seed; seed < sc.Seed+seedTries; seed++ {
		e, body, err := playOnce(ctx, games, sc, seed)
		if err == nil {
			return e, body, nil
		}
		if ctx.Err() != nil {
			return Entry{}, nil, ctx.Err()
		}
		last = fmt.Errorf("seed %d: %w", seed, err)
	}
	return Entry{}, nil, fmt.Errorf("no seed of %d from %d made a match worth keeping; the last: %w", seedTries, sc.Seed, last)
}

// playOnce plays a scenario with one seed, and exports and checks the match.
func playOnce(ctx context.Context, games *game.Registry, sc Scenario, seed uint64) (Entry, []byte, error) {
	t, err := newTable(ctx, games, sc, seed)
	if err != nil {
		return Entry{}, nil, err
	}
	if err := sc.Play(t); err != nil {
		return Entry{}, nil, err
	}
	evs, err := t.e.Store().ReadStream(ctx, matchstream.Name(t.ID), 0, 1<<20)
	if err != nil {
		return Entry{}, nil, err
	}
	snap, err := replay.StateOf(games, t.ID, evs, 0)
	if err != nil {
		return Entry{}, nil, err
	}
	// The whole match: its teams' hidden streams too, when it keeps them, in the store's
	// order, as a finished match's export shows them to anyone.
	if matchstream.Covering(snap.Rules, snap.State.Plan) {
		if evs, _, err = matchstream.Read(ctx, t.e.Store(), t.ID, matchstream.Teams(snap.State), matchstream.Cursor{}, 0); err != nil {
			return Entry{}, nil, err
		}
	}
	h := replay.ExportHeader{
		Match: t.ID, Game: snap.State.Game, RulesVersion: snap.State.RulesVersion, Status: string(snap.State.Status),
		Version: snap.Version, Viewer: "spectator", ExportedAt: t.now,
	}
	lines := make([]replay.ExportLine, len(evs))
	for i, ev := range evs {
		lines[i] = replay.LineOf(ev, false)
	}
	var body bytes.Buffer
	if err := replay.WriteExport(&body, h, lines); err != nil {
		return Entry{}, nil, err
	}
	x, err := replay.ReadExport(bytes.NewReader(body.Bytes()))
	if err != nil {
		return Entry{}, nil, err
	}
	r := replay.VerifyExport(games, x)
	if !r.OK() {
		return Entry{}, nil, fmt.Errorf("the match does not verify: %w", r.Err())
	}
	e := Entry{
		File: FileName(sc.Name, h.RulesVersion, snap.State.Fairness), Fairness: int(snap.State.Fairness), Scenario: sc.About, Seed: seed, Match: t.ID, Game: h.Game, RulesVersion: h.RulesVersion,
		Events: len(evs), LastHash: evs[len(evs)-1].Hash, Final: FinalOf(snap, r),
	}
	if e.Status != "FINISHED" {
		return Entry{}, nil, fmt.Errorf("the match is %s, not finished", e.Status)
	}
	if sc.Want != nil {
		if err := sc.Want(Played{Events: evs, Final: e.Final}); err != nil {
			return Entry{}, nil, err
		}
	}
	return e, body.Bytes(), nil
}
