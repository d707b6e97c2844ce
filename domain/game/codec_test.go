package game

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// scored is an event whose schema 1 called its field "points" and schema 2 "score".
type scored struct {
	Score int `json:"score"`
}

func (scored) EventType() string { return "Scored" }

func TestCodecUpcastsOldSchemas(t *testing.T) {
	c := NewCodec()
	Register[scored](c, 2)
	c.Upcaster("Scored", func(schema int, payload []byte) ([]byte, error) {
		if schema != 1 {
			return nil, errors.New("no such schema")
		}
		var old struct{ Points int }
		if err := json.Unmarshal(payload, &old); err != nil {
			return nil, err
		}
		return json.Marshal(scored{Score: old.Points})
	})
	e, err := c.Decode("Scored", 1, []byte(`{"points":7}`))
	if err != nil || e.(scored).Score != 7 {
		t.Fatalf("schema 1 read as %+v, %v", e, err)
	}
	if e, err := c.Decode("Scored", 2, []byte(`{"score":9}`)); err != nil || e.(scored).Score != 9 {
		t.Fatalf("schema 2 read as %+v, %v", e, err)
	}
	if _, err := c.Decode("Scored", 3, []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "schema 3") {
		t.Fatalf("a schema from newer rules must be refused, got %v", err)
	}
	if _, err := c.Decode("Unknown", 1, []byte(`{}`)); err == nil {
		t.Fatalf("an unknown type decoded")
	}
	if _, err := c.Decode("Scored", 2, []byte(`{"score":"nine"}`)); err == nil {
		t.Fatalf("a malformed payload decoded")
	}
}

func TestCodecWithoutUpcasterRefusesOldSchemas(t *testing.T) {
	c := NewCodec()
	Register[scored](c, 2)
	if _, err := c.Decode("Scored", 1, []byte(`{"points":7}`)); err == nil {
		t.Fatalf("schema 1 decoded without an upcaster")
	}
}

func TestRegistryAndRejections(t *testing.T) {
	r := NewRegistry()
	if _, err := r.Get("GO"); CodeOf(err) != NotFound {
		t.Fatalf("unknown game: %v", err)
	}
	err := Reject(IllegalMove, "e2e5 is not a %s move", "pawn")
	if CodeOf(err) != IllegalMove || err.Error() != "ILLEGAL_MOVE: e2e5 is not a pawn move" {
		t.Fatalf("rejection: %v", err)
	}
	if CodeOf(errors.New("disk full")) != "" {
		t.Fatalf("a plain error is not a rejection")
	}
}
