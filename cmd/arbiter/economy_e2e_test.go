package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/economy/daily"
	"github.com/arbiter-games/arbiter/domain/economy/progress"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
)

// The economy over GraphQL (docs/economy.md): the daily bonus once a day, hats bought
// once, worn and shown to everyone, a daily challenge paid once.

type economyMe struct {
	ID         string
	DailyBonus struct {
		Day     string
		Amount  int
		Claimed bool
	}
	DailyChallenges []struct {
		ID                     string
		Text                   string
		Progress, Goal, Reward int
		Done                   bool
	}
	Hats []struct {
		ID   string
		Worn bool
	}
	Badges []struct{ ID string }
	Xp     int
	Wallet walletData
}

const economyMeQuery = `{me{id dailyBonus{day amount claimed} dailyChallenges{id text progress goal reward done}
	hats{id worn} badges{id} xp wallet{balance held{matchId amount} entries{amount reason matchId at}}}}`

func (s *server) economy(t *testing.T, token string) economyMe {
	t.Helper()
	var d struct{ Me economyMe }
	s.must(t, token, economyMeQuery, nil, &d)
	return d.Me
}

func TestDailyBonusAndHatsOverGraphQL(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")

	me := s.economy(t, ann)
	today := time.Now().UTC().Format(time.DateOnly)
	if me.DailyBonus.Claimed || me.DailyBonus.Day != today || me.DailyBonus.Amount != 50 || len(me.DailyChallenges) != 3 || me.Wallet.Balance != 1000 || len(me.Hats) != 0 || len(me.Badges) != 0 || me.Xp != 0 {
		t.Fatalf("a new player: %+v", me)
	}
	type claim struct {
		ClaimDailyBonus struct {
			Granted int
			Day     string
			Wallet  struct{ Balance int }
		}
	}
	for i, want := range []int{50, 0, 0} {
		var c claim
		s.must(t, ann, `mutation{claimDailyBonus{granted day wallet{balance}}}`, nil, &c)
		if c.ClaimDailyBonus.Granted != want || c.ClaimDailyBonus.Wallet.Balance != 1050 || c.ClaimDailyBonus.Day != today {
			t.Fatalf("claim %d: %+v, want %d granted and a balance of 1050", i, c.ClaimDailyBonus, want)
		}
	}
	if me := s.economy(t, ann); !me.DailyBonus.Claimed {
		t.Fatalf("claimed today: %+v", me.DailyBonus)
	}

	// Hats: the catalog, a purchase once, a refusal each for too dear, unknown, not owned.
	var cat struct {
		Hats []struct {
			ID    string
			Name  string
			Fr    string
			Price int
		}
	}
	s.must(t, "", `{hats{id name fr: name(lang: FR) price}}`, nil, &cat)
	if len(cat.Hats) < 5 || cat.Hats[1].ID != "beret" || cat.Hats[1].Fr != "Béret" || cat.Hats[1].Price != 150 {
		t.Fatalf("the catalog: %+v", cat.Hats)
	}
	buy := `mutation($h:ID!){buyHat(hatId:$h){hats{id worn} wallet{balance}}}`
	type hatsPayload struct {
		Hats []struct {
			ID   string
			Worn bool
		}
		Wallet struct{ Balance int }
	}
	for range 2 {
		var b struct{ BuyHat hatsPayload }
		s.must(t, ann, buy, map[string]any{"h": "beret"}, &b)
		if b.BuyHat.Wallet.Balance != 900 || len(b.BuyHat.Hats) != 1 || b.BuyHat.Hats[0].ID != "beret" || b.BuyHat.Hats[0].Worn {
			t.Fatalf("the beret bought (once): %+v", b.BuyHat)
		}
	}
	for _, c := range []struct{ q, hat, code string }{
		{buy, "golden-crown", "INSUFFICIENT_FUNDS"},
		{buy, "sombrero", "NOT_FOUND"},
		{`mutation($h:ID){wearHat(hatId:$h){hats{id}}}`, "tricorne", "FORBIDDEN"},
	} {
		if r := s.post(t, ann, c.q, map[string]any{"h": c.hat}); r.code() != c.code {
			t.Errorf("%s %s: %+v, want %s", c.q, c.hat, r.Errors, c.code)
		}
	}
	var w struct{ WearHat hatsPayload }
	s.must(t, ann, `mutation{wearHat(hatId:"beret"){hats{id worn} wallet{balance}}}`, nil, &w)
	if len(w.WearHat.Hats) != 1 || !w.WearHat.Hats[0].Worn || w.WearHat.Wallet.Balance != 900 {
		t.Fatalf("wearing the beret: %+v", w.WearHat)
	}
	// The worn hat is public; what Ann owns, her challenges and her wallet are not.
	var seen struct {
		Player struct {
			Hat             *struct{ ID, Name string }
			Hats            []struct{ ID string }
			DailyChallenges []struct{ ID string }
			Cooldown        *struct{ Until time.Time }
		}
	}
	s.must(t, bob, `query($id:ID!){player(id:$id){hat{id name(lang: FR)} hats{id} dailyChallenges{id} cooldown{until}}}`, map[string]any{"id": annID}, &seen)
	if seen.Player.Hat == nil || seen.Player.Hat.ID != "beret" || seen.Player.Hat.Name != "Béret" || seen.Player.Hats != nil || seen.Player.DailyChallenges != nil {
		t.Fatalf("Bob sees Ann as %+v", seen.Player)
	}
	s.must(t, ann, `mutation{wearHat(hatId:null){hats{id worn}}}`, nil, nil)
	s.must(t, bob, `query($id:ID!){player(id:$id){hat{id name}}}`, map[string]any{"id": annID}, &seen)
	if seen.Player.Hat != nil {
		t.Fatalf("Ann took her hat off, Bob sees %+v", seen.Player.Hat)
	}
	// Every balance re-derives from its events.
	s.stop(t)
	var out syncBuffer
	if code := run(t.Context(), []string{"verify", "--db", s.db}, &out, &out); code != 0 || !strings.Contains(out.String(), "ok   wallets: 1 re-derived, 0 holds over 0 matches that move coins, 0 step(s) pending; 1 profile(s): each hat worn was bought") {
		t.Fatalf("verify (exit %d): %s", code, out.String())
	}
}

