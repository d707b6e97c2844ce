package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Wallets: each command on a player's wallet appends to the wallet's stream alone
// (wallet-<playerID>), decided by domain/wallet on the stream as stored, at its version,
// with event IDs derived from what the event is (the hold's ID, "settle:<hold>",
// "release:<hold>", "grant:<key>"), so that any step taken twice is stored once. A match
// that moves coins is joined in two such steps: the hold on the wallet, then the join
// with the hold on the match (see docs/architecture.md, "escrow and settlement").

// Wallet is a player's wallet as stored: its state, its statement and its version.
type Wallet struct {
	State   wallet.State
	Entries []WalletEntry
	Version int64
}

// WalletEntry is a line of a statement, with the time it was recorded.
type WalletEntry struct {
	wallet.Entry
	At time.Time
}

// ReadWallet folds a player's wallet stream as stored, without granting anything.
func (e *Engine) ReadWallet(ctx context.Context, playerID string) (Wallet, error) {
	evs, err := e.cfg.Store.ReadStream(ctx, wallet.Stream(playerID), 0, 0)
	if err != nil {
		return Wallet{}, notApplied(storeError("reading a wallet", err))
	}
	var w Wallet
	for _, ev := range evs {
		d, err := wallet.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			return Wallet{}, notApplied(fmt.Errorf("engine: wallet of %s at version %d: %w", playerID, ev.Version, err))
		}
		w.State = wallet.Evolve(w.State, d)
		w.Entries = append(w.Entries, WalletEntry{Entry: wallet.EntryOf(d), At: ev.Time})
		w.Version = ev.Version
	}
	return w, nil
}

// foldedWallet is a wallet's state at a version, kept so that a command folds only the
// events appended since; the append's expected version checks it against the store.
type foldedWallet struct {
	state   wallet.State
	version int64
}

// walletState folds a wallet from its cached fold and what the store holds beyond it.
func (e *Engine) walletState(ctx context.Context, playerID string) (foldedWallet, error) {
	var w foldedWallet
	if c, ok := e.wallets.Load(playerID); ok {
		w = c.(foldedWallet)
	}
	evs, err := e.cfg.Store.ReadStream(ctx, wallet.Stream(playerID), w.version, 0)
	if err != nil {
		return foldedWallet{}, notApplied(storeError("reading a wallet", err))
	}
	for _, ev := range evs {
		d, err := wallet.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			e.wallets.Delete(playerID)
			return foldedWallet{}, notApplied(fmt.Errorf("engine: wallet of %s at version %d: %w", playerID, ev.Version, err))
		}
		w.state, w.version = wallet.Evolve(w.state, d), ev.Version
	}
	if len(evs) > 0 {
		e.wallets.Store(playerID, w)
	}
	return w, nil
}

// Wallet returns a registered player's wallet, giving the starting grant first if the
// player has not had it. The grant is given at the first use of the wallet (this read, a
// hold, a staked creation) rather than at registration: a player who never touches coins
// adds nothing to the store, and players registered before wallets existed are granted
// the same way.
func (e *Engine) Wallet(ctx context.Context, playerID string) (Wallet, error) {
	if _, err := e.registration(ctx, playerID); err != nil {
		return Wallet{}, err
	}
	if err := e.grantStarting(ctx, playerID); err != nil {
		return Wallet{}, err
	}
	return e.ReadWallet(ctx, playerID)
}

// grantStarting gives the starting grant once: its event ID is the player's own, so two
// nodes granting at once store it once.
func (e *Engine) grantStarting(ctx context.Context, playerID string) error {
	_, err := e.walletDo(ctx, playerID, "starting", func(wallet.State) (wallet.Command, error) {
		return wallet.Grant{Amount: wallet.StartingGrant, Reason: wallet.ReasonStarting}, nil
	})
	return err
}

// ReleaseHold gives an open hold back whole; a hold no longer open is left as it is.
func (e *Engine) ReleaseHold(ctx context.Context, playerID, hold, reason string) error {
	_, err := e.walletDo(ctx, playerID, "", func(wallet.State) (wallet.Command, error) {
		return wallet.Release{Hold: hold, Reason: reason}, nil
	})
	return err
}

