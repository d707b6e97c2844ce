package cardchess

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Differs compares a recorded action with the rules' record of it, field by field of
// their stored payloads (less the fields skip names), naming the first field that
// differs: how both card games audit an action they decide again.
func Differs(recorded, want game.Event, skip ...string) error {
	var got, exp map[string]json.RawMessage
	if err := errors.Join(json.Unmarshal(Encoded(recorded), &got), json.Unmarshal(Encoded(want), &exp)); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(exp)) {
		if !slices.Contains(skip, k) && !bytes.Equal(got[k], exp[k]) {
			return fmt.Errorf("%s: %s %s recorded, the rules give %s", want.EventType(), k, got[k], exp[k])
		}
	}
	return nil
}

// Encoded is an event's stored payload, for comparing records (an event that does not
// encode compares as its error).
func Encoded(e game.Event) []byte {
	b, err := game.Encode(e)
	if err != nil {
		return []byte(err.Error())
	}
	return b
}
