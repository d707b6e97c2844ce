package main

import (
	"context"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	receipts "github.com/arbiter-games/arbiter/receipt"
	"github.com/arbiter-games/arbiter/serverkey"
)

// The receipt tests take a receipt over GraphQL from a real server on a real SQLite file,
// stop the server, change the file as someone with the file but not the key could (every
// hash of the match's chain recomputed, so that the chain alone sees nothing), and expect
// `arbiter verify --receipt` to catch it.

type gqlReceipt struct {
	MatchID string
	Size    int
	Root    string
	Note    string
}

const receiptFields = `matchId size root note`

// receiptMatch plays the opening of a Ruy Lopez on a new server, takes white's receipt after
// six plies, plays four more, black resigns, white downloads its export, and the server stops. It returns
// the store, the match, the receipt's file, the export's and the receipt as the API
// answered it.
func receiptMatch(t *testing.T) (db, id, file, export string, r gqlReceipt) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "arbiter.db")
	srv := startServer(t, db)
	_, white := srv.register(t, "white")
	_, black := srv.register(t, "black")
	id = srv.newMatch(t, white, black, false)
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"}
	for i, mv := range moves[:6] {
		if res := srv.play(t, []string{white, black}[i%2], id, mv); len(res.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, res.Errors)
		}
	}
	var d struct{ Receipt gqlReceipt }
	srv.must(t, white, `query($m:ID!){receipt(matchId:$m){`+receiptFields+`}}`, map[string]any{"m": id}, &d)
	r = d.Receipt
	file = filepath.Join(t.TempDir(), "receipt.txt")
	if err := os.WriteFile(file, []byte(r.Note), 0o600); err != nil {
		t.Fatal(err)
	}
	checkProofs(t, srv, white, id, r)
	for i, mv := range moves[6:] {
		if res := srv.play(t, []string{white, black}[i%2], id, mv); len(res.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, res.Errors)
		}
	}
	checkNewer(t, srv, id, r)
	srv.must(t, black, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	status, _, body := srv.getExport(t, white, id+".ndjson")
	if status != 200 {
		t.Fatalf("GET %s.ndjson: %d %s", id, status, body)
	}
	export = filepath.Join(t.TempDir(), "match.ndjson")
	if err := os.WriteFile(export, body, 0o600); err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	return db, id, file, export, r
}

