package graph

import (
	"testing"

	"github.com/arbiter-games/arbiter/domain/dispute"
)

// A reviewer who played a match reads its disputes as its player does, wherever they are
// listed (the queue, another player's disputes), never with the review view's hidden events.
func TestAReviewerReadsTheDisputesOfItsOwnMatchAsItsPlayer(t *testing.T) {
	s := dispute.State{Match: "m1", Facts: &dispute.Facts{Players: []string{"ann", "rev"}}}
	x := dispute.Dispute{ID: "m1.1", By: "ann", Status: dispute.Open}
	if m := disputeModel(x, s, "rev", true); m.Review {
		t.Fatal("a reviewer who played the match reads its dispute with the review view")
	}
	if m := disputeModel(x, s, "eve", true); !m.Review {
		t.Fatal("a reviewer who did not play the match reads its dispute without the review view")
	}
	if m := disputeModel(x, s, "ann", false); m.Review {
		t.Fatal("a player reads its dispute with the review view")
	}
}
