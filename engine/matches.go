package engine

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// entry is the cached fold of one match: its own stream and, for a game whose rules are
// game.Covering, its teams' hidden streams, folded in global order (matchstream). Its
// mutex serializes the commands of a match inside this process, whichever stream they
// write to, which leaves version conflicts to racing nodes.
type entry struct {
	mu       sync.Mutex
	id       string
	stream   string // the match's own stream: matchstream.Name(id), named once
	rules    game.Rules
	state    match.State
	version  int64              // of the match's own (public) stream: at.Version
	at       matchstream.Cursor // where the fold stands in each of the match's streams
	position int64              // global position of the last folded event
	publicAt int64              // Unix microseconds of the last public event folded: the basis of eventID
	commands map[commandKey]seenCommand
	keys     *commandKeys // how command IDs are hashed into commands: the engine's
	retired  bool         // finished, and queued to leave the cache (Engine.retire)
	scratch  proposal     // the memory of the last append, for the next (propose)
}

// proposal is what propose writes a command's events into: kept in the entry and reused by
// the next command on the match, so that a move costs no allocation for its proposed
// events and their payloads (the store copies what it keeps; eventstore.Seal). A store may
// still read them after a failed append (a canceled caller leaves its request queued),
// so the engine gives the memory up then (lost).
type proposal struct {
	events   []eventstore.Proposed
	payloads []byte
}

// maxKeptPayloads bounds the payload memory an entry keeps between commands: a rare
// large append (a creation, a deal) does not hold its memory in every cached match.
const maxKeptPayloads = 4 << 10

// lost drops the memory of an append the store may still read.
func (p *proposal) lost() { *p = proposal{} }

// commandKey is a 128-bit hash of an actor and a command ID: a command seen costs a fixed
// few bytes however long its ID, and two commands share a key with odds of 2^-128. The
// hash is seeded per process, so no client can work out two IDs that collide.
type commandKey [2]uint64

// commandKeys hashes command IDs into commandKeys, with two secret seeds.
type commandKeys struct{ a, b maphash.Seed }

func newCommandKeys() *commandKeys { return &commandKeys{a: maphash.MakeSeed(), b: maphash.MakeSeed()} }

// of scopes a command ID to its sender: the same ID from two actors names two commands,
// so no one can take another's command ID, nor the server's.
func (k *commandKeys) of(actor, commandID string) commandKey {
	// Joined in a buffer on the stack (a command ID is at most MaxIDBytes, an actor a
	// prefix and an ID): two keys are taken per command, and a joined string would be
	// allocated each time. maphash.Bytes hashes as maphash.String does the same bytes.
	var buf [2*MaxIDBytes + 32]byte
	s := append(append(append(buf[:0], actor...), 0), commandID...)
	return commandKey{maphash.Bytes(k.a, s), maphash.Bytes(k.b, s)}
}

// eventHash is what a seenCommand keeps of its first event's ID (seeded like the keys):
// the part that eventID takes from the command alone, the same in IDs stored before
// session 15 and after, and whatever the decision was based on.
func (k *commandKeys) eventHash(id string) uint64 {
	return maphash.String(k.a, "event\x00"+commandPart(id))
}

// seenCommand is the first outcome of a command, in 32 bytes: what a retry is answered
// with, and a hash of the ID of its first event. That ID is derived from the command's
// content (see eventID), so a command ID sent again with a different command is told
// apart from a retry. A covert command's events are in its team's hidden stream, decided
// on a public version (basis); a public one's team and basis are -1. Versions fit in 32
// bits: a match's stream of 2^31 events would take a lifetime of moves to write.
type seenCommand struct {
	firstEvent                uint64
	lastPosition              int64
	firstVersion, lastVersion int32
	basis                     int32
	team                      int32
}

// ack is the answer to a retry of the command on match id.
func (c seenCommand) ack(id string) Ack {
	return Ack{MatchID: id, FirstVersion: int64(c.firstVersion), LastVersion: int64(c.lastVersion), LastPosition: c.lastPosition, Duplicate: true}
}

