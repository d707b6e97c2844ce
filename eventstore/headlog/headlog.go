// Package headlog keeps a store's signed heads in an append-only file outside the store,
// one line of JSON per head, written and flushed at most once per period. A signed head
// kept in the store's own file goes wherever the file goes (a file restored from an older
// copy, an SQLite file whose -wal was deleted, still verifies); the log remembers the
// newer heads, so that `arbiter verify` sees the store is behind what it once
// acknowledged. It helps only as far as it is kept apart: on another disk or machine
// (--head-log), it also survives someone who edits the store.
package headlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
)

// line is a head as written in the file.
type line struct {
	Position  int64     `json:"position"`
	Hash      string    `json:"hash"`
	Time      time.Time `json:"time"`
	Signature []byte    `json:"signature"`
	Public    bool      `json:"public,omitempty"` // a head of the public chain (eventstore.PublicChain)
}

// Line returns h as one line of the log, newline included: the format in which the server
// also answers its public head at /signed-head, so that a client can keep heads in a log
// of its own.
func Line(h eventstore.Head) ([]byte, error) {
	b, err := json.Marshal(line{h.Position, h.Hash, h.Time.UTC(), h.Signature, h.Public})
	return append(b, '\n'), err
}

// Append writes h at the end of the log at path, creating it with mode 0600 if needed,
// and flushes it to disk.
func Append(path string, h eventstore.Head) error {
	b, err := Line(h)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("head log: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("head log %s: %w", path, err)
	}
	return nil
}

// Read returns the heads logged at path, in the order written. A last line cut short (by a
// crash while it was written) is left out; any other line that does not read is an error.
func Read(path string) ([]eventstore.Head, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(data, []byte("\n"))
	// What follows the last newline is "" or a line cut short: every Append ends in one.
	lines = lines[:len(lines)-1]
	heads := make([]eventstore.Head, 0, len(lines))
	for i, b := range lines {
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fmt.Errorf("head log %s, line %d: %w", path, i+1, err)
		}
		heads = append(heads, eventstore.Head{Position: l.Position, Hash: l.Hash, Time: l.Time.UTC(), Signature: l.Signature, Public: l.Public})
	}
	return heads, nil
}

// Source is the part of a store the keeper reads.
type Source interface {
	SignedHead(ctx context.Context) (eventstore.Head, error)
}

// Keep appends the store's signed head to the log at path every period while it changes,
// until ctx ends, and then once more, so that a clean stop logs the last head. A failure
// to read the head or to write the log is given to report and tried again at the next
// period: a full disk must not end the log for good. It returns an error only for a log
// that exists and cannot be read.
func Keep(ctx context.Context, store Source, path string, period time.Duration, report func(error)) error {
	var last eventstore.Head
	if heads, err := Read(path); err == nil && len(heads) > 0 {
		last = heads[len(heads)-1]
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	write := func(ctx context.Context) {
		h, err := store.SignedHead(ctx)
		if err == nil && (h.Position != last.Position || h.Hash != last.Hash) {
			if err = Append(path, h); err == nil {
				last = h
			}
		}
		if err != nil {
			report(err)
		}
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			write(final)
			return nil
		case <-tick.C:
			write(ctx)
		}
	}
}