// SettleHold closes an open hold as its match ended; a hold no longer open is left as it is.
func (e *Engine) SettleHold(ctx context.Context, playerID, hold string, charged, won int64) error {
	_, err := e.walletDo(ctx, playerID, "", func(wallet.State) (wallet.Command, error) {
		return wallet.Settle{Hold: hold, Charged: charged, Won: won}, nil
	})
	return err
}

// walletEventID is the ID of a wallet event: what makes the same step, taken twice, one
// event in the store. key names a grant or a spending (the caller's idempotency key).
func walletEventID(playerID, key string, e game.Event) string {
	switch e := e.(type) {
	case wallet.CoinsHeld:
		return e.Hold
	case wallet.HoldReleased:
		return "release:" + e.Hold
	case wallet.HoldSettled:
		return "settle:" + e.Hold
	case wallet.RulingCorrected:
		return wallet.CorrectionID(e.Dispute, e.Player)
	}
	return fmt.Sprintf("%s:%s:%s", e.EventType(), playerID, key)
}

// walletDo decides the command that build gives for the wallet as stored and appends what
// it decides at the wallet's version, deciding again on a conflict. It returns the wallet
// after the command; a command that decides nothing (already done) appends nothing.
func (e *Engine) walletDo(ctx context.Context, playerID, key string, build func(wallet.State) (wallet.Command, error)) (wallet.State, error) {
	st, _, err := e.walletAppend(ctx, playerID, key, build)
	return st, err
}

// walletAppend is walletDo, and whether this call stored the events it decided: false
// when it decided nothing, or when the same events were stored before under their IDs (a
// second call at once, on this node or another).
func (e *Engine) walletAppend(ctx context.Context, playerID, key string, build func(wallet.State) (wallet.Command, error)) (wallet.State, bool, error) {
	stream := wallet.Stream(playerID)
	for attempt := 0; ; attempt++ {
		w, err := e.walletState(ctx, playerID)
		if err != nil {
			return wallet.State{}, false, err
		}
		cmd, err := build(w.state)
		if err != nil {
			return wallet.State{}, false, err
		}
		evs, err := wallet.Decide(w.state, cmd)
		if err != nil || len(evs) == 0 {
			return w.state, false, err
		}
		now := e.now()
		proposed := make([]eventstore.Proposed, len(evs))
		for i, ev := range evs {
			payload, err := game.Encode(ev)
			if err != nil {
				return wallet.State{}, false, notApplied(err)
			}
			proposed[i] = eventstore.Proposed{
				ID: walletEventID(playerID, key, ev), Type: ev.EventType(), SchemaVersion: wallet.Events.Schema(ev.EventType()),
				Payload: payload, CommandID: "wallet", Actor: "system", Visibility: visibility.Server, Time: now,
			}
		}
		res, err := e.cfg.Store.Append(ctx, stream, w.version, proposed...)
		var conflict *eventstore.VersionConflict
		switch {
		case errors.As(err, &conflict) && attempt+1 < e.cfg.MaxRetries:
			continue // another command on the wallet won: decide again on what it left
		case errors.As(err, &conflict):
			return wallet.State{}, false, &game.Error{Code: game.Conflict, Reason: "the wallet kept changing under this command; send it again", Err: err}
		case err != nil:
			return wallet.State{}, false, appendError("appending to "+stream, err)
		case res.Duplicate: // stored before, under the same key: the wallet as it is
			w, err := e.walletState(ctx, playerID)
			return w.state, false, err
		}
		for _, ev := range evs {
			w.state = wallet.Evolve(w.state, ev)
		}
		w.version = res.LastVersion
		e.wallets.Store(playerID, w)
		return w.state, true, nil
	}
}