// sameCommand reports whether a command sent under this command's ID, with fingerprint
// fp, is the one first seen (a retry) rather than another one (a conflict).
func (c seenCommand) sameCommand(keys *commandKeys, id string, meta Meta, fp commandPrint) bool {
	stream := matchstream.Name(id)
	if c.team >= 0 {
		stream = matchstream.Hidden(id, int(c.team))
	}
	var buf [64]byte
	return c.firstEvent == keys.eventHash(eventID(stream, meta, basedOn(fp, int64(c.basis)).appendTo(buf[:0]), 0, 0))
}

func newEntry(id string, keys *commandKeys) *entry {
	return &entry{id: id, stream: matchstream.Name(id), commands: map[commandKey]seenCommand{}, keys: keys}
}

// fold brings the entry past evs, the next events of its streams in global order: its
// cursor, position and version, the state of the match and the commands seen. decided, when
// not nil, is the match after every event of evs, worked out by the decision that
// proposed them (match.DecideNext) on the entry's state as it stands: the events are then
// not folded into the state one by one, but all else is brought past them as for any
// other. The caller gives it only for public events (live whatever the cursor holds).
func (en *entry) fold(f match.Folder, evs []eventstore.Event, decided *match.State) error {
	for i := range evs {
		ev := &evs[i] // not a copy: this frame is under every fold's descent into the rules
		live, err := en.at.Next(en.id, *ev)
		if err != nil {
			return err
		}
		en.position = ev.Position
		if !live {
			continue // a covert event that lost a race: void, and its command with it
		}
		if decided == nil {
			if err := en.apply(f, ev); err != nil {
				return err
			}
		}
		if en.at.Version != en.version { // a public event
			en.publicAt = ev.Time.UnixMicro()
		}
		en.version = en.at.Version
		if ev.CommandID != "" {
			key := en.keys.of(ev.Actor, ev.CommandID)
			c, seen := en.commands[key]
			if !seen {
				c = seenCommand{firstEvent: en.keys.eventHash(ev.ID), firstVersion: int32(en.version), basis: -1, team: -1}
				if _, team, hidden := matchstream.HiddenOf(ev.Stream); hidden {
					// A covert event is live only on the basis the fold stands at
					// (matchstream.Cursor.Next), so that is its basis.
					c.basis, c.team = int32(en.at.Version), int32(team)
				}
			}
			c.lastVersion, c.lastPosition = int32(en.version), ev.Position
			en.commands[key] = c
		}
	}
	if decided != nil {
		en.state = *decided
	}
	return nil
}

// apply folds the stored event ev into the entry's rules and state.
func (en *entry) apply(f match.Folder, ev *eventstore.Event) error {
	rules, st, err := f.Apply(en.id, en.rules, en.state, ev.Version-1, matchstream.Record(*ev))
	if err != nil {
		return err
	}
	en.rules, en.state = rules, st
	return nil
}

// catchUp reads what the store has beyond the cached fold: this both checks the cache
// against the streams and brings it up to date. A cold entry first reads the match's
// first event, which names its rules and so whether it has hidden streams.
func (e *Engine) catchUp(ctx context.Context, en *entry) error {
	for {
		var (
			evs  []eventstore.Event
			more bool
			err  error
		)
		switch {
		case en.version == 0:
			evs, err = e.cfg.Store.ReadStream(ctx, en.stream, 0, 1)
			more = len(evs) == 1
		case matchstream.Covering(en.rules, en.state.Plan):
			evs, more, err = matchstream.Read(ctx, e.cfg.Store, en.id, matchstream.Teams(en.state), en.at, 1000)
		default:
			evs, err = e.cfg.Store.ReadStream(ctx, en.stream, en.version, 1000)
			more = len(evs) == 1000
		}
		if err != nil {
			return storeError("reading "+en.stream, err)
		}
		if err := en.fold(match.Folder{Games: e.cfg.Games}, evs, nil); err != nil {
			var u *match.Unreplayable
			if errors.As(err, &u) {
				e.aside.Store(en.id, u)
				return u.Refusal()
			}
			return err
		}
		if !more {
			return nil
		}
	}
}