// checkProofs checks the receipt with the key the API serves, and the proof of each of
// its events against its root: each at most log2 of its size long, each leaf the hash
// the caller's matchEvents shows for that version (a proof shows nothing more of an event).
func checkProofs(t *testing.T, srv *server, token, id string, r gqlReceipt) {
	t.Helper()
	var k struct {
		ServerKey struct{ VerifierKey, Fingerprint, PublicKeyPem string }
	}
	srv.must(t, "", `{serverKey{verifierKey fingerprint publicKeyPem}}`, nil, &k)
	v, err := note.NewVerifier(k.ServerKey.VerifierKey)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open([]byte(r.Note), note.VerifierList(v))
	if err != nil {
		t.Fatalf("the receipt does not open with the served key: %v\n%s", err, r.Note)
	}
	want := fmt.Sprintf("arbiter match receipt v1\nmatch %s\nsize %d\nroot %s\n", id, r.Size, r.Root)
	if n.Text != want {
		t.Fatalf("the receipt signs\n%s\nwant\n%s", n.Text, want)
	}
	pubFile := filepath.Join(t.TempDir(), "public.pem")
	os.WriteFile(pubFile, []byte(k.ServerKey.PublicKeyPem), 0o600)
	pub, err := serverkey.LoadPublic(pubFile)
	if err != nil || serverkey.Fingerprint(pub) != k.ServerKey.Fingerprint {
		t.Fatalf("the served PEM key %v has fingerprint %s, served %s", err, serverkey.Fingerprint(pub), k.ServerKey.Fingerprint)
	}
	root, _ := tlog.ParseHash(r.Root)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shown := srv.subscribe(t, ctx, "graphql-transport-ws", token, id, 0)
	hidden := 0
	for version := 1; version <= r.Size; version++ {
		ev := <-shown
		var d struct {
			EventProof struct {
				Version, Size  int
				Hash, PrevHash string
				Proof          []string
			}
		}
		srv.must(t, token, `query($m:ID!,$v:Int!,$s:Int!){eventProof(matchId:$m, version:$v, size:$s){version size hash prevHash proof}}`,
			map[string]any{"m": id, "v": version, "s": r.Size}, &d)
		p := d.EventProof
		if ev.Version != version || p.Hash != ev.Hash {
			t.Fatalf("version %d: the proof's leaf is %s, matchEvents shows version %d with hash %s", version, p.Hash, ev.Version, ev.Hash)
		}
		if ev.Redacted {
			hidden++
		}
		if len(p.Proof) > bits.Len(uint(r.Size-1)) {
			t.Fatalf("the proof of version %d of %d has %d hashes", version, r.Size, len(p.Proof))
		}
		proof, err := receipts.DecodeProof(p.Proof)
		if err != nil {
			t.Fatal(err)
		}
		leaf, _ := receipts.Leaf(p.Hash)
		if err := tlog.CheckRecord(proof, int64(r.Size), root, int64(version-1), leaf); err != nil {
			t.Fatalf("the proof of version %d: %v", version, err)
		}
	}
	if hidden == 0 {
		t.Fatal("no event of the receipt is hidden from white: the seed's should be")
	}
	for _, bad := range []map[string]any{{"m": id, "v": r.Size + 5, "s": r.Size + 5}, {"m": id, "v": 0, "s": r.Size}, {"m": id, "v": 3, "s": 2}} {
		res := srv.post(t, token, `query($m:ID!,$v:Int!,$s:Int!){eventProof(matchId:$m, version:$v, size:$s){hash}}`, bad)
		if res.code() != "BAD_USER_INPUT" {
			t.Errorf("eventProof%v answers %+v, want BAD_USER_INPUT", bad, res.Errors)
		}
	}
	if res := srv.post(t, token, `query{receipt(matchId:"nope"){size}}`, nil); res.code() != "NOT_FOUND" {
		t.Errorf("the receipt of no match: %+v", res.Errors)
	}
}

// checkNewer takes a newer receipt, as a spectator, with the proof that it extends r.
func checkNewer(t *testing.T, srv *server, id string, r gqlReceipt) {
	t.Helper()
	var d struct {
		NewerReceipt struct {
			Receipt gqlReceipt
			Since   int
			Proof   []string
		}
	}
	srv.must(t, "", `query($m:ID!,$s:Int!){newerReceipt(matchId:$m, since:$s){receipt{`+receiptFields+`} since proof}}`, map[string]any{"m": id, "s": r.Size}, &d)
	now := d.NewerReceipt.Receipt
	if now.Size != r.Size+4 {
		t.Fatalf("the newer receipt has %d events, want %d", now.Size, r.Size+4)
	}
	proof, err := receipts.DecodeProof(d.NewerReceipt.Proof)
	if err != nil {
		t.Fatal(err)
	}
	oldRoot, _ := tlog.ParseHash(r.Root)
	newRoot, _ := tlog.ParseHash(now.Root)
	if err := tlog.CheckTree(proof, int64(now.Size), newRoot, int64(r.Size), oldRoot); err != nil {
		t.Fatalf("the consistency proof from %d to %d: %v", r.Size, now.Size, err)
	}
	if err := tlog.CheckTree(proof, int64(now.Size), newRoot, int64(r.Size), newRoot); err == nil {
		t.Fatal("the consistency proof proves a root it was not made for")
	}
}

