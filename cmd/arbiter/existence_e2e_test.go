package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestADisputeIsRefusedAlikeWhetherOrNotItExists: a free account asking for a dispute of a
// match it did not play, or adding a statement to one, is refused with the same FORBIDDEN
// and the same reason for a dispute that exists, one that does not, one of a match that
// does not exist and an ID that names nothing: it cannot probe which disputes there are.
// The match's players still tell a dispute that exists (read) from one that does not (null).
func TestADisputeIsRefusedAlikeWhetherOrNotItExists(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	_, eve := s.register(t, "Eve")
	id := s.newMatch(t, ann, bob, false)
	s.must(t, ann, `mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){playMove(matchId:$m, move:"e5"){version}}`, map[string]any{"m": id}, nil)
	s.must(t, bob, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	d := s.openDispute(t, bob, id, "Ann's clock was wrong")

	probes := []string{d.ID, id + ".2", "no-such-match.1", "not-a-dispute-id"}
	const read = `query($d:ID!){dispute(id:$d){id}}`
	const state = `mutation($d:ID!){addStatement(disputeId:$d, text:"I saw it"){dispute{id}}}`
	for _, q := range []string{read, state} {
		var first string
		for _, probe := range probes {
			r := s.post(t, eve, q, map[string]any{"d": probe})
			if r.code() != "FORBIDDEN" {
				t.Fatalf("%s on %q for a stranger: %+v (data %s), want FORBIDDEN", q, probe, r.Errors, r.Data)
			}
			if first == "" {
				first = r.Errors[0].Message
			} else if r.Errors[0].Message != first {
				t.Errorf("%s on %q says %q, on %q %q: the reason tells them apart", q, probe, r.Errors[0].Message, probes[0], first)
			}
		}
	}

	var got struct{ Dispute *struct{ ID string } }
	s.must(t, ann, read, map[string]any{"d": d.ID}, &got)
	if got.Dispute == nil || got.Dispute.ID != d.ID {
		t.Errorf("the other player reads %+v, want dispute %s", got.Dispute, d.ID)
	}
	got.Dispute = nil
	s.must(t, ann, read, map[string]any{"d": id + ".2"}, &got)
	if got.Dispute != nil {
		t.Errorf("a player reads %+v for a dispute that does not exist, want null", got.Dispute)
	}
	s.wantCode(t, ann, "NOT_FOUND", state, map[string]any{"d": id + ".2"})
}

// TestDisputesAreReadPageByPage: a player's disputes and the reviewers' queue are read a
// page at a time with first and after, oldest first; together the pages are the whole
// list, each dispute once, and a dispute ruled between two pages of the queue does not
// lose the cursor. first beyond the limit, and an after that is not in the list (another
// player's dispute, or none), are BAD_USER_INPUT.
func TestDisputesAreReadPageByPage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	s := startServer(t, db)
	_, ann := s.register(t, "Ann")
	_, bob := s.register(t, "Bob")
	_, cat := s.register(t, "Cat")
	_, dan := s.register(t, "Dan")
	revID, rev := s.register(t, "Rev")
	grantReviewer(t, db, revID)
	resigned := func(white, black string) string {
		id := s.newMatch(t, white, black, false)
		s.must(t, white, `mutation($m:ID!){playMove(matchId:$m, move:"e4"){version}}`, map[string]any{"m": id}, nil)
		s.must(t, black, `mutation($m:ID!){playMove(matchId:$m, move:"e5"){version}}`, map[string]any{"m": id}, nil)
		s.must(t, black, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
		return id
	}
	m1, m2 := resigned(ann, bob), resigned(bob, ann)
	other := s.openDispute(t, dan, resigned(cat, dan), "not Ann's")
	var want []string
	for _, o := range []struct{ by, match string }{{ann, m1}, {bob, m2}, {bob, m1}, {ann, m2}} {
		want = append(want, s.openDispute(t, o.by, o.match, "a reason").ID)
	}

	// pages reads a list whole, n at a time, by query q (whose $a is after).
	pages := func(token, q string, n int, between func(page int)) []string {
		var ids []string
		var after any
		for page := 0; ; page++ {
			var d struct {
				Disputes []struct{ ID string }
				Me       struct{ Disputes []struct{ ID string } }
			}
			s.must(t, token, q, map[string]any{"n": n, "a": after}, &d)
			got := append(d.Disputes, d.Me.Disputes...)
			for _, x := range got {
				ids = append(ids, x.ID)
			}
			if len(got) < n {
				return ids
			}
			after = got[len(got)-1].ID
			if between != nil {
				between(page)
			}
		}
	}
	const mine = `query($n:Int,$a:ID){me{disputes(first:$n, after:$a){id}}}`
	const queue = `query($n:Int,$a:ID){disputes(status:OPEN, first:$n, after:$a){id}}`
	if got := pages(ann, mine, 1, nil); !slices.Equal(got, want) {
		t.Errorf("Ann's disputes a page of 1 at a time: %v, want %v", got, want)
	}
	if got := pages(bob, mine, 3, nil); !slices.Equal(got, want) {
		t.Errorf("Bob's disputes 3 at a time: %v, want %v", got, want)
	}
	// Ruling the first dispute of the queue once it has been read keeps the next page's place.
	all := append([]string{other.ID}, want...)
	if got := pages(rev, queue, 2, func(page int) {
		if page == 0 {
			s.rule(t, rev, all[0], "UPHOLD", "")
		}
	}); !slices.Equal(got, all) {
		t.Errorf("the queue 2 at a time: %v, want %v", got, all)
	}
	if got := pages(rev, queue, 2, nil); !slices.Equal(got, all[1:]) {
		t.Errorf("the queue after a ruling: %v, want %v", got, all[1:])
	}

	s.wantCode(t, ann, "BAD_USER_INPUT", mine, map[string]any{"n": 501})
	s.wantCode(t, rev, "BAD_USER_INPUT", queue, map[string]any{"n": 501})
	var reasons []string
	for _, after := range []string{other.ID, m1 + ".9", "nothing"} {
		r := s.post(t, ann, mine, map[string]any{"n": 5, "a": after})
		if r.code() != "BAD_USER_INPUT" {
			t.Fatalf("Ann's disputes after %q: %+v (data %s), want BAD_USER_INPUT", after, r.Errors, r.Data)
		}
		reasons = append(reasons, strings.ReplaceAll(r.Errors[0].Message, after, "X"))
	}
	if reasons[0] != reasons[1] || reasons[1] != reasons[2] {
		t.Errorf("an after out of the list is refused unlike one that does not exist: %q", reasons)
	}
}

// TestTheLobbyIsReadPageByPage: matches beyond one page are reached with after: read two
// at a time, with a match created between two pages, the pages are the lobby as it was
// when the first was read, each match once; an after that names no match is BAD_USER_INPUT.
func TestTheLobbyIsReadPageByPage(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := s.register(t, "Ann")
	create := func() {
		s.must(t, ann, `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil, nil)
	}
	for range 5 {
		create()
	}
	type list struct{ Matches []struct{ ID string } }
	ids := func(l list) []string {
		var out []string
		for _, m := range l.Matches {
			out = append(out, m.ID)
		}
		return out
	}
	const q = `query($n:Int,$a:ID){matches(status:OPEN, first:$n, after:$a){id}}`
	var whole list
	s.must(t, ann, q, map[string]any{"n": 500}, &whole)
	want := ids(whole)
	if len(want) != 5 {
		t.Fatalf("the lobby lists %v, want 5 matches", want)
	}
	var got []string
	var after any
	for {
		var page list
		s.must(t, ann, q, map[string]any{"n": 2, "a": after}, &page)
		got = append(got, ids(page)...)
		if len(page.Matches) < 2 {
			break
		}
		after = page.Matches[1].ID
		create() // newer than every match read: it comes before the cursor, not after
	}
	if !slices.Equal(got, want) {
		t.Errorf("the lobby 2 at a time: %v, want %v", got, want)
	}
	s.wantCode(t, ann, "BAD_USER_INPUT", q, map[string]any{"n": 2, "a": "no-such-match"})
	s.wantCode(t, ann, "BAD_USER_INPUT", q, map[string]any{"n": 501})
}