// setAside returns the refusal of a match found not to replay, or nil. Such a match is
// remembered (it is a match the store holds, so this is bounded by the store) and not read
// again: each command on it would fold it again to fail at the same place.
func (e *Engine) setAside(id string) error {
	if u, ok := e.aside.Load(id); ok {
		return u.(*match.Unreplayable).Refusal()
	}
	return nil
}

// lookup returns the cache entry of a match, creating an empty one.
func (e *Engine) lookup(id string) *entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	en, ok := e.matches[id]
	if !ok {
		if len(e.matches) >= e.cfg.MaxCached {
			for k := range e.matches { // evict an arbitrary entry: it reloads from the store
				delete(e.matches, k)
				break
			}
		}
		en = newEntry(id, e.keys)
		e.matches[id] = en
	}
	return en
}

// retire queues en to leave the cache once it is finished: the oldest finished match
// leaves when more than KeepFinished are held. A finished match takes no more moves, and
// what its readers ask (a retry's first answer, a rematch) is read back from the store.
// The caller holds en.mu.
func (e *Engine) retire(en *entry) {
	if en.retired || en.state.Status != match.Finished {
		return
	}
	en.retired = true
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended = append(e.ended, en.id)
	for len(e.ended) > e.cfg.KeepFinished {
		delete(e.matches, e.ended[0]) // a later entry of the same ID is finished too
		e.ended = e.ended[1:]
	}
}

func (e *Engine) forget(id string) {
	e.mu.Lock()
	delete(e.matches, id)
	e.mu.Unlock()
}

// forgetEmpty drops en from the cache if it holds no match: a command on a match that does
// not exist, or a creation that was refused, leaves nothing behind that a caller could pile
// up with made-up IDs. The caller holds en.mu; an entry that replaced en is left alone.
func (e *Engine) forgetEmpty(en *entry) {
	if en.version != 0 {
		return
	}
	e.mu.Lock()
	if e.matches[en.id] == en {
		delete(e.matches, en.id)
	}
	e.mu.Unlock()
}

// Cached returns how many matches the engine holds in memory.
func (e *Engine) Cached() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.matches)
}

// Snapshot is a consistent view of a match.
type Snapshot struct {
	ID       string
	Rules    game.Rules
	State    match.State
	Version  int64
	Position int64
}

// Match returns the current state of a match, read through to the store.
func (e *Engine) Match(ctx context.Context, id string) (Snapshot, error) {
	if err := e.setAside(id); err != nil {
		return Snapshot{}, err
	}
	en := e.lookup(id)
	en.mu.Lock()
	defer en.mu.Unlock()
	if err := e.catchUp(ctx, en); err != nil {
		e.forget(id)
		return Snapshot{}, notApplied(err)
	}
	if en.version == 0 {
		e.forgetEmpty(en)
		return Snapshot{}, game.Reject(game.NotFound, "no match %q", id)
	}
	e.retire(en)
	return Snapshot{ID: id, Rules: en.rules, State: en.state, Version: en.version, Position: en.position}, nil
}

// Meta is what the engine records of who sent a command and under which ID. A command ID
// is the sender's own: the same ID from two actors names two commands, and the same ID
// from one actor with a different command is refused with CONFLICT.
type Meta struct {
	CommandID string // the client's idempotency key; a random one when empty
	Actor     string // "player:<id>", "anonymous", "system"
}

