package visibility

import (
	"encoding/json"
	"testing"
)

// The stored forms are covered by every event's hash: they must never change.
func TestStoredForm(t *testing.T) {
	for v, want := range map[Visibility]string{Public: "", Server: "server", Seat(0): "seat:0", Seat(3): "seat:3", Team(1): "team:1", Team(12): "team:12"} {
		if got := v.String(); got != want {
			t.Errorf("%#v is stored as %q, want %q", v, got, want)
		}
		back, err := Parse(want)
		if err != nil || back != v {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", want, back, err, v)
		}
		b, err := json.Marshal(struct{ V Visibility }{v})
		if err != nil || string(b) != `{"V":"`+want+`"}` {
			t.Errorf("JSON of %#v: %s, %v", v, b, err)
		}
		var got struct{ V Visibility }
		if err := json.Unmarshal(b, &got); err != nil || got.V != v {
			t.Errorf("JSON %s reads back as %#v, %v", b, got.V, err)
		}
	}
}

func TestParseRefusesWhatStringNeverWrites(t *testing.T) {
	for _, s := range []string{"public", "x", "seat", "seat:", "seat:x", "seat:01", "seat:+1", "team: 1", "Seat:1", "server:1", "player:1"} {
		if v, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %#v, want an error", s, v)
		}
	}
	var v Visibility
	if err := json.Unmarshal([]byte(`"seat:x"`), &v); err == nil {
		t.Errorf("a JSON visibility that does not parse was read as %#v", v)
	}
}

func TestAccessors(t *testing.T) {
	if !Public.IsPublic() || Server.IsPublic() || Seat(0).IsPublic() {
		t.Fatal("only Public is public")
	}
	if n, ok := Seat(2).Seat(); !ok || n != 2 {
		t.Fatalf("Seat(2).Seat() = %d, %v", n, ok)
	}
	if _, ok := Team(2).Seat(); ok {
		t.Fatal("a team visibility is no seat")
	}
	if n, ok := Team(1).Team(); !ok || n != 1 {
		t.Fatalf("Team(1).Team() = %d, %v", n, ok)
	}
	if _, ok := Server.Team(); ok {
		t.Fatal("the server's visibility is no team")
	}
}
