package match

import (
	"slices"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Matches that move coins: a stake that the winner takes, or a game that charges its seats
// (game.Charging). Each seat of such a match is funded from its player's wallet before it
// is taken: the engine holds the coins on the wallet's stream, then joins with the hold
// (Join.Funds), and the match records SeatFunded beside SeatTaken. Once the match is over,
// Settlement says, from the match alone, what each seat's hold pays and receives (see
// docs/architecture.md, "escrow and settlement").

// StakeOption is the match option of the coins each seat stakes; the winner takes the
// losers' stakes. Like SpectatorDelayOption it is the match's, not the game's.
const StakeOption = "stake"

// MaxStake bounds a stake, far above any balance, so that sums of stakes never overflow.
const MaxStake = 1_000_000_000

// Stake returns the stake that options give (zero without the option), or a BAD_INPUT
// that says what is wrong with it.
func Stake(opts game.Options) (int64, error) {
	v, ok := opts[StakeOption]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil:
		return 0, &game.Error{Code: game.BadInput, Reason: "option stake is " + strconv.Quote(v) + ": give a whole number of coins", Err: err}
	case n < 0:
		return 0, game.Reject(game.BadInput, "option stake is %d: a stake cannot be negative", n)
	case n > MaxStake:
		return 0, game.Reject(game.BadInput, "option stake is %d: at most %d", n, MaxStake)
	}
	return n, nil
}

// Funded reports whether a match of these rules and options moves coins, so that each of
// its seats must be funded. A training match moves none (TrainingOption).
func Funded(rules game.Rules, opts game.Options) bool {
	if Training(opts) {
		return false
	}
	if _, ok := rules.(game.Charging); ok {
		return true
	}
	n, _ := Stake(opts)
	return n > 0
}

// SeatFunds is what a seat of a funded match needs and may hold: at least the stake, and
// beyond it up to ceiling more, the most the game may charge it (the engine holds the
// stake plus what the player's balance allows of the ceiling).
func SeatFunds(rules game.Rules, opts game.Options) (stake, ceiling int64) {
	stake, _ = Stake(opts)
	if c, ok := rules.(game.Charging); ok {
		ceiling = c.MaxCharge(GameOptions(opts))
	}
	return stake, ceiling
}

// Funds is the hold on a wallet that funds a seat: its ID (the ID of the wallet's
// CoinsHeld event) and its amount.
type Funds struct {
	Hold   string `json:"hold"`
	Amount int64  `json:"amount"`
}

// SeatFunded says a seat is funded by a hold on its player's wallet. It is visible to that
// seat alone: the funds are its purse in a game that charges, and an opponent who saw them
// would know the most it can bid.
type SeatFunded struct {
	Seat  int    `json:"seat"`
	Funds int64  `json:"funds"`
	Hold  string `json:"hold"`
}

func (SeatFunded) EventType() string { return "SeatFunded" }

// fund checks the funds of a join in s and returns the SeatFunded it records, if any.
func fund(rules game.Rules, s State, c Join, seat int) ([]game.Emitted, error) {
	funded := Funded(rules, s.Options)
	switch {
	case !funded && c.Funds != nil:
		return nil, game.Reject(game.BadInput, "this match moves no coins: a seat is taken without a hold")
	case !funded:
		return nil, nil
	case c.Bot:
		return nil, game.Reject(game.BadInput, "this match moves coins: the house bot never plays for coins")
	case c.Funds == nil || c.Funds.Hold == "":
		return nil, game.Reject(game.Forbidden, "this match moves coins: its seats are taken through a hold on the player's wallet")
	}
	if stake, _ := SeatFunds(rules, s.Options); c.Funds.Amount < stake {
		return nil, game.Reject(game.BadInput, "a hold of %d coins does not cover the stake of %d", c.Funds.Amount, stake)
	}
	return []game.Emitted{{Event: SeatFunded{Seat: seat, Funds: c.Funds.Amount, Hold: c.Funds.Hold}, Visibility: visibility.Seat(seat)}}, nil
}

// Purses is, by seat, the most a Charging game may charge each seat: its funds beyond the
// stake; nil for a match that moves no coins.
func (s *State) Purses() []int64 {
	if s.Funds == nil {
		return nil
	}
	stake, _ := Stake(s.Options)
	out := make([]int64, len(s.Funds))
	for i, f := range s.Funds {
		out[i] = max(f-stake, 0)
	}
	return out
}

// setup is what rules are told to deal the opening of s, started at at: a training
// match's seats have practice purses (TrainingOption).
func (s *State) setup(rules game.Rules, seed []byte, at time.Time) game.Setup {
	stake, _ := Stake(s.Options)
	purses := s.Purses()
	if Training(s.Options) {
		purses = practicePurses(rules, s)
	}
	return game.Setup{Plan: s.Plan, Options: GameOptions(s.Options), Seed: seed, Fairness: s.Fairness, At: at, Purses: purses, Stake: stake}
}

// SeatSettlement is what a seat's hold pays (Charged) and receives (Won) at the end.
type SeatSettlement struct {
	Hold    string
	Charged int64
	Won     int64
}

// Settlement says, by seat, what each funded seat of the finished match s pays and
// receives: the losers' stakes go to the winners, shared evenly (a remainder coin by coin
// to the first winners by seat); a draw moves no stake, nor a match abandoned too early
// to count (game.Rewarding: a Solwaris duel before its 4th turn); a void match (aborted, cancelled)
// moves nothing at all, not even what the game charged. What a Charging game charged a
// seat is added to what it pays. A seat without a hold settles nothing (Hold is "").
func Settlement(rules game.Rules, s State) []SeatSettlement {
	out := make([]SeatSettlement, len(s.Seats))
	for i := range out {
		if i < len(s.Holds) {
			out[i].Hold = s.Holds[i]
		}
	}
	if s.Status != Finished || s.Result == nil || Void(s.Result.Reason) {
		return out
	}
	stake, _ := Stake(s.Options)
	if game.AbandonedEarly(rules, s.GameState, len(s.Resigned)) {
		stake = 0 // too short to count: the one who stays gains nothing, so no stake moves
	}
	if w := s.Result.Winners; len(w) > 0 && stake > 0 {
		var losers int64
		for i := range out {
			if !slices.Contains(w, i) {
				out[i].Charged += stake
				losers++
			}
		}
		pot := stake * losers
		share, rest := pot/int64(len(w)), pot%int64(len(w))
		for k, i := range w {
			out[i].Won += share
			if int64(k) < rest {
				out[i].Won++
			}
		}
	}
	if c, ok := rules.(game.Charging); ok && s.GameState != nil {
		for i, n := range c.Charged(s.GameState) {
			if i < len(out) {
				out[i].Charged += n
			}
		}
	}
	return out
}