// reachable are the challenges a player can complete by its opponents resigning rated
// UnfairChess games at once.
var reachable = []string{"unfair-win-1", "unfair-win-2", "unfair-play-3", "unfair-win-rated", "unfair-win-quick"}

// A player whose day holds a challenge the test can reach wins three rated UnfairChess
// games by resignation: each challenge is as far as the games say, and each one done is
// paid once by the settlement process, however often it is read.
func TestADailyChallengePaysOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s := startServer(t, db, "--registrations-per-hour", "0")
	_, bob := s.register(t, "Bob")
	var ann, annID string
	var target daily.Challenge
	for i := 0; ann == ""; i++ { // about 4 players in 10 have one: the loop ends, bounded
		if i == 60 {
			t.Fatal("no player among 60 drew a reachable challenge: is Pick still uniform?")
		}
		id, tok := s.register(t, "Ann")
		for _, c := range daily.Pick(time.Now().UTC().Format(time.DateOnly), id) {
			if slices.Contains(reachable, c.ID) {
				ann, annID, target = tok, id, c
				break
			}
		}
	}
	for range 3 {
		var c struct {
			CreateMatch struct{ Match struct{ ID string } }
		}
		s.must(t, ann, `mutation{createMatch(input:{game:UNFAIR_CHESS, rated:true}){match{id}}}`, nil, &c)
		id := c.CreateMatch.Match.ID
		for seat, tok := range []string{ann, bob} {
			s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
		}
		// A move each first: a rated game resigned before them is aborted, and counts for nobody.
		s.must(t, ann, `mutation($m:ID!){playMove(matchId:$m, move:"e2e4"){version}}`, map[string]any{"m": id}, nil)
		s.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"e7e5"){version}}`, map[string]any{"m": id}, nil)
		s.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	}
	// Three rated wins, a move each: wins and matches count 3, nothing else counts.
	expect := func(c daily.Challenge) int {
		n := 0
		if c.Game == "UNFAIR_CHESS" && (c.Counter == "wins" || c.Counter == "matches") {
			n = 3
		}
		return min(n, c.Goal)
	}
	deadline := time.Now().Add(20 * time.Second)
	want, done := 1000, 0
	for { // the read side applies the games' ends: a reason to end
		me := s.economy(t, ann)
		picks := daily.Pick(time.Now().UTC().Format(time.DateOnly), me.ID)
		settled := len(me.DailyChallenges) == len(picks)
		want, done = 1000, 0
		for i, c := range me.DailyChallenges {
			if c.ID != picks[i].ID || c.Goal != picks[i].Goal || c.Reward != int(picks[i].Reward) || c.Text != picks[i].En || c.Done != (c.Progress == c.Goal) {
				t.Fatalf("challenge %d: %+v, picked %+v", i, c, picks[i])
			}
			settled = settled && c.Progress == expect(picks[i])
			if c.Done {
				want, done = want+c.Reward, done+1
			}
		}
		if settled {
			if !slices.ContainsFunc(picks, func(c daily.Challenge) bool { return c.ID == target.ID }) || done == 0 {
				t.Fatalf("%s is not done: %+v", target.ID, me.DailyChallenges)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the challenges after three wins: %+v", me.DailyChallenges)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The settlement process pays each challenge done at the end of the game that did it.
	for w := s.wallet(t, ann); w.Balance != want; w = s.wallet(t, ann) { // a reason to end: the payment
		if time.Now().After(deadline) {
			t.Fatalf("Ann's balance %d, want %d: %+v", w.Balance, want, w.Entries)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Read again and claimed with the bonus: no challenge is paid twice.
	s.must(t, ann, `mutation{claimDailyBonus{granted}}`, nil, nil)
	s.economy(t, ann)
	if w := s.wallet(t, ann); w.Balance != want+50 {
		t.Fatalf("after the bonus, Ann's balance %d, want %d: %+v", w.Balance, want+50, w.Entries)
	}
	paid := 0
	for _, e := range s.wallet(t, ann).Entries {
		if e.Reason == daily.ReasonChallenge {
			paid++
		}
	}
	if paid != done {
		t.Fatalf("%d challenges done, %d paid", done, paid)
	}

	// verify re-derives each challenge paid from the matches finished before it; a grant
	// rewritten to pay a challenge not done (or not Ann's), its amount that challenge's
	// reward and every hash recomputed, is refused.
	s.stop(t)
	if last, out := lastLine(t, "verify", "--db", db); !strings.HasSuffix(last, "all ok") {
		t.Fatalf("verify:\n%s", out)
	}
	day := time.Now().UTC().Format(time.DateOnly)
	forged, says := daily.Challenge{}, ""
	for _, c := range daily.Pick(day, annID) {
		if expect(c) < c.Goal {
			forged, says = c, "do not complete it"
		}
	}
	if forged.ID == "" { // all three done: pay one Ann was not given
		for _, c := range daily.Pool {
			if !slices.ContainsFunc(daily.Pick(day, annID), func(p daily.Challenge) bool { return p.ID == c.ID }) {
				forged, says = c, "not one of "+annID+"'s challenges"
				break
			}
		}
	}
	if !rewriteConsistently(t, db, func(e *eventstore.Event) bool {
		var g wallet.CoinsGranted
		if e.Stream != wallet.Stream(annID) || e.Type != "CoinsGranted" || json.Unmarshal(e.Payload, &g) != nil || g.Reason != daily.ReasonChallenge {
			return false
		}
		g.Ref, g.Amount = day+":"+forged.ID, forged.Reward
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		e.Payload = b
		return true
	}) {
		t.Fatal("no challenge paid to Ann in the store")
	}
	verifyFails(t, db, "FAIL wallets", fmt.Sprintf("challenge %q", forged.ID), says)
}

// Abandoning duels against players costs time, the second time on: the cooldown shows on
// me before it is hit, and a join is refused with COOLDOWN until then. An abandonment
// before turn 4 moves no stake: both get theirs back.
func TestAbandonmentCooldownOverGraphQL(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	for i := range 2 {
		id := s.createStaked(t, bob, "SOLWARIS", 100, ann, bob)
		s.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
		s.settledTo(t, ann, 1000)
		s.settledTo(t, bob, 1000)
		if i == 0 {
			if r := s.post(t, ann, `{me{cooldown{until}}}`, nil); !strings.Contains(string(r.Data), `"cooldown":null`) {
				t.Fatalf("the first abandonment is forgiven: %s", r.Data)
			}
		}
	}
	var cd struct {
		Me struct {
			Cooldown *struct {
				Until        time.Time
				Abandonments int
			}
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for cd.Me.Cooldown == nil { // the read side applies the second abandonment: a reason to end
		if time.Now().After(deadline) {
			t.Fatal("no cooldown after the second abandonment")
		}
		s.must(t, ann, `{me{cooldown{until abandonments}}}`, nil, &cd)
	}
	if c := cd.Me.Cooldown; c.Abandonments != 2 || time.Until(c.Until) > progress.Wait(2) || time.Until(c.Until) < progress.Wait(2)-time.Minute {
		t.Fatalf("the cooldown after two abandonments: %+v, want about 2 minutes from now", c)
	}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, bob, `mutation{createMatch(input:{game:SOLWARIS}){match{id}}}`, nil, &c)
	r := s.post(t, ann, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": c.CreateMatch.Match.ID})
	if r.code() != "COOLDOWN" || len(r.Errors) == 0 || r.Errors[0].Extensions["until"] == nil {
		t.Fatalf("Ann joins a duel in her cooldown: %+v", r.Errors)
	}
	if r := s.post(t, ann, `mutation{createMatch(input:{game:SOLWARIS, rated:true}){match{id}}}`, nil); r.code() != "COOLDOWN" {
		t.Fatalf("Ann creates a rated duel in her cooldown: %+v", r.Errors)
	}
	// Training against the AI is exempt: Ann creates one, joins it and seats the bot.
	var tr struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, training:true}){match{id}}}`, nil, &tr)
	s.must(t, ann, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": tr.CreateMatch.Match.ID}, nil)
	s.must(t, ann, `mutation($m:ID!){addBot(matchId:$m){seat}}`, map[string]any{"m": tr.CreateMatch.Match.ID}, nil)
	// Bob, who stayed, is free; UnfairChess is not Solwaris's rule.
	s.must(t, bob, `mutation($m:ID!){joinMatch(matchId:$m){seat}}`, map[string]any{"m": c.CreateMatch.Match.ID}, nil)
	s.stakedMatch(t, ann, "10", ann)
}

