package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lobbyFields is every field of a match the lobby shows that could tell a spectator how
// far a match has got: its status, result, moves, seats, times, clock, turn, phase.
const lobbyFields = `id status version moves result{winner winners draw reason} turn toAct choices phase
	seats{seat player{id} awaySince} clock{running since seats{seat remainingMs}} createdAt seed seedCommitment`

// lobbyRead is everything the caller of token reads of the lobby: under every status
// filter, with and without a player filter, as one page and walked one match a page by
// its cursors. Two reads that tell apart are what the caller learned between them.
func lobbyRead(t *testing.T, srv *server, token, player string) string {
	t.Helper()
	var out strings.Builder
	for _, status := range []any{nil, "OPEN", "LIVE", "FINISHED"} {
		for _, p := range []any{nil, player} {
			vars := map[string]any{"s": status, "p": p}
			q := `query($s:MatchStatus,$p:ID,$n:Int,$a:ID){matches(status:$s, player:$p, first:$n, after:$a){` + lobbyFields + `}}`
			var page struct{ Matches []json.RawMessage }
			vars["n"] = 50
			srv.must(t, token, q, vars, &page)
			fmt.Fprintf(&out, "status %v player %v: %d matches\n", status, p, len(page.Matches))
			for _, m := range page.Matches {
				fmt.Fprintf(&out, "  %s\n", m)
			}
			// One match a page: each page's cursor is its match.
			vars["n"], vars["a"] = 1, nil
			for pages := 0; ; pages++ {
				var one struct{ Matches []struct{ ID string } }
				srv.must(t, token, q, vars, &one)
				if len(one.Matches) == 0 {
					fmt.Fprintf(&out, "  %d pages of one\n", pages)
					break
				}
				fmt.Fprintf(&out, "  page %d: %s\n", pages, one.Matches[0].ID)
				vars["a"] = one.Matches[0].ID
			}
		}
	}
	return out.String()
}

// lobbyStatus is the status the match id is listed in, under the filter status ("" for
// none), to the caller of token: "" when the filter leaves it out.
func lobbyStatus(t *testing.T, srv *server, token, status, id string) string {
	t.Helper()
	var page struct{ Matches []struct{ ID, Status string } }
	var s any
	if status != "" {
		s = status
	}
	srv.must(t, token, `query($s:MatchStatus){matches(status:$s, first:500){id status}}`, map[string]any{"s": s}, &page)
	for _, m := range page.Matches {
		if m.ID == id {
			return m.Status
		}
	}
	return ""
}

// TestTheLobbyHoldsADelayedMatchBack: a spectator (a free account seated nowhere, or no
// account) polling the lobby learns nothing of a delayed match before its delay is over:
// not its start, its moves nor its end, under any filter, in any field, page or cursor.
// The match's players read it live at once. A short delay then shows the lobby releasing
// the start and the end, each no sooner than the delay after it.
func TestTheLobbyHoldsADelayedMatchBack(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	annID, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	_, eve := srv.register(t, "Eve") // the attacker: a free account, seated nowhere
	create := func(token, delay string) string {
		var c struct {
			CreateMatch struct{ Match struct{ ID string } }
		}
		opts := ""
		if delay != "" {
			opts = `, options:[{key:"spectatorDelay", value:"` + delay + `"}]`
		}
		srv.must(t, token, `mutation{createMatch(input:{game:CHESS`+opts+`}){match{id}}}`, nil, &c)
		return c.CreateMatch.Match.ID
	}
	join := func(token, id string, seat int) {
		srv.must(t, token, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}

	// Neighbours on both sides of the delayed match, Ann's too, for the pages and cursors.
	create(eve, "")
	join(ann, create(ann, ""), 0)
	id := create(ann, "600")
	join(ann, id, 0)
	create(eve, "")
	spectators := map[string]string{"Eve": eve, "no account": ""}
	before := map[string]string{}
	for who, tok := range spectators {
		before[who] = lobbyRead(t, srv, tok, annID)
		if got := lobbyStatus(t, srv, tok, "OPEN", id); got != "OPEN" {
			t.Fatalf("%s: the delayed match waiting for Bob is listed %q under OPEN", who, got)
		}
	}
	unchanged := func(when string) {
		t.Helper()
		for who, tok := range spectators {
			if now := lobbyRead(t, srv, tok, annID); now != before[who] {
				t.Fatalf("%s, %s: the lobby of %s changed before the delay was over:\nbefore:\n%s\nnow:\n%s", when, "10 minutes' delay", who, before[who], now)
			}
		}
	}

	join(bob, id, 1) // the match starts
	for i, mv := range []string{"e4", "e5", "Nf3"} {
		if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatalf("%s: %+v", mv, r.Errors)
		}
	}
	unchanged("started, three moves played")
	playersSee := func(status, not string) {
		t.Helper()
		for _, tok := range []string{ann, bob} {
			if got := lobbyStatus(t, srv, tok, status, id); got != status {
				t.Fatalf("a player reads the match %q under %s, want %s at once", got, status, status)
			}
			if got := lobbyStatus(t, srv, tok, not, id); got != "" {
				t.Fatalf("a player finds the match under %s, as %q", not, got)
			}
		}
	}
	playersSee("LIVE", "OPEN")

	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	unchanged("over, Bob resigned")
	playersSee("FINISHED", "LIVE")

	// Two seconds' delay: the lobby shows the start, then the end, to a spectator, each
	// once it is two seconds old and not sooner. The start's and the end's events are
	// recorded after the commands are sent: their times bound the events' from below.
	const delay = 2 * time.Second
	short := create(ann, "2")
	join(ann, short, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	release := func(status string, since time.Time) {
		t.Helper()
		for {
			got := lobbyStatus(t, srv, eve, status, short)
			read := time.Now()
			if got != "" && got != status {
				t.Fatalf("the lobby lists the match as %s under the filter %s", got, status)
			}
			if all := lobbyStatus(t, srv, eve, "", short); all == status && read.Before(since.Add(delay)) {
				t.Fatalf("unfiltered, the match is %s %v after the command, before its delay of %v", all, read.Sub(since), delay)
			}
			if got == status {
				if read.Before(since.Add(delay)) {
					t.Fatalf("the match is listed %s %v after the command, before its delay of %v", status, read.Sub(since), delay)
				}
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the match is not listed %s a minute after the command (delay %v)", status, delay)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	started := time.Now()
	join(bob, short, 1)
	release("LIVE", started)
	ended := time.Now()
	srv.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": short}, nil)
	release("FINISHED", ended)
}
