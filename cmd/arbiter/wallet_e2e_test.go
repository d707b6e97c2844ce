package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
)

type walletData struct {
	Balance int
	Held    []struct {
		MatchID string
		Amount  int
	}
	Entries []struct {
		Amount  int
		Reason  string
		MatchID *string
		At      time.Time
	}
}

const walletQuery = `{me{wallet{balance held{matchId amount} entries{amount reason matchId at}}}}`

func (s *server) wallet(t *testing.T, token string) walletData {
	t.Helper()
	var d struct{ Me struct{ Wallet walletData } }
	s.must(t, token, walletQuery, nil, &d)
	return d.Me.Wallet
}

// settledTo waits until the settlement process has paid token's wallet back to the
// balance want with no hold open: it has a reason to end, the process acting on the
// match's end; a failure names what the wallet shows instead. The daily challenges that
// the match completed, which the same process pays, are left out of the balance and the
// entries returned: which three a player has is drawn from its random ID (daily.Pick).
func (s *server) settledTo(t *testing.T, token string, want int) walletData {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		w := withoutChallenges(s.wallet(t, token))
		if w.Balance == want && len(w.Held) == 0 {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wallet is not settled to %d: %+v", want, w)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// withoutChallenges is w without the grants of daily challenges.
func withoutChallenges(w walletData) walletData {
	entries := w.Entries[:0:0]
	for _, e := range w.Entries {
		if e.Reason == daily.ReasonChallenge {
			w.Balance -= e.Amount
			continue
		}
		entries = append(entries, e)
	}
	w.Entries = entries
	return w
}

func (s *server) stakedMatch(t *testing.T, creator string, stake string, joiners ...string) string {
	t.Helper()
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, creator, `mutation($s:String!){createMatch(input:{game:CHESS, options:[{key:"stake", value:$s}]}){match{id}}}`, map[string]any{"s": stake}, &c)
	id := c.CreateMatch.Match.ID
	for _, tok := range joiners {
		s.must(t, tok, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": id}, nil)
	}
	return id
}

func TestWalletOverGraphQL(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	_, eve := s.register(t, "Eve")

	if w := s.wallet(t, ann); w.Balance != 1000 || len(w.Entries) != 1 || w.Entries[0].Reason != "starting grant" || w.Entries[0].Amount != 1000 {
		t.Fatalf("a new player's wallet: %+v", w)
	}
	// A wallet is its player's alone.
	q := `query($id:ID!){player(id:$id){name wallet{balance}}}`
	if r := s.post(t, eve, q, map[string]any{"id": annID}); r.code() != "FORBIDDEN" || string(r.Data) == "" {
		t.Fatalf("another player reading Ann's wallet: %s %+v", r.Data, r.Errors)
	}
	if r := s.post(t, "", q, map[string]any{"id": annID}); r.code() != "UNAUTHENTICATED" {
		t.Fatalf("an anonymous caller reading Ann's wallet: %s %+v", r.Data, r.Errors)
	}
	if r := s.post(t, "", walletQuery, nil); r.code() != "UNAUTHENTICATED" {
		t.Fatalf("an anonymous me{wallet}: %s %+v", r.Data, r.Errors)
	}
	var seen struct{ Player struct{ Wallet *walletData } }
	if r := s.post(t, eve, q, map[string]any{"id": annID}); json.Unmarshal(r.Data, &seen) != nil || seen.Player.Wallet != nil {
		t.Fatalf("Eve read Ann's wallet: %s", r.Data)
	}

	// The stake option: a whole number of coins the creator has.
	create := `mutation($s:String!){createMatch(input:{game:CHESS, options:[{key:"stake", value:$s}]}){match{id}}}`
	for stake, code := range map[string]string{"-5": "BAD_USER_INPUT", "ten": "BAD_USER_INPUT", "1001": "INSUFFICIENT_FUNDS"} {
		if r := s.post(t, ann, create, map[string]any{"s": stake}); r.code() != code {
			t.Errorf("stake %q: %+v, want %s", stake, r.Errors, code)
		}
	}
	id := s.stakedMatch(t, ann, "300", ann, bob)
	w := s.wallet(t, ann)
	if w.Balance != 700 || len(w.Held) != 1 || w.Held[0].MatchID != id || w.Held[0].Amount != 300 {
		t.Fatalf("Ann's wallet in a match staked 300: %+v", w)
	}
	// Each seat's funds are its own while the match is live (its purse, in a game that charges).
	var ev struct {
		Match struct {
			Events []struct {
				Type     string
				Data     map[string]any
				Redacted bool
			}
		}
	}
	s.must(t, bob, `query($m:ID!){match(id:$m){events{type data redacted}}}`, map[string]any{"m": id}, &ev)
	funded := 0
	for _, e := range ev.Match.Events {
		if e.Type != "SeatFunded" {
			continue
		}
		funded++
		if mine := e.Data != nil && e.Data["seat"] == float64(1); mine == e.Redacted || !mine && e.Data != nil {
			t.Fatalf("Bob (seat 1) reads a SeatFunded as %+v", e)
		}
	}
	if funded != 2 {
		t.Fatalf("%d SeatFunded events", funded)
	}
	// Eve cannot afford a second match's stake once she holds one.
	big := s.stakedMatch(t, ann, "600")
	s.stakedMatch(t, bob, "600", eve)
	if r := s.post(t, eve, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": big}); r.code() != "INSUFFICIENT_FUNDS" {
		t.Fatalf("Eve joins above her balance: %+v", r.Errors)
	}

	s.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	s.settledTo(t, bob, 1300)
	w = s.settledTo(t, ann, 700)
	last := w.Entries[len(w.Entries)-1]
	if last.Reason != "settled" || last.Amount != 0 || last.MatchID == nil || *last.MatchID != id {
		t.Fatalf("Ann's last entry after losing: %+v", last)
	}
}

// The node is killed with SIGKILL between a staked match's end and its settlement (it
// runs without the settlement process, so the end is stored and nothing is paid); the
// restarted node settles the match once, and a second restart pays nothing more.
func TestKillNineBetweenTheEndAndTheSettlement(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, proc := startProcess(t, db, "--settle=false")
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	id := srv.stakedMatch(t, ann, "250", ann, bob)
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	if w := srv.wallet(t, ann); w.Balance != 750 || len(w.Held) != 1 {
		t.Fatalf("before the kill: %+v", w)
	}
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	var before syncBuffer
	if code := run(t.Context(), []string{"verify", "--db", db}, &before, &before); code != 0 || !strings.Contains(before.String(), "ok   wallets: 2 re-derived, 2 holds over 1 matches that move coins, 2 step(s) pending") {
		t.Fatalf("verify before the settlement (exit %d): %s", code, before.String())
	}

	for restart := range 2 {
		s := startServer(t, db)
		a, b := s.settledTo(t, ann, 1250), s.settledTo(t, bob, 750)
		if len(a.Entries) != 3 || len(b.Entries) != 3 {
			t.Fatalf("restart %d: %d and %d entries, want grant, hold, settlement", restart, len(a.Entries), len(b.Entries))
		}
		s.stop(t)
	}
	var out syncBuffer
	if code := run(t.Context(), []string{"verify", "--db", db}, &out, &out); code != 0 || !strings.Contains(out.String(), "ok   wallets: 2 re-derived, 2 holds over 1 matches that move coins, 0 step(s) pending") {
		t.Fatalf("verify after the settlement: %s", out.String())
	}
}