// Handle runs a command on an existing match. The engine may keep what the command
// carries in the match's cached state (the state Decide worked out is kept, not folded
// again): a caller must not change the command, or what it points to, once passed.
func (e *Engine) Handle(ctx context.Context, matchID string, cmd match.Command, meta Meta) (Ack, error) {
	if _, ok := cmd.(match.Create); ok {
		return Ack{}, game.Reject(game.BadInput, "use CreateMatch to create a match")
	}
	if j, ok := cmd.(match.Join); ok && j.Funds == nil && !j.Bot {
		if ack, funded, err := e.joinFunded(ctx, matchID, j, meta); funded {
			return ack, err
		}
	}
	return e.handle(ctx, matchID, nil, cmd, meta)
}

// joinFunded joins a match that moves coins through a hold on the player's wallet;
// funded is false for any other match, which a join enters as any command. It is a
// function of its own so that the snapshot it reads is not in Handle's stack frame, under
// which every command decides and folds.
func (e *Engine) joinFunded(ctx context.Context, matchID string, j match.Join, meta Meta) (_ Ack, funded bool, _ error) {
	snap, err := e.Match(ctx, matchID)
	if err != nil || !match.Funded(snap.Rules, snap.State.Options) {
		return Ack{}, false, nil
	}
	if err := CheckCommandID(meta.CommandID); err != nil {
		return Ack{}, true, err
	}
	ack, err := e.fundedJoin(ctx, snap, j, meta)
	return ack, true, err
}

// handle decides and appends; rules is given only when creating. The observer, if any,
// hears of it.
func (e *Engine) handle(ctx context.Context, matchID string, rules game.Rules, cmd match.Command, meta Meta) (ack Ack, err error) {
	if o := e.cfg.Observer; o != nil {
		start := time.Now()
		defer func() { o.Command(commandKind(cmd), outcome(ack, err), time.Since(start)) }()
	}
	ack, err = e.decideAndAppend(ctx, matchID, rules, cmd, meta)
	return ack, notApplied(err) // the failures of an append are marked maybeApplied
}

// commandKind names a command for the observer: its type, in lower case. A move, nearly
// every command a server observes, is named without fmt.
func commandKind(cmd match.Command) string {
	if _, ok := cmd.(match.Act); ok {
		return "act"
	}
	return typeKind(cmd)
}

// typeKind is commandKind for any command, from its type's name.
func typeKind(cmd match.Command) string {
	name := fmt.Sprintf("%T", cmd)
	return strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
}

// outcome names how a command ended for the observer.
func outcome(ack Ack, err error) string {
	switch {
	case err == nil && ack.Duplicate:
		return "duplicate"
	case err == nil:
		return "ok"
	case game.CodeOf(err) != "":
		return strings.ToLower(string(game.CodeOf(err)))
	}
	return "error"
}

