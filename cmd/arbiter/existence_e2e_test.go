package main

import (
	"path/filepath"
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
