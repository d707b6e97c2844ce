package replay

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
)

// WalletReport is the verification of every wallet and of the coins of every match that
// moves them (see docs/architecture.md, "escrow and settlement").
type WalletReport struct {
	Wallets int // wallet streams
	Holds   int // holds ever opened
	Matches int // matches with a hold or a funded seat
	// Pending lists the steps the settlement process has still to take (a node stopped
	// before them): they are no fault, and the next start takes them.
	Pending  []string
	Problems []string
	Profiles int // profile streams (the hats worn), checked against the hats bought
	Draws    int // draws of loot recorded, each re-derived from its match's seed
	// LegacyDraws are those of Draws that record no procedure: drawn, before procedure 1,
	// from the server's seed alone, and checked by that derivation (progress.LootRoll).
	LegacyDraws int
	Rulings     int // rulings that changed a result, each correction of coins checked against it

	econ        *economy
	rulings     []dispute.Ruled          // the rulings that change a result, in store order
	disputes    map[string]dispute.State // match ID -> its dispute stream folded
	corrections map[string]correction    // dispute ID + "\x00" + player -> its correction
}

// correction is a wallet's RulingCorrected, where verify found it.
type correction struct {
	amount int64
	reason string
	where  string
}

// OK reports whether every wallet and every funded match verified.
func (r WalletReport) OK() bool { return len(r.Problems) == 0 }

// Err returns nil, or an error naming the first problem.
func (r WalletReport) Err() error {
	if r.OK() {
		return nil
	}
	return fmt.Errorf("wallets: %s (and %d more problem(s))", r.Problems[0], len(r.Problems)-1)
}

// heldCoins is what verify learns of one hold from its wallet.
type heldCoins struct {
	player  string
	hold    wallet.Hold
	state   string // "open", "released", "settled"
	settled wallet.HoldSettled
}

// VerifyWallets re-derives every wallet from its events (each event exactly what the
// wallet decides there, so no balance goes below zero and no hold closes twice), then
// checks each hold against its match, folded from the match's own stream: a seat funded
// by a hold its player's wallet holds, with the same amount; a released hold funding no
// seat; a settled hold settled as the match's result says (match.Settlement); and, over
// each finished match whose seats are all settled, the coins the settlements paid equal
// to the coins they charged less what the game charged for itself. Holds of finished matches still open are listed as pending.
func VerifyWallets(ctx context.Context, store Reader, games *game.Registry) (WalletReport, error) {
	r := WalletReport{econ: newEconomy(games), corrections: map[string]correction{}, disputes: map[string]dispute.State{}}
	wallets := map[string]wallet.State{}
	profiles := map[string]bool{}
	holds := map[string]*heldCoins{}
	byMatch := map[string][]*heldCoins{}
	funded := map[string]bool{}
	var after int64
	for {
		page, err := store.ReadAll(ctx, after, pageSize)
		if err != nil {
			return WalletReport{}, fmt.Errorf("replay: reading after %d: %w", after, err)
		}
		for _, ev := range page {
			if err := r.econ.ratings.Apply(ev); err != nil { // before the match's end is read, as the economy model does
				return WalletReport{}, fmt.Errorf("replay: folding the ratings at %d: %w", ev.Position, err)
			}
			if id, ok := matchstream.MatchID(ev.Stream); ok {
				if ev.Type == (match.SeatFunded{}).EventType() {
					funded[id] = true
				}
				r.econ.matchEvent(id, ev)
			}
			if player, ok := strings.CutPrefix(ev.Stream, "wallet-"); ok {
				r.walletEvent(player, ev, wallets, holds, byMatch)
			}
			if strings.HasPrefix(ev.Stream, "dispute-") {
				r.disputeEvent(ev)
			}
			if player, ok := strings.CutPrefix(ev.Stream, "loot-"); ok {
				r.Draws++
				if p := r.econ.lootEvent(player, ev); p != "" {
					r.Problems = append(r.Problems, p)
				}
			}
			if player, ok := strings.CutPrefix(ev.Stream, "profile-"); ok {
				profiles[player] = true
				if p := r.econ.profileEvent(player, ev); p != "" {
					r.Problems = append(r.Problems, p)
				}
			}
		}
		if len(page) < pageSize {
			break
		}
		after = page[len(page)-1].Position
	}
	r.Wallets, r.Profiles = len(wallets), len(profiles)
	var problems []string
	problems, r.LegacyDraws = r.econ.checkDraws(ctx, store)
	r.Problems = append(r.Problems, problems...)
	for id := range byMatch {
		funded[id] = true
	}
	ids := make([]string, 0, len(funded))
	for id := range funded {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		snap, err := State(ctx, store, games, id, 0)
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("match %s, held for: %v", id, err))
			continue
		}
		r.match(snap, holds, byMatch[id])
	}
	r.Matches = len(ids)
	r.checkRulings(ctx, store, games)
	return r, nil
}

