package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestSeedChecksAgainstItsCommitment follows the steps of docs/games/match.md ("The
// seed") through the API on a finished Sovereign Chess match: the commitment is public
// from the first event, the seed is hidden until the end, then shown as hex (and as base64
// in SeedRevealed's data); its SHA-256 is the commitment, and it deals the first mover
// that GameStarted recorded.
func TestSeedChecksAgainstItsCommitment(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:SOVEREIGN_CHESS, mode:TWO_PLAYER}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	type view struct {
		Match struct {
			SeedCommitment string
			Seed           *string
			Events         []wsEvent
		}
	}
	const q = `query($m:ID!){match(id:$m){seedCommitment seed events(first:100){version type data}}}`
	var during view
	srv.must(t, "", q, map[string]any{"m": id}, &during)
	// Step 1: the commitment, in match and in MatchCreated, version 1.
	commitment := during.Match.SeedCommitment
	var created struct{ SeedCommitment string }
	if ev := during.Match.Events[0]; ev.Version != 1 || ev.Type != "MatchCreated" || json.Unmarshal(ev.Data, &created) != nil || created.SeedCommitment != commitment {
		t.Fatalf("MatchCreated %s does not carry the commitment %s", ev.Data, commitment)
	}
	if during.Match.Seed != nil {
		t.Fatalf("the seed is shown while the match is played: %s", *during.Match.Seed)
	}
	for _, ev := range during.Match.Events {
		if bytes.Contains(ev.Data, []byte(`"seed"`)) {
			t.Fatalf("event %d %s shows a seed while the match is played: %s", ev.Version, ev.Type, ev.Data)
		}
	}

	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	var after view
	srv.must(t, "", q, map[string]any{"m": id}, &after)
	// Step 2: the seed, as 64 hex digits.
	if after.Match.Seed == nil || len(*after.Match.Seed) != 64 {
		t.Fatalf("the seed after the end: %v", after.Match.Seed)
	}
	// Step 3: 32 bytes whose SHA-256, in lowercase hex, is the commitment.
	seed, err := hex.DecodeString(*after.Match.Seed)
	if err != nil || len(seed) != 32 {
		t.Fatalf("the seed %q is not 32 bytes in hex: %v", *after.Match.Seed, err)
	}
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != commitment {
		t.Fatalf("sha256(seed) = %x, the commitment is %s", sum, commitment)
	}
	// SeedRevealed carries the same bytes (base64 in JSON); GameStarted's first mover is
	// sha256(seed || "sovereign/opening")[0] & 1 (docs/games/sovereign.md).
	var revealed, started bool
	for _, ev := range after.Match.Events {
		switch ev.Type {
		case "SeedRevealed":
			var d struct{ Seed []byte }
			revealed = json.Unmarshal(ev.Data, &d) == nil && bytes.Equal(d.Seed, seed) && bytes.Contains(ev.Data, []byte(`"seed":"`))
		case "GameStarted":
			var d struct{ FirstMover int }
			sum := sha256.Sum256(append(bytes.Clone(seed), "sovereign/opening"...))
			started = json.Unmarshal(ev.Data, &d) == nil && d.FirstMover == int(sum[0]&1)
		}
	}
	if !revealed || !started {
		t.Fatalf("SeedRevealed holds the seed: %v; GameStarted's first mover is dealt from it: %v", revealed, started)
	}
}