// rechain recomputes the hash chain of a stream in the store file, in version order, as
// someone with the file but not the key could after changing it.
func rechain(t *testing.T, db, stream string) {
	t.Helper()
	var evs []eventstore.Event
	for _, e := range storedEvents(t, db) {
		if e.Stream == stream {
			evs = append(evs, e)
		}
	}
	slices.SortFunc(evs, func(a, b eventstore.Event) int { return int(a.Version - b.Version) })
	var stmts []string
	prev := ""
	for _, e := range evs {
		e.PrevHash = prev
		e.Hash = eventstore.Hash(prev, e)
		prev = e.Hash
		stmts = append(stmts, fmt.Sprintf(`UPDATE events SET prev_hash = '%s', hash = '%s' WHERE position = %d`, e.PrevHash, e.Hash, e.Position))
	}
	tamper(t, db, stmts...)
}

func TestAReceiptCatchesAChangedReorderedOrCutMatch(t *testing.T) {
	db, id, file, export, r := receiptMatch(t)
	stream := matchstream.Name(id)
	stored := 0
	for _, e := range storedEvents(t, db) {
		if e.Stream == stream {
			stored++
		}
	}
	if stored <= r.Size+4 {
		t.Fatalf("the match has %d events, the receipt %d, and ten plies and a resignation were played", stored, r.Size)
	}
	_, out := lastLine(t, "verify", "--db", db, "--match", id, "--receipt", file)
	if want := fmt.Sprintf("ok   receipt: match %s still holds the %d events the receipt signed (root %s); %d in the log now", id, r.Size, r.Root, stored); !strings.Contains(out, want) {
		t.Fatalf("verify --receipt on the untouched store:\n%s\nwant %q", out, want)
	}
	// The hidden events the receipt's hashes stand for are salted: their hash cannot be
	// brute-forced back to their content.
	salted := regexp.MustCompile(`"salt":"[0-9a-f]{32}"`)
	for _, e := range storedEvents(t, db) {
		if e.Stream == stream && !e.Visibility.IsPublic() && !salted.Match(e.Payload) {
			t.Errorf("hidden event %d (%s) has no salt: %s", e.Version, e.Type, e.Payload)
		}
	}
	copyStore := func(t *testing.T) string {
		dir := t.TempDir()
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if b, err := os.ReadFile(db + suffix); err == nil {
				os.WriteFile(filepath.Join(dir, "arbiter.db"+suffix), b, 0o600)
			}
		}
		return filepath.Join(dir, "arbiter.db")
	}
	key := strings.TrimSuffix(db, ".db") + ".key"
	for _, c := range []struct {
		name   string
		tamper func(t *testing.T, db string)
		want   string
	}{
		{"a move changed", func(t *testing.T, db string) {
			tamper(t, db, fmt.Sprintf(`UPDATE events SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'g1f3', 'b1c3') AS BLOB) WHERE stream_id = (SELECT id FROM streams WHERE name = '%s')`, stream))
			rechain(t, db, stream)
		}, "the log was changed"},
		{"two moves swapped", func(t *testing.T, db string) {
			var e, c3 int64 // the versions of e7e5 and b8c6: both black's
			for _, ev := range storedEvents(t, db) {
				switch {
				case ev.Stream != stream:
				case strings.Contains(string(ev.Payload), "e7e5"):
					e = ev.Version
				case strings.Contains(string(ev.Payload), "b8c6"):
					c3 = ev.Version
				}
			}
			tamper(t, db,
				fmt.Sprintf(`UPDATE events SET version = -1 WHERE stream_id = (SELECT id FROM streams WHERE name = '%s') AND version = %d`, stream, e),
				fmt.Sprintf(`UPDATE events SET version = %d WHERE stream_id = (SELECT id FROM streams WHERE name = '%s') AND version = %d`, e, stream, c3),
				fmt.Sprintf(`UPDATE events SET version = %d WHERE stream_id = (SELECT id FROM streams WHERE name = '%s') AND version = -1`, c3, stream))
			rechain(t, db, stream)
		}, "the log was changed"},
		{"the log cut short", func(t *testing.T, db string) {
			tamper(t, db, cutStream(stream, int64(r.Size-2))...)
		}, fmt.Sprintf("holds %d events, the receipt signed %d: the log was cut short", r.Size-2, r.Size)},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := copyStore(t)
			c.tamper(t, db)
			out, errOut := fails(t, "verify", "--db", db, "--key", key, "--match", id, "--receipt", file)
			if !strings.Contains(out, "FAIL receipt: match "+id) || !strings.Contains(out, c.want) {
				t.Errorf("verify --receipt after %s:\n%s\nwant FAIL receipt and %q\nstderr: %s", c.name, out, c.want, errOut)
			}
		})
	}
	// The export of the finished match against the receipt, whole and cut short.
	_, out = lastLine(t, "verify", "--file", export, "--key", key, "--receipt", file)
	if !strings.Contains(out, "ok   receipt: match "+id) {
		t.Errorf("verify --file --receipt on the export:\n%s", out)
	}
	whole, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(whole), "\n")
	cut := filepath.Join(t.TempDir(), "cut.ndjson")
	os.WriteFile(cut, []byte(strings.Join(lines[:r.Size-1], "")), 0o600) // the header and r.Size-2 events
	if out, _ := fails(t, "verify", "--file", cut, "--key", key, "--receipt", file); !strings.Contains(out, "the log was cut short") {
		t.Errorf("verify --file --receipt on an export cut short:\n%s", out)
	}
	// A receipt for another match, or one its key did not sign, is refused as a receipt.
	other := filepath.Join(t.TempDir(), "other.key")
	if _, _, err := serverkey.LoadOrCreate(other); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--match", "another"}, {"--match", id, "--key", other}} {
		_, errOut := fails(t, append([]string{"verify", "--db", db, "--receipt", file}, args...)...)
		if !strings.Contains(errOut, "not a valid receipt") {
			t.Errorf("verify --receipt %v: %s", args, errOut)
		}
	}
}

