// Package engine handles commands: it loads a match (a cached fold of its stream, checked
// against the store), asks the game's rules to decide, appends the events with the
// expected version, and acknowledges only once the append is durable. A version conflict
// (another node or request won) means reload and decide again; a command ID seen before
// returns the first outcome instead of acting twice. The engine knows games only through
// game.Registry and the store only through the eventstore port.
package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Config wires an engine.
type Config struct {
	Store  eventstore.Store
	Games  *game.Registry
	Now    func() time.Time // the server clock; time.Now when nil
	Random io.Reader        // seeds, IDs and token secrets; crypto/rand when nil
	Logger *slog.Logger
	// MaxCached bounds the number of match states kept in memory (default 100,000).
	MaxCached int
	// KeepFinished is how many finished matches stay in memory (default 256): a finished
	// match leaves once that many more have ended, and a late retry or a rematch reads it
	// back from the store. Memory then follows the live matches, not the throughput.
	KeepFinished int
	// MaxRetries bounds how many times a command is decided again after a version
	// conflict before CONFLICT is returned (default 8).
	MaxRetries int
	// Abandon is the rule for players who leave a live match, recorded in each new match
	// (default match.DefaultAbandon: a claim after 30 s, a forfeit after 2 min).
	Abandon *match.Abandon
	// Observer, if set, is told of every match command decided (metrics).
	Observer Observer
}

// Observer is told of each match command the engine handled: its kind ("create", "join",
// "act"...), its outcome ("ok", "duplicate", a rejection code in lower case, or "error")
// and how long it took, conflicts and retries included.
type Observer interface {
	Command(kind, outcome string, took time.Duration)
}

// Engine is safe for concurrent use.
type Engine struct {
	cfg     Config
	mu      sync.Mutex
	matches map[string]*entry
	keys    *commandKeys // how the cache hashes command IDs
	ended   []string     // finished matches in the cache, oldest first (retire)
	players sync.Map     // player ID -> player (immutable once registered)
	wallets sync.Map     // player ID -> foldedWallet: the last fold of a wallet, caught up at each use
	aside   sync.Map     // match ID -> *match.Unreplayable: matches whose stored events do not replay
}

// New returns an engine.
func New(cfg Config) *Engine {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Abandon == nil {
		rule := match.DefaultAbandon
		cfg.Abandon = &rule
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxCached <= 0 {
		cfg.MaxCached = 100_000
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 8
	}
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = 256
	}
	return &Engine{cfg: cfg, matches: map[string]*entry{}, keys: newCommandKeys()}
}

// Games returns the registry the engine serves.
func (e *Engine) Games() *game.Registry { return e.cfg.Games }

// Store returns the engine's event store.
func (e *Engine) Store() eventstore.Store { return e.cfg.Store }

// Ack tells a caller where its command landed.
type Ack struct {
	MatchID      string
	FirstVersion int64 // the versions of the events the command caused
	LastVersion  int64
	LastPosition int64 // the global position of its last event: wait for it to read your writes
	Duplicate    bool  // the command ID was seen before: this is the first outcome, nothing new happened
}

// PlayerStream is the stream of a player.
func PlayerStream(id string) string { return "player-" + id }

// now returns the server time at the precision every store keeps (microseconds), so a
// state folded before and after a round trip through the store is the same.
func (e *Engine) now() time.Time { return e.cfg.Now().UTC().Truncate(time.Microsecond) }

