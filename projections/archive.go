package projections

import (
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// archive is what Matches keeps of its archived matches: not their views (a finished match
// would keep about 1 KB for good, and the heap would grow with every match ever played)
// but what a listing filters and sorts on, about 80 bytes a match. Their views are folded
// again from the store when asked (Matches.Get, Matches.List).
//
// The lists of rows (all, byGame, byPlayer) are kept in listing order, oldest first, so
// that a page, read from the end, costs a binary search and the page, not a sort of every
// row. A match is archived some time after it ends, so nearly in the order matches were
// created: it goes in at the end of its lists, or before the few created after it and
// archived sooner (at most about the matches that were live at once).
type archive struct {
	rows     []archivedRow
	row      map[string]int32 // match ID -> its index in rows
	games    interned
	players  interned
	all      []int32   // every row
	byGame   [][]int32 // by interned game, the rows of its matches
	byPlayer [][]int32 // by interned player, the rows of the matches it created or holds a seat in
	// digest is the exclusive or of the hashes of the archived matches' lines of Digest,
	// taken when they were archived (their boards are gone since).
	digest [sha256.Size]byte

	// file, when set, holds the rows instead (ArchiveIndex): the fields above but digest
	// stay empty, and the model keeps only how many rows it archived and the last one's ID
	// (what a snapshot records), and whether the file was cut back to them yet.
	file  *ArchiveFile
	n     int
	last  string
	ready bool
	err   error // the file could not be emptied for a fold from zero
}

// archivedRow is one archived match in the archive.
type archivedRow struct {
	id      string
	created int64 // Unix nanoseconds: MatchView.CreatedAt
	game    int32 // interned
}

// interned numbers strings (game and player IDs), so that each is kept once however many
// matches name it.
type interned struct {
	ids map[string]int32
	all []string
}

// of is s's number, which it gets if new.
func (in *interned) of(s string) int32 {
	if n, ok := in.ids[s]; ok {
		return n
	}
	if in.ids == nil {
		in.ids = map[string]int32{}
	}
	n := int32(len(in.all))
	s = string([]byte(s)) // its own copy: s may share the memory of a whole decoded event
	in.ids[s], in.all = n, append(in.all, s)
	return n
}

// find is s's number, if it has one.
func (in *interned) find(s string) (int32, bool) {
	n, ok := in.ids[s]
	return n, ok
}

// len is how many matches are archived.
func (a *archive) len() int {
	if a.file != nil {
		return a.n
	}
	return len(a.rows)
}

// add archives v, whose line of Digest is line, at the model's position pos. The caller
// holds the lock.
func (a *archive) add(v *MatchView, line string, pos int64) {
	if a.file != nil {
		a.addToFile(v, line, pos)
		return
	}
	if a.row == nil {
		a.row = map[string]int32{}
	}
	n := int32(len(a.rows))
	id := string([]byte(v.ID))
	a.rows = append(a.rows, archivedRow{id: id, created: v.CreatedAt.UnixNano(), game: a.games.of(v.State.Game)})
	a.row[id] = n
	a.all = a.insert(a.all, n)
	a.byGame = a.insertAt(a.byGame, a.rows[n].game, n)
	seen := make([]string, 0, len(v.State.Seats)+1)
	note := func(player string) {
		if player == "" || slices.Contains(seen, player) {
			return
		}
		seen = append(seen, player)
		a.byPlayer = a.insertAt(a.byPlayer, a.players.of(player), n)
	}
	note(v.State.CreatedBy)
	for _, s := range v.State.Seats {
		note(s.PlayerID)
	}
	a.addDigest(line)
}

// addDigest counts line in the digest.
func (a *archive) addDigest(line string) {
	h := sha256.Sum256([]byte(line))
	for i := range a.digest {
		a.digest[i] ^= h[i]
	}
}

// addToFile archives v in the file. A model folded from zero first empties the file: its
// rows are those of another fold.
func (a *archive) addToFile(v *MatchView, line string, pos int64) {
	if !a.ready {
		a.err, a.ready = a.file.cut(context.Background(), 0, "", nil, 0), true
		if a.err != nil {
			// Every listing of archived matches fails with it (find, match): an operator
			// hears of it once, here.
			a.file.log.Error("the lobby's archive index could not be emptied for a fold from zero: listings and lookups of archived matches fail until the node starts again; "+archiveFix, "file", a.file.path, "err", a.err)
		}
	}
	r := StoredArchived{ID: string([]byte(v.ID)), Created: v.CreatedAt.UnixNano(), Game: v.State.Game}
	note := func(player string) {
		if player != "" && !slices.Contains(r.Players, player) {
			r.Players = append(r.Players, player)
		}
	}
	note(v.State.CreatedBy)
	for _, s := range v.State.Seats {
		note(s.PlayerID)
	}
	a.file.add(r, pos)
	a.n, a.last = a.n+1, r.ID
	a.addDigest(line)
}

// restoreFile cuts the file back to what a snapshot at pos saw: its first n rows, the
// last of ID last; or replaces its rows with rows, from a snapshot that held them.
func (a *archive) restoreFile(ctx context.Context, s *StoredMatches, pos int64) error {
	n, last := s.ArchivedCount, s.ArchivedLast
	if len(s.Archived) > 0 {
		n, last = len(s.Archived), s.Archived[len(s.Archived)-1].ID
	}
	if err := a.file.cut(ctx, n, last, s.Archived, pos); err != nil {
		return err
	}
	a.n, a.last, a.ready, a.digest = n, last, true, s.ArchiveDigest
	return nil
}

// save writes the index down, row by row (StoredMatches). The caller holds the lock.
func (a *archive) save() []StoredArchived {
	out := make([]StoredArchived, len(a.rows))
	for n, r := range a.rows {
		out[n] = StoredArchived{ID: r.id, Created: r.created, Game: a.games.all[r.game]}
	}
	for p, rows := range a.byPlayer {
		for _, n := range rows {
			out[n].Players = append(out[n].Players, a.players.all[p])
		}
	}
	return out
}

// restore reads back what save wrote, and the digest of the rows.
func (a *archive) restore(rows []StoredArchived, digest [sha256.Size]byte) {
	if a.row == nil {
		a.row = map[string]int32{}
	}
	for _, r := range rows {
		n := int32(len(a.rows))
		a.rows = append(a.rows, archivedRow{id: r.ID, created: r.Created, game: a.games.of(r.Game)})
		a.row[r.ID] = n
		a.all = append(a.all, n)
		a.byGame = appendAt(a.byGame, a.rows[n].game, n)
		for _, player := range r.Players {
			a.byPlayer = appendAt(a.byPlayer, a.players.of(player), n)
		}
	}
	// The rows come in the order they were archived: sorted once, not inserted one by one.
	slices.SortFunc(a.all, a.oldestFirst)
	for _, l := range a.byGame {
		slices.SortFunc(l, a.oldestFirst)
	}
	for _, l := range a.byPlayer {
		slices.SortFunc(l, a.oldestFirst)
	}
	a.digest = digest
}

// appendAt appends row n to lists[k], which it makes if missing.
func appendAt(lists [][]int32, k, n int32) [][]int32 {
	for int(k) >= len(lists) {
		lists = append(lists, nil)
	}
	lists[k] = append(lists[k], n)
	return lists
}

// insertAt puts row n in its place in lists[k], which it makes if missing.
func (a *archive) insertAt(lists [][]int32, k, n int32) [][]int32 {
	for int(k) >= len(lists) {
		lists = append(lists, nil)
	}
	lists[k] = a.insert(lists[k], n)
	return lists
}

// insert puts row n in its place in list, kept oldest first.
func (a *archive) insert(list []int32, n int32) []int32 {
	i, _ := slices.BinarySearchFunc(list, n, a.oldestFirst)
	return slices.Insert(list, i, n)
}

// oldestFirst orders rows the reverse of a listing (byNewest).
func (a *archive) oldestFirst(x, y int32) int {
	return -byNewest(a.listed(x), a.listed(y))
}

// listed is row n as a listing sorts it.
func (a *archive) listed(n int32) listed {
	return listed{id: a.rows[n].id, created: a.rows[n].created}
}

// find is the archived match of ID id, as a listing sorts it.
func (a *archive) find(id string) (listed, bool, error) {
	if a.file != nil {
		if a.n == 0 || a.err != nil {
			return listed{}, false, a.err
		}
		return a.file.find(id)
	}
	n, ok := a.row[id]
	if !ok {
		return listed{}, false, nil
	}
	return a.listed(n), true, nil
}

// has reports whether the match of ID id is archived.
func (a *archive) has(id string) (bool, error) {
	_, ok, err := a.find(id)
	return ok, err
}

// listed is a match of a listing before its view is read: a view in memory, or an
// archived match's row.
type listed struct {
	view    *MatchView
	id      string
	created int64
}

// match adds to out the archived matches that f selects, newest first, after the
// cursor (nil for none), and at most f.Limit of them when it is positive. The cost is a
// binary search and the page; with both a game and a player, the player's matches of
// other games are skipped on the way. The caller holds the lock.
func (a *archive) match(f Filter, cursor *listed, out []listed) ([]listed, error) {
	if f.Status != "" && f.Status != match.Finished {
		return out, nil
	}
	if a.file != nil {
		if a.n == 0 || a.err != nil {
			return out, a.err
		}
		return a.file.match(f, cursor, out)
	}
	game := int32(-1)
	if f.Game != "" {
		g, ok := a.games.find(f.Game)
		if !ok || int(g) >= len(a.byGame) {
			return out, nil
		}
		game = g
	}
	list := a.all
	switch {
	case f.Player != "":
		p, ok := a.players.find(f.Player)
		if !ok || int(p) >= len(a.byPlayer) {
			return out, nil
		}
		list = a.byPlayer[p]
	case game >= 0:
		list, game = a.byGame[game], -1
	}
	end := len(list)
	if cursor != nil {
		// The rows before end are those that a listing puts after the cursor.
		end, _ = slices.BinarySearchFunc(list, *cursor, func(n int32, c listed) int { return -byNewest(a.listed(n), c) })
	}
	taken := 0
	for i := end - 1; i >= 0 && (f.Limit <= 0 || taken < f.Limit); i-- {
		if n := list[i]; game < 0 || a.rows[n].game == game {
			out = append(out, a.listed(n))
			taken++
		}
	}
	return out, nil
}

// byNewest orders a listing newest first, ties by ID.
func byNewest(a, b listed) int {
	if c := cmp.Compare(b.created, a.created); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// load folds an archived match's view again from the store, as it was when archived: its
// game state dropped.
func (m *Matches) load(ctx context.Context, id string) (*MatchView, error) {
	if m.store == nil {
		return nil, fmt.Errorf("projections: match %s is archived and the model has no store to read it from", id)
	}
	var v *MatchView
	for {
		var (
			evs  []eventstore.Event
			more bool
			err  error
		)
		switch {
		case v == nil:
			evs, err = m.store.ReadStream(ctx, matchstream.Name(id), 0, 1)
			more = len(evs) == 1
		case matchstream.Covering(v.Rules, v.State.Plan):
			evs, more, err = matchstream.Read(ctx, m.store, id, matchstream.Teams(v.State), v.At, 1000)
		default:
			evs, err = m.store.ReadStream(ctx, matchstream.Name(id), v.Version, 1000)
			more = len(evs) == 1000
		}
		if err != nil {
			return nil, fmt.Errorf("projections: reading archived match %s: %w", id, err)
		}
		if len(evs) > 0 {
			if v, err = m.fold(id, v, evs); err != nil {
				return nil, fmt.Errorf("projections: folding archived match %s: %w", id, err)
			}
		}
		if !more {
			break
		}
	}
	if v == nil {
		return nil, fmt.Errorf("projections: archived match %s has no events in the store", id)
	}
	v.State.GameState, v.Archived = nil, true
	return v, nil
}