func (e *Engine) decideAndAppend(ctx context.Context, matchID string, rules game.Rules, cmd match.Command, meta Meta) (Ack, error) {
	if err := CheckCommandID(meta.CommandID); err != nil {
		return Ack{}, err
	}
	if meta.CommandID == "" {
		id, err := e.newID()
		if err != nil {
			return Ack{}, err
		}
		meta.CommandID = "auto-" + id
	}
	if err := e.setAside(matchID); err != nil {
		return Ack{}, err
	}
	fp, err := fingerprint(cmd)
	if err != nil {
		return Ack{}, err
	}
	// A seat brings entropy to the match seed (docs/fairness.md): the player's, or, when it
	// sent none, the server's. The fingerprint was taken without it, so that the same join
	// sent again is known for a retry; the server's is drawn only once a decision needs
	// it (below), so that a retry answered from the commands seen draws nothing: the
	// server's randomness goes only into what events record.
	j, serverEntropy := cmd.(match.Join)
	serverEntropy = serverEntropy && j.Entropy == nil
	en := e.lookup(matchID)
	en.mu.Lock()
	defer en.mu.Unlock()
	defer e.forgetEmpty(en) // deferred calls run last in, first out: en is still locked
	defer e.retire(en)
	// A warm cache is decided upon without reading the store: the append's expected version
	// checks it. Only a cold cache, a conflict or a refusal (which must not rest on a stale
	// state) reads what the stream holds beyond it.
	fresh := false
	var next match.Next // the match after the events decided, if the decision worked it out
	for attempt := 0; ; attempt++ {
		if en.version == 0 || !fresh && attempt > 0 {
			if err := e.catchUp(ctx, en); err != nil {
				e.forget(matchID)
				return Ack{}, err
			}
			fresh = true
		}
		if c, seen := en.commands[en.keys.of(meta.Actor, meta.CommandID)]; seen {
			if !c.sameCommand(en.keys, matchID, meta, fp) {
				return Ack{}, game.Reject(game.Conflict, "the command ID %q was already used for a different command: send this one under a new command ID", meta.CommandID)
			}
			return c.ack(matchID), nil
		}
		r := en.rules
		if r == nil {
			r = rules
		}
		if r == nil {
			return Ack{}, game.Reject(game.NotFound, "no match %q", matchID)
		}
		if serverEntropy { // once, whatever the attempts: a conflict decides again on the same entropy
			if j.Entropy, err = e.randomBytes(32); err != nil {
				return Ack{}, err
			}
			j.ServerEntropy, serverEntropy = true, false
			cmd = j
		}
		// One clock reading for the command and its events, so that what the rules were
		// told (Setup's start time, a deadline) is the time recorded on the events.
		now := e.now()
		emitted, err := match.DecideNext(r, en.state, stamped(cmd, now), &next)
		if err != nil && !fresh {
			continue // refused by the cache: check with the stream before answering
		}
		if err != nil {
			return Ack{}, err
		}
		if len(emitted) == 0 {
			return Ack{}, fmt.Errorf("engine: %T on match %s decided nothing", cmd, matchID)
		}
		to, err := streamOf(en, emitted)
		if err != nil {
			return Ack{}, fmt.Errorf("engine: %T on match %s: %w", cmd, matchID, err)
		}
		expected, basis := en.version, int64(-1)
		if _, team, covert := matchstream.HiddenOf(to); covert {
			expected, basis = en.at.HiddenVersion(team), en.version
		}
		proposed, err := e.propose(&en.scratch, r, to, emitted, meta, basedOn(fp, basis), en.publicAt, now)
		if err != nil {
			return Ack{}, err
		}
		if basis >= 0 {
			for i := range proposed {
				if proposed[i].Payload, err = matchstream.WithBasis(proposed[i].Payload, basis); err != nil {
					return Ack{}, err
				}
			}
		}
		res, err := e.cfg.Store.Append(ctx, to, expected, proposed...)
		if err != nil {
			en.scratch.lost()
		}
		switch {
		case isConflict(err):
			if attempt+1 >= e.cfg.MaxRetries {
				return Ack{}, &game.Error{Code: game.Conflict, Reason: "the match kept changing under this command; send it again", Err: err}
			}
			fresh = false
			continue // another writer won: catch up and decide again
		case err != nil:
			e.forget(matchID) // the append may or may not have landed: reload next time
			return Ack{}, appendError("appending to "+to, err)
		}
		// The state Decide worked out is the one the fold would give, once the events
		// are known to have landed right after the state it was decided on (foldAppended).
		// A creation is folded (its first event pins the rules), and so are a covert
		// decision, whose events the cursor may find void, and a decision that did not
		// work it out (next.Known: a command other than a game's action).
		var decided *match.State
		if next.Known && en.rules != nil && basis < 0 {
			decided = &next.State
		}
		if err := e.foldAppended(ctx, en, to, expected, proposed, res, decided); err != nil {
			e.forget(matchID)
			return Ack{}, maybeApplied(err)
		}
		if basis >= 0 {
			// A covert append is checked against the public stream, which it could not be
			// appended with: the fold takes in what another node appended there before it,
			// and then finds it void (matchstream.Cursor.Next), and the command is decided
			// again on the state that is.
			c, seen := en.commands[en.keys.of(meta.Actor, meta.CommandID)]
			if !seen {
				if attempt+1 >= e.cfg.MaxRetries {
					return Ack{}, &game.Error{Code: game.Conflict, Reason: "the match kept changing under this command; send it again"}
				}
				fresh = true
				continue
			}
			a := c.ack(matchID)
			a.Duplicate = res.Duplicate
			return a, nil
		}
		a := Ack{MatchID: matchID, FirstVersion: res.FirstVersion, LastVersion: res.LastVersion, LastPosition: res.LastPosition, Duplicate: res.Duplicate}
		return a, nil
	}
}