// A rated Solwaris duel played to its end: each side's XP is the rule's for its rounds
// and result, each class is rated from 1000 and falls in a league, and the crystals won
// are the seed's draws at that league's chance.
func TestSolwarisProgressOverGraphQL(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	tokens := []string{ann, bob}
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	s.must(t, ann, `mutation{createMatch(input:{game:SOLWARIS, rated:true}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range tokens {
		s.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	winners, _ := s.playSolwaris(t, id, tokens)
	var st solwarisState
	s.must(t, ann, solwarisStateQuery, map[string]any{"m": id}, &st)
	turns := st.Match.State.Turn
	type progressData struct {
		Me struct {
			Xp      int
			Leagues []struct {
				Key, Class string
				Rating     int
				League     struct{ ID string }
			}
			Loot []struct {
				MatchID, Item string
				Chance, Roll  int
			}
		}
	}
	for seat, tok := range tokens {
		want := progress.XPPerDuel + progress.XPPerRound*min(turns, progress.XPMaxRound)
		if slices.Contains(winners, seat) {
			want += progress.XPForAWin
		}
		var d progressData
		deadline := time.Now().Add(20 * time.Second)
		for d.Me.Xp == 0 { // the read side applies the end: a reason to end
			if time.Now().After(deadline) {
				t.Fatalf("seat %d has no XP after the duel", seat)
			}
			s.must(t, tok, `{me{xp leagues{key class rating league{id}} loot{matchId item chance roll}}}`, nil, &d)
		}
		if d.Me.Xp != want {
			t.Errorf("seat %d (winners %v, %d rounds): %d XP, want %d", seat, winners, turns, d.Me.Xp, want)
		}
		if len(d.Me.Leagues) != 1 || d.Me.Leagues[0].League.ID != "novice" || (d.Me.Leagues[0].Rating > 1000) != slices.Contains(winners, seat) {
			t.Errorf("seat %d's leagues after one rated duel from 1000: %+v", seat, d.Me.Leagues)
		}
		for _, l := range d.Me.Loot {
			if l.MatchID != id || l.Item != progress.Crystal || l.Chance != 5 || l.Roll >= l.Chance {
				t.Errorf("seat %d's loot: %+v", seat, l)
			}
		}
	}
}
