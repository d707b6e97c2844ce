package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/fairness"
)

// TestSeedChecksAgainstItsCommitment follows the steps of docs/games/match.md ("The
// seed") and docs/fairness.md through the API on a finished Sovereign Chess match: the
// commitment is public from the first event, each player's entropy from its join, the
// seed hidden until the end, then shown as hex (and as base64 in SeedRevealed's data);
// its SHA-256 is the commitment, the match seed derives from it and the entropies, and
// deals the first mover that GameStarted recorded. `verify --fairness` then checks the
// match in the store and in its export, and catches a forged entropy in the export.
func TestSeedChecksAgainstItsCommitment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:SOVEREIGN_CHESS, mode:TWO_PLAYER}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	const join = `mutation($m:ID!,$s:Int,$e:String){joinMatch(matchId:$m, seat:$s, entropy:$e){seat}}`
	// Entropy that is neither hex nor base64, or too short, is refused and seats nobody.
	for _, bad := range []string{"not entropy!", "abcd", "c2hvcnQ="} {
		if r := srv.post(t, ann, join, map[string]any{"m": id, "s": 0, "e": bad}); r.code() != "BAD_USER_INPUT" {
			t.Fatalf("entropy %q: %+v", bad, r.Errors)
		}
	}
	entropy := [][]byte{[]byte("Ann's own sixteen+ bytes"), []byte("Bob draws his own, too")}
	sent := []string{hex.EncodeToString(entropy[0]), base64.StdEncoding.EncodeToString(entropy[1])}
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, join, map[string]any{"m": id, "s": seat, "e": sent[seat]}, nil)
	}
	type view struct {
		Match struct {
			SeedCommitment string
			Seed           *string
			Events         []wsEvent
			Fairness       struct {
				Procedure      int
				SeedCommitment string
				Entropies      []struct {
					Seat             int
					Entropy, DrawnBy string
				}
				Seed, MatchSeed *string
			}
		}
	}
	const q = `query($m:ID!){match(id:$m){seedCommitment seed events(first:100){version type data}
		fairness{procedure seedCommitment entropies{seat entropy drawnBy} seed matchSeed}}}`
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
	f := during.Match.Fairness
	if f.Procedure != 1 || f.SeedCommitment != commitment || f.Seed != nil || f.MatchSeed != nil || len(f.Entropies) != 2 {
		t.Fatalf("Match.fairness while the match is played: %+v", f)
	}
	for seat, e := range f.Entropies {
		if e.Seat != seat || e.Entropy != hex.EncodeToString(entropy[seat]) || e.DrawnBy != "player" {
			t.Fatalf("seat %d's entropy is shown as %+v, it sent %q", seat, e, sent[seat])
		}
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
	// Step 4: the match seed, HMAC-SHA256 of the seed and the entropies (docs/fairness.md).
	ms := fairness.MatchSeed(seed, entropy)
	if f := after.Match.Fairness; f.Seed == nil || *f.Seed != *after.Match.Seed || f.MatchSeed == nil || *f.MatchSeed != hex.EncodeToString(ms) {
		t.Fatalf("Match.fairness after the end: %+v; the match seed is %x", f, ms)
	}
	// SeedRevealed carries the same bytes (base64 in JSON); GameStarted's first mover is
	// IntN(2) of the match seed's stream "sovereign/opening" (docs/fairness.md).
	var revealed, started bool
	for _, ev := range after.Match.Events {
		switch ev.Type {
		case "SeedRevealed":
			var d struct{ Seed, MatchSeed []byte }
			revealed = json.Unmarshal(ev.Data, &d) == nil && bytes.Equal(d.Seed, seed) && bytes.Equal(d.MatchSeed, ms) && bytes.Contains(ev.Data, []byte(`"seed":"`))
		case "GameStarted":
			var d struct{ FirstMover int }
			started = json.Unmarshal(ev.Data, &d) == nil && d.FirstMover == fairness.New(ms, "sovereign/opening").IntN(2)
		}
	}
	if !revealed || !started {
		t.Fatalf("SeedRevealed holds the seed: %v; GameStarted's first mover is dealt from it: %v", revealed, started)
	}

	// verify --fairness on the export, offline, and on the store.
	status, _, export := srv.getExport(t, "", id+".ndjson")
	if status != http.StatusOK {
		t.Fatalf("GET %s.ndjson: %d", id, status)
	}
	file := filepath.Join(t.TempDir(), id+".ndjson")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	for _, args := range [][]string{{"--file", file}, {"--db", db, "--match", id}} {
		_, out := lastLine(t, append([]string{"verify", "--fairness"}, args...)...)
		if !strings.Contains(out, "fairness: procedure 1, seed "+*after.Match.Seed) || !strings.Contains(out, "match seed "+hex.EncodeToString(ms)) {
			t.Fatalf("verify --fairness %v:\n%s", args, out)
		}
	}
	// Bob's entropy changed in the export: the match seed no longer derives.
	forged := bytes.Replace(export, []byte(hex.EncodeToString(entropy[1])), []byte(hex.EncodeToString([]byte("Bob's entropy, forged later"))), 1)
	if err := os.WriteFile(file, forged, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _ := fails(t, "verify", "--fairness", "--file", file); !strings.Contains(out, "fairness: the revealed match seed") {
		t.Fatalf("verify --fairness of a forged entropy:\n%s", out)
	}
}