// newID returns a random identifier: 16 characters of lowercase base32 (80 bits).
func (e *Engine) newID() (string, error) {
	b := make([]byte, 10)
	if _, err := io.ReadFull(e.cfg.Random, b); err != nil {
		return "", fmt.Errorf("engine: reading randomness: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)), nil
}

func (e *Engine) randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(e.cfg.Random, b); err != nil {
		return nil, fmt.Errorf("engine: reading randomness: %w", err)
	}
	return b, nil
}

// eventID derives the ID of the i-th event caused by a command in a stream from who sent
// it, under which command ID and the fingerprint of its content, so that an append retried
// with the same command yields the same IDs and the store drops the copy, while another
// actor's command, or another command under the same ID, never does.
//
// basis is the time (Unix microseconds) of the last public event of the match that the
// decision was based on, 0 for a decision with none (a match's creation, a player's
// registration). A decision with a basis has IDs in decision order: their first 8 bytes
// are the basis, big-endian, so that the store's index of IDs takes the appends of live
// matches in its last few pages rather than on a random page each; their last 8 bytes are
// the hash's, which alone tell commands apart (commandPart). A decision with no basis keeps
// the first 8 bytes of the hash, as every ID did before session 15. The same command
// decided from the same state, again or on another node, has the same basis and so the
// same IDs. The basis is the time of an event every viewer of the match is shown (its
// envelope), never a global position, which a viewer is not (projections.Viewer.Event).
func eventID[F string | []byte](stream string, meta Meta, fingerprint F, i int, basis int64) string {
	var in [256]byte
	b := append(in[:0], stream...)
	b = append(append(b, 0), meta.Actor...)
	b = append(append(b, 0), meta.CommandID...)
	b = append(append(b, 0), fingerprint...)
	b = strconv.AppendInt(append(b, 0), int64(i), 10)
	h := sha256.Sum256(b)
	if basis > 0 {
		binary.BigEndian.PutUint64(h[0:8], uint64(basis))
	}
	// A UUID's form: 8-4-4-4-12 hex digits of the first 16 bytes.
	var out [36]byte
	hex.Encode(out[0:8], h[0:4])
	hex.Encode(out[9:13], h[4:6])
	hex.Encode(out[14:18], h[6:8])
	hex.Encode(out[19:23], h[8:10])
	hex.Encode(out[24:36], h[10:16])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

// commandPart returns the part of an event ID that eventID takes from the hash of the
// command in both its forms (the last 8 bytes, from "-" on), or the whole of any other ID.
// It is what tells a retry from another command under the same command ID, for events
// stored in either form.
func commandPart(id string) string {
	if len(id) == 36 && id[18] == '-' {
		return id[18:]
	}
	return id
}

// MaxIDBytes bounds the IDs a client passes: a command ID here, and every ID argument of
// the API (a match, a player, a card). IDs the server makes are 16 characters long; a
// longer one names nothing.
const MaxIDBytes = 128

// CheckCommandID rejects a client command ID that could not be a sane idempotency key.
func CheckCommandID(id string) error {
	if len(id) > MaxIDBytes {
		return game.Reject(game.BadInput, "the command ID is %d bytes long; at most %d are allowed", len(id), MaxIDBytes)
	}
	for _, r := range id {
		if r < 0x21 || r > 0x7e {
			return game.Reject(game.BadInput, "the command ID may hold only visible ASCII characters")
		}
	}
	return nil
}

// Failures of the server (not refusals, which are game.Errors) say whether the command
// was applied, so that a caller knows whether and how to send it again.
var (
	// ErrUnavailable marks a failure before anything was written: nothing was applied,
	// and the command may be sent again.
	ErrUnavailable = errors.New("nothing was applied")
	// ErrOutcomeUnknown marks a failure while or after a command's events were written:
	// they may be stored. The same command sent again under the same command ID answers
	// the first outcome, or applies the command once if it was not.
	ErrOutcomeUnknown = errors.New("the command may have been applied")
)

// notApplied marks a failure that happened before anything was written; refusals and
// failures already marked are returned as they are.
func notApplied(err error) error {
	if err == nil || game.CodeOf(err) != "" || errors.Is(err, ErrOutcomeUnknown) || errors.Is(err, ErrUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

// maybeApplied marks a failure of an append, or after one: the events may be stored.
func maybeApplied(err error) error { return fmt.Errorf("%w: %w", ErrOutcomeUnknown, err) }

// appendError marks a failed append: not applied when the store says it wrote nothing
// (the append was malformed, the store is closed), maybe applied otherwise.
func appendError(op string, err error) error {
	err = storeError(op, err)
	if errors.Is(err, eventstore.ErrInvalid) || errors.Is(err, eventstore.ErrClosed) {
		return notApplied(err)
	}
	return maybeApplied(err)
}

// storeError turns a store failure into what a caller may be told.
func storeError(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("engine: %s: %w", op, err)
}