// TestASpectatorsReceiptStopsAtItsDelay: a spectator held back by the match's delay gets
// the receipt of what it has been shown, and no proof about the events it may not read
// yet: a receipt's size would tell it that moves were played.
func TestASpectatorsReceiptStopsAtItsDelay(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")
	id := delayedMatch(t, srv, white, black, "600")
	for i, mv := range []string{"e4", "e5", "Nf3"} {
		if res := srv.play(t, []string{white, black}[i%2], id, mv); len(res.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, res.Errors)
		}
	}
	var player, spectator struct{ Receipt gqlReceipt }
	srv.must(t, white, `query($m:ID!){receipt(matchId:$m){`+receiptFields+`}}`, map[string]any{"m": id}, &player)
	srv.must(t, "", `query($m:ID!){receipt(matchId:$m){`+receiptFields+`}}`, map[string]any{"m": id}, &spectator)
	var seen struct{ Match struct{ Version int } }
	srv.must(t, "", `query($m:ID!){match(id:$m){version}}`, map[string]any{"m": id}, &seen)
	if spectator.Receipt.Size != seen.Match.Version || spectator.Receipt.Size >= player.Receipt.Size {
		t.Fatalf("the spectator's receipt has %d events, its match %d, the player's receipt %d", spectator.Receipt.Size, seen.Match.Version, player.Receipt.Size)
	}
	vars := map[string]any{"m": id, "v": player.Receipt.Size, "s": player.Receipt.Size}
	if res := srv.post(t, "", `query($m:ID!,$v:Int!,$s:Int!){eventProof(matchId:$m, version:$v, size:$s){hash}}`, vars); res.code() != "BAD_USER_INPUT" {
		t.Errorf("the spectator's proof of the last move: %+v", res.Errors)
	}
	if res := srv.post(t, "", `query($m:ID!,$s:Int!){newerReceipt(matchId:$m, since:$s){since}}`, map[string]any{"m": id, "s": player.Receipt.Size}); res.code() != "BAD_USER_INPUT" {
		t.Errorf("the spectator's newer receipt since the player's: %+v", res.Errors)
	}
}