// stamped is match.Stamped(cmd, at), with a move's stamped copy boxed in the caller's
// frame: inlined into it, the conversion does not escape (DecideNext keeps no command),
// where Stamped's result is on the heap, for every move.
func stamped(cmd match.Command, at time.Time) match.Command {
	if a, ok := cmd.(match.Act); ok {
		a.At = at
		return a
	}
	return match.Stamped(cmd, at)
}

// isConflict reports whether err is a version conflict. The target errors.As fills is on
// the heap: declared here, it is allocated only for a failed append, not for every one.
func isConflict(err error) bool {
	if err == nil {
		return false
	}
	var conflict *eventstore.VersionConflict
	return errors.As(err, &conflict)
}

// streamOf returns the one stream of match en a decision goes to (matchstream.StreamOf):
// a covert decision to its team's hidden stream, any other to the match's own (named
// once, in the entry). One whose
// events belong in two streams (covert and public events, or two teams' secrets) is
// refused: the store appends to one stream at a time, so its halves could not land
// together.
func streamOf(en *entry, emitted []game.Emitted) (string, error) {
	var to string
	for i, em := range emitted {
		s := en.stream
		if game.IsCovert(em.Event) {
			var err error
			if s, err = matchstream.StreamOf(en.id, em.Event, em.Visibility); err != nil {
				return "", err
			}
		}
		if i > 0 && s != to {
			return "", fmt.Errorf("the rules decided %s for %s and %s for %s together", emitted[0].Event.EventType(), to, em.Event.EventType(), s)
		}
		to = s
	}
	return to, nil
}

// basedOn is the fingerprint of a command decided on a public version: a covert
// decision's event IDs name the version it was decided on, so that one decided again
// after losing a race (see matchstream.WithBasis) is not taken for a retry of the first.
// A basis below 0 is none.
func basedOn(fp commandPrint, basis int64) commandPrint {
	fp.basis = max(basis, -1)
	return fp
}

// foldAppended brings the cache past an append to stream, whose version was expected,
// that just succeeded. When the store says the events landed right after that version, at
// consecutive positions, and nothing of the match can have come before them, they are
// exactly the proposed ones, so they are folded without reading them back: that saves a
// store read per command; and then decided, when not nil, the match after them as the
// decision worked it out, is taken rather than folding them again (entry.fold). In any
// other case (a duplicate of an earlier append, a store that spreads positions) the
// cache catches up from the store, which holds the truth.
func (e *Engine) foldAppended(ctx context.Context, en *entry, stream string, expected int64, proposed []eventstore.Proposed, res eventstore.AppendResult, decided *match.State) error {
	n := int64(len(proposed))
	// The append's expected version rules out another event of stream before these. A
	// match with hidden streams has others, where another node may have appended since the
	// fold (a covert event before a public append, a public one before a covert append):
	// only events that follow the last folded one in the store's global order, with
	// nothing between, cannot have missed one.
	next := res.FirstPosition > en.position
	if matchstream.Covering(en.rules, en.state.Plan) {
		next = res.FirstPosition == en.position+1
	}
	if res.Duplicate || !next || res.FirstVersion != expected+1 || res.LastVersion != expected+n || res.LastPosition-res.FirstPosition != n-1 {
		return e.catchUp(ctx, en)
	}
	var one [1]eventstore.Event // a move's one event, without an allocation
	evs := one[:0]
	for i, p := range proposed {
		evs = append(evs, eventstore.Event{Proposed: p, Stream: stream, Version: res.FirstVersion + int64(i), Position: res.FirstPosition + int64(i)})
	}
	return en.fold(match.Folder{Games: e.cfg.Games}, evs, decided)
}