// holdFor holds the coins that fund a seat of a funded match: the stake, plus what the
// balance allows of the most the game may charge. A wallet keeps one open hold per
// match: a join sent again finds the hold it made.
func (e *Engine) holdFor(ctx context.Context, snap Snapshot, j match.Join, meta Meta) (wallet.Hold, error) {
	if err := e.grantStarting(ctx, j.PlayerID); err != nil {
		return wallet.Hold{}, err
	}
	key := meta.CommandID
	if key == "" {
		id, err := e.newID()
		if err != nil {
			return wallet.Hold{}, notApplied(err)
		}
		key = "auto-" + id
	}
	stake, ceiling := match.SeatFunds(snap.Rules, snap.State.Options)
	var hold wallet.HoldCoins
	st, err := e.walletDo(ctx, j.PlayerID, "", func(w wallet.State) (wallet.Command, error) {
		if w.Balance < stake {
			return nil, wallet.Short(stake, w.Balance, "the stake of this match")
		}
		amount := stake + min(w.Balance-stake, ceiling)
		seat := ""
		if j.Seat != nil {
			seat = fmt.Sprint(*j.Seat)
		}
		id := match.DerivedID("hold", j.PlayerID, fmt.Sprintf("%s\x00%s\x00%d\x00%s", snap.ID, key, amount, seat))
		hold = wallet.HoldCoins{ID: "hold-" + id, Match: snap.ID, Amount: amount, Seat: j.Seat}
		return hold, nil
	})
	if err != nil {
		return wallet.Hold{}, err
	}
	h, ok := st.OpenHold(snap.ID)
	if !ok {
		return wallet.Hold{}, fmt.Errorf("engine: the hold %s of %s for match %s is not open after it was made", hold.ID, j.PlayerID, snap.ID)
	}
	return h, nil
}

// fundedJoin joins a match that moves coins: the hold on the wallet, then the join with
// it on the match, under a command ID derived from the hold, then the hold's release if
// the match refuses the join. A failure between the steps is completed by the settlement
// process (FinishJoin), which takes the same steps.
func (e *Engine) fundedJoin(ctx context.Context, snap Snapshot, j match.Join, meta Meta) (Ack, error) {
	w, err := e.walletState(ctx, j.PlayerID)
	if err != nil {
		return Ack{}, err
	}
	if h, ok := w.state.OpenHold(snap.ID); ok {
		landed, err := e.commandSeen(ctx, snap.ID, "player:"+j.PlayerID, "hold:"+h.ID)
		if err != nil {
			return Ack{}, err
		}
		if !landed || snap.State.SeatOf(j.PlayerID) >= 0 {
			// A join sent again, or one a crash interrupted: its hold's join answers it.
			return e.finishJoin(ctx, j.PlayerID, j.Name, j.Entropy, h)
		}
		// The hold's seat was vacated and the settlement process has not released it yet:
		// it is given back before a new hold is taken for the new seat.
		if err := e.ReleaseHold(ctx, j.PlayerID, h.ID, "seat vacated"); err != nil {
			return Ack{}, err
		}
	}
	if snap.State.Status != match.Open || snap.State.SeatOf(j.PlayerID) >= 0 {
		return e.handle(ctx, snap.ID, nil, j, meta) // refused as any join: nothing to hold
	}
	h, err := e.holdFor(ctx, snap, j, meta)
	if err != nil {
		return Ack{}, err
	}
	return e.finishJoin(ctx, j.PlayerID, j.Name, j.Entropy, h)
}

// commandSeen reports whether the match holds events of an actor's command.
func (e *Engine) commandSeen(ctx context.Context, matchID, actor, commandID string) (bool, error) {
	en := e.lookup(matchID)
	en.mu.Lock()
	defer en.mu.Unlock()
	if err := e.catchUp(ctx, en); err != nil {
		e.forget(matchID)
		return false, notApplied(err)
	}
	e.retire(en)
	_, seen := en.commands[en.keys.of(actor, commandID)]
	return seen, nil
}

// FinishJoin submits the join that an open hold funds, and releases the hold if the
// match refuses it. It is the second step of a funded join, taken again by the settlement
// process for a hold whose join it does not see: the same command ID and the same join,
// so the match records it once.
func (e *Engine) FinishJoin(ctx context.Context, playerID, name string, h wallet.Hold) (Ack, error) {
	return e.finishJoin(ctx, playerID, name, nil, h)
}

