// Package badges is the badges a player's played cards unlock (data: badges.json): so
// many cards played, so many different ones, or each of a set of cards so many times.
// A badge is a pure function of the cards-played counts, which are themselves folded
// from the matches' public CardPlayed events: it is unlocked by those events and needs no
// event of its own, so it can never disagree with them.
package badges

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Badge is one badge and what unlocks it, in one game: Total cards played, Distinct
// different cards played, or Each of Cards played at least Each times.
type Badge struct {
	ID       string   `json:"id"`
	Game     string   `json:"game"`
	Total    int      `json:"total,omitempty"`
	Distinct int      `json:"distinct,omitempty"`
	Cards    []string `json:"cards,omitempty"`
	Each     int      `json:"each,omitempty"`
	En       string   `json:"en"`
	Fr       string   `json:"fr"`
	TextEn   string   `json:"textEn"`
	TextFr   string   `json:"textFr"`
}

//go:embed badges.json
var data []byte

// All is every badge, in the data's order.
var All = func() []Badge {
	var out []Badge
	if err := json.Unmarshal(data, &out); err != nil {
		panic(fmt.Sprintf("badges: badges.json: %v", err))
	}
	return out
}()

// Unlocked is the badges that played unlocks: played is, by game, the times each card was
// played.
func Unlocked(played map[string]map[string]int) []Badge {
	var out []Badge
	for _, b := range All {
		if b.unlocked(played[b.Game]) {
			out = append(out, b)
		}
	}
	return out
}

func (b Badge) unlocked(cards map[string]int) bool {
	total, distinct := 0, 0
	for _, n := range cards {
		total += n
		if n > 0 {
			distinct++
		}
	}
	if total < b.Total || distinct < b.Distinct {
		return false
	}
	for _, c := range b.Cards {
		if cards[c] < b.Each {
			return false
		}
	}
	return true
}