// walletEvent audits and folds one event of a player's wallet.
func (r *WalletReport) walletEvent(player string, ev eventstore.Event, wallets map[string]wallet.State, holds map[string]*heldCoins, byMatch map[string][]*heldCoins) {
	d, err := wallet.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err))
		return
	}
	st := wallets[player]
	if err := wallet.Audit(st, ev.ID, d); err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err))
	}
	if p := r.econ.walletEvent(player, d); p != "" {
		r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: %s", ev.Stream, ev.Version, p))
	}
	switch e := d.(type) {
	case wallet.CoinsHeld:
		h := &heldCoins{player: player, hold: wallet.Hold{ID: e.Hold, Match: e.Match, Amount: e.Amount, Seat: e.Seat}, state: "open"}
		holds[e.Hold] = h
		byMatch[e.Match] = append(byMatch[e.Match], h)
		r.Holds++
	case wallet.HoldReleased:
		if h := holds[e.Hold]; h != nil {
			h.state = "released"
		}
	case wallet.HoldSettled:
		if h := holds[e.Hold]; h != nil {
			h.state, h.settled = "settled", e
		}
	case wallet.RulingCorrected:
		if e.Player != player {
			r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: a correction for player %s in another's wallet", ev.Stream, ev.Version, e.Player))
		}
		key := e.Dispute + "\x00" + player
		if _, twice := r.corrections[key]; twice {
			r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: a second correction for dispute %s", ev.Stream, ev.Version, e.Dispute))
		}
		r.corrections[key] = correction{amount: e.Amount, reason: e.Reason, where: fmt.Sprintf("%s version %d", ev.Stream, ev.Version)}
	}
	wallets[player] = wallet.Evolve(st, d)
	// Only a ruling's correction may leave a balance below zero (a winner who spent what a
	// void takes back owes it; see wallet.RulingCorrected).
	if b := wallets[player].Balance; b < 0 && len(wallets[player].Corrected) == 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: the balance is %d", ev.Stream, ev.Version, b))
	}
}

// match checks the holds of one match against its stream.
func (r *WalletReport) match(snap Snapshot, holds map[string]*heldCoins, held []*heldCoins) {
	st, id := snap.State, snap.MatchID
	bad := func(format string, args ...any) {
		r.Problems = append(r.Problems, fmt.Sprintf("match %s: ", id)+fmt.Sprintf(format, args...))
	}
	seatOf := map[string]int{}
	for seat, hid := range st.Holds {
		if hid == "" {
			continue
		}
		seatOf[hid] = seat
		h := holds[hid]
		switch {
		case h == nil:
			bad("seat %d is funded by hold %s, which no wallet holds", seat, hid)
		case h.player != st.Seats[seat].PlayerID || h.hold.Match != id || h.hold.Amount != st.Funds[seat]:
			bad("seat %d (%s) is funded with %d by hold %s, of %s for match %s with %d", seat, st.Seats[seat].PlayerID, st.Funds[seat], hid, h.player, h.hold.Match, h.hold.Amount)
		}
	}
	finished := st.Status == match.Finished
	settlement := match.Settlement(snap.Rules, st)
	var won, charged int64 // what the wallets' settlements moved
	settled := 0
	for _, h := range held {
		if h.state == "settled" {
			won, charged, settled = won+h.settled.Won, charged+h.settled.Charged, settled+1
		}
		seat, funds := seatOf[h.hold.ID]
		switch {
		case h.state == "released" && funds:
			bad("hold %s of %s is released, yet it funds seat %d", h.hold.ID, h.player, seat)
		case h.state == "settled" && (!finished || !funds):
			bad("hold %s of %s is settled, but the match is %s and the hold funds no seat at its end", h.hold.ID, h.player, st.Status)
		case h.state == "settled":
			want := settlement[seat]
			if h.settled.Charged != want.Charged || h.settled.Won != want.Won {
				bad("hold %s of seat %d is settled charging %d and paying %d; the result says %d and %d", h.hold.ID, seat, h.settled.Charged, h.settled.Won, want.Charged, want.Won)
			}
		case h.state == "open" && finished && funds:
			r.Pending = append(r.Pending, fmt.Sprintf("match %s is over: the settlement of hold %s of %s", id, h.hold.ID, h.player))
		case h.state == "open" && !funds:
			r.Pending = append(r.Pending, fmt.Sprintf("match %s: hold %s of %s funds no seat: its join or its release", id, h.hold.ID, h.player))
		}
	}
	if !finished || settled < len(seatOf) {
		return // the balance of the match is checked once every funded seat is settled
	}
	var kept int64
	var byGame []int64
	if c, ok := snap.Rules.(game.Charging); ok && st.GameState != nil {
		byGame = c.Charged(st.GameState)
	}
	purses := st.Purses()
	for seat := range settlement {
		if seat < len(byGame) && !match.Void(st.Result.Reason) {
			kept += byGame[seat]
			if seat < len(purses) && byGame[seat] > purses[seat] {
				bad("the game charged seat %d %d coins, above its purse of %d", seat, byGame[seat], purses[seat])
			}
		}
	}
	if won != charged-kept {
		bad("%d coins won, %d charged of which the game kept %d: coins were made or lost", won, charged, kept)
	}
}