// finishJoin is FinishJoin with the entropy the player sent (nil: the server draws it).
// The settlement process, which completes a join a crash interrupted, does not know it:
// the server draws it then, and the seat's entropy says so.
func (e *Engine) finishJoin(ctx context.Context, playerID, name string, entropy []byte, h wallet.Hold) (Ack, error) {
	j := match.Join{PlayerID: playerID, Name: name, Seat: h.Seat, Funds: &match.Funds{Hold: h.ID, Amount: h.Amount}, Entropy: entropy}
	ack, err := e.handle(ctx, h.Match, nil, j, Meta{CommandID: "hold:" + h.ID, Actor: "player:" + playerID})
	var busy *eventstore.VersionConflict // the match kept changing: the join may be sent again
	if game.CodeOf(err) != "" && !errors.As(err, &busy) {
		if rerr := e.ReleaseHold(ctx, playerID, h.ID, "join refused"); rerr != nil {
			// Not the refusal: the hold is still open, and the step is to be taken again.
			return Ack{}, fmt.Errorf("engine: the join was refused (%v) and releasing its hold failed: %w", err, rerr)
		}
	}
	return ack, err
}

// checkStake refuses a stake that its creator could not pay: a stake needs a registered
// creator whose balance covers it.
func (e *Engine) checkStake(ctx context.Context, c CreateMatch) error {
	stake, err := match.Stake(c.Options)
	if err != nil || stake == 0 {
		return err
	}
	if c.By == "" {
		return game.Reject(game.Unauthenticated, "a staked match needs a registered creator: send your token")
	}
	w, err := e.Wallet(ctx, c.By)
	if err != nil {
		return err
	}
	if w.State.Balance < stake {
		return wallet.Short(stake, w.State.Balance, "a stake of "+fmt.Sprint(stake))
	}
	return nil
}

// GrantCoins credits a registered player's wallet (a daily bonus, a reward: the economy's),
// once per key: the same key sent again grants nothing more.
func (e *Engine) GrantCoins(ctx context.Context, playerID string, amount int64, reason, key string) (wallet.State, error) {
	return e.grantFor(ctx, playerID, amount, reason, "", key)
}

// grantFor is GrantCoins with what the grant is for (ref: a day, a challenge).
func (e *Engine) grantFor(ctx context.Context, playerID string, amount int64, reason, ref, key string) (wallet.State, error) {
	st, _, err := e.grantOnce(ctx, playerID, amount, reason, ref, key)
	return st, err
}

// grantOnce is grantFor, and whether this call granted: false when the key's grant was
// stored before, by an earlier call or by one at the same time.
func (e *Engine) grantOnce(ctx context.Context, playerID string, amount int64, reason, ref, key string) (wallet.State, bool, error) {
	if _, err := e.registration(ctx, playerID); err != nil {
		return wallet.State{}, false, err
	}
	if err := CheckCommandID(key); err != nil || key == "" {
		return wallet.State{}, false, cmpErr(err, game.Reject(game.BadInput, "a grant needs a key: the same key grants once"))
	}
	if err := e.grantStarting(ctx, playerID); err != nil {
		return wallet.State{}, false, err
	}
	return e.walletAppend(ctx, playerID, "grant:"+key, func(wallet.State) (wallet.Command, error) {
		return wallet.Grant{Amount: amount, Reason: reason, Ref: ref}, nil
	})
}

// SpendCoins debits a registered player's wallet for ref (a hat: the economy's), once per
// key, refused with INSUFFICIENT_FUNDS above the balance.
func (e *Engine) SpendCoins(ctx context.Context, playerID string, amount int64, reason, ref, key string) (wallet.State, error) {
	if _, err := e.registration(ctx, playerID); err != nil {
		return wallet.State{}, err
	}
	if err := CheckCommandID(key); err != nil || key == "" {
		return wallet.State{}, cmpErr(err, game.Reject(game.BadInput, "a spending needs a key: the same key spends once"))
	}
	if err := e.grantStarting(ctx, playerID); err != nil {
		return wallet.State{}, err
	}
	return e.walletDo(ctx, playerID, "spend:"+key, func(wallet.State) (wallet.Command, error) {
		return wallet.Spend{Amount: amount, Reason: reason, Ref: ref}, nil
	})
}

// cmpErr is err, or otherwise when err is nil.
func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}