// propose encodes decided events for the store, stamped with the time at, into sc's
// memory; fp is the fingerprint of the command that decided them, publicAt the basis of
// their IDs (eventID).
func (e *Engine) propose(sc *proposal, rules game.Rules, stream string, emitted []game.Emitted, meta Meta, fp commandPrint, publicAt int64, at time.Time) ([]eventstore.Proposed, error) {
	var buf [64]byte
	print := fp.appendTo(buf[:0])
	if cap(sc.payloads) > maxKeptPayloads {
		sc.payloads = nil
	}
	out, payloads := sc.events[:0], sc.payloads[:0]
	for i, em := range emitted {
		start := len(payloads)
		var err error
		if payloads, err = game.AppendEncode(payloads, em.Event); err != nil {
			return nil, fmt.Errorf("engine: encoding %s: %w", em.Event.EventType(), err)
		}
		// Clipped: the next event's payload, appended after it, cannot reach into it.
		payload := payloads[start:len(payloads):len(payloads)]
		if em.Visibility != visibility.Public {
			if payload, err = e.salt(payload); err != nil {
				return nil, err
			}
		}
		typ := em.Event.EventType()
		out = append(out, eventstore.Proposed{
			ID:            eventID(stream, meta, print, i, publicAt),
			Type:          typ,
			SchemaVersion: match.SchemaOf(rules, typ),
			Payload:       payload,
			CommandID:     meta.CommandID,
			Actor:         meta.Actor,
			Visibility:    em.Visibility,
			Time:          at,
		})
	}
	sc.events, sc.payloads = out, payloads
	return out, nil
}

// CreateMatch opens a new match. With a command ID, the match ID is derived from it and
// the caller, so a retried creation returns the same match.
type CreateMatch struct {
	Game    string
	Options game.Options
	Rated   bool
	By      string // player ID of the creator, "" when anonymous
}

// Create creates a match and returns its ID in the Ack.
func (e *Engine) Create(ctx context.Context, c CreateMatch, meta Meta) (Ack, error) {
	rules, err := e.cfg.Games.Get(c.Game)
	if err != nil {
		return Ack{}, err
	}
	if err := CheckCommandID(meta.CommandID); err != nil {
		return Ack{}, err
	}
	if err := e.checkStake(ctx, c); err != nil {
		return Ack{}, err
	}
	var id string
	if meta.CommandID != "" {
		id = match.DerivedID("match", c.By, meta.CommandID)
	} else if id, err = e.newID(); err != nil {
		return Ack{}, err
	}
	seed, err := e.randomBytes(32)
	if err != nil {
		return Ack{}, err
	}
	cmd := match.Create{Game: c.Game, Options: c.Options, Rated: c.Rated, By: c.By, Seed: seed, At: e.now(), Abandon: e.cfg.Abandon}
	return e.handle(ctx, id, rules, cmd, meta)
}

// salt adds 128 random bits to the payload of a non-public event. Event hashes are shown to
// every viewer so that anyone can check a stream's chain; without a salt, a hidden payload
// with few possible values (a card among 58) could be found by hashing each candidate.
func (e *Engine) salt(payload []byte) ([]byte, error) {
	b, err := e.randomBytes(16)
	if err != nil {
		return nil, err
	}
	if len(payload) < 2 || payload[0] != '{' || payload[len(payload)-1] != '}' {
		return nil, fmt.Errorf("engine: a private event's payload is not a JSON object")
	}
	field := `"salt":"` + hex.EncodeToString(b) + `"`
	if len(payload) > 2 {
		field = "," + field
	}
	out := make([]byte, 0, len(payload)+len(field))
	out = append(out, payload[:len(payload)-1]...)
	out = append(out, field...)
	return append(out, '}'), nil
}
