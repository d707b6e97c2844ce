package classic

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
)

// The fast reader of MovePlayed must agree with encoding/json on every payload it accepts,
// and accept what encoding/json writes.
func TestFastDecodeAgreesWithEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		mv := MovePlayed{Seat: rng.IntN(2), UCI: "e7e8q", SAN: "e8=Q+", Piece: rng.IntN(40), FEN: "4Q3/8/8/8/8/8/8/k1K5 b - - 0 1"}
		if i%2 == 1 {
			mv.At = time.Date(2026, 11, 30, 12, 0, 0, rng.IntN(1e9), time.UTC)
			mv.LeftMs = rng.Int64N(600_000) - 1000
		}
		payload, err := json.Marshal(mv)
		if err != nil {
			t.Fatal(err)
		}
		var fast MovePlayed
		if !fast.DecodeFast(payload) {
			t.Fatalf("the fast reader refused what encoding/json wrote: %s", payload)
		}
		if !reflect.DeepEqual(fast, mv) {
			t.Fatalf("%s: fast %+v, want %+v", payload, fast, mv)
		}
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{
		`{"seat":0,"uci":"e2e4","san":"e4","piece":12,"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}`,
		`{"seat":1,"uci":"e7e5","san":"e5","piece":20,"fen":"x","at":"2026-11-30T12:00:00.5Z","leftMs":52000}`,
		`{"seat":01,"uci":"a","san":"b","piece":1,"fen":"c"}`,
		`{"seat":0,"uci":"a\u0041","san":"b","piece":1,"fen":"c"}`,
		`{"seat":0,"uci":"a","san":"b","piece":1,"fen":"c","at":"2026-11-30T12:00:00+01:00"}`,
		`{"seat":0,"uci":"a","san":"b","piece":1,"fen":"c","leftMs":0}`,
		`{"seat":0,"uci":"a","san":"b","piece":1,"fen":"c"} `,
		`{"seat":99999999999999999999,"uci":"a","san":"b","piece":1,"fen":"c"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		var fast MovePlayed
		if !fast.DecodeFast(p) {
			return
		}
		var slow MovePlayed
		if err := json.Unmarshal(p, &slow); err != nil {
			t.Fatalf("the fast reader accepted %q, which encoding/json refuses: %v", p, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %+v, encoding/json %+v", p, fast, slow)
		}
	})
}

// The codec uses the fast reader and falls back for other forms.
func TestCodecFallsBackToEncodingJSON(t *testing.T) {
	spaced := []byte(`{ "fen": "x", "seat": 1, "uci": "e7e5", "san": "e5", "piece": 20 }`)
	e, err := codec.Decode("MovePlayed", 1, spaced)
	if err != nil {
		t.Fatal(err)
	}
	if mv := e.(MovePlayed); mv.Seat != 1 || mv.UCI != "e7e5" || mv.FEN != "x" || mv.Piece != 20 {
		t.Fatalf("fallback decode: %+v", mv)
	}
	var _ game.FastDecoder = &MovePlayed{}
}

// The fast writer of MovePlayed must write what encoding/json writes, byte for byte, and
// take every move the engine stamps (UTC, strings without escapes).
func TestFastEncodeIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	paris := time.FixedZone("Paris", 3600)
	strs := []string{"e2e4", "Nf3+", "4Q3/8/8/8/8/8/8/k1K5 b - - 0 1", "", "a\"b", `a\b`, "<", ">", "&", "é", "\t", "\x7f"}
	fast := 0
	for i := range 5000 {
		mv := MovePlayed{Seat: rng.IntN(3) - 1, UCI: strs[rng.IntN(len(strs))], SAN: strs[rng.IntN(len(strs))],
			Piece: rng.IntN(80) - 8, FEN: strs[rng.IntN(len(strs))]}
		switch i % 4 {
		case 1:
			mv.At = time.Date(2026, 11, 30, 12, 0, 0, rng.IntN(1e9), time.UTC)
			mv.LeftMs = rng.Int64N(600_000) - 1000
		case 2:
			mv.At = time.Date(2026, 11, 30, 12, 0, 0, rng.IntN(1e9), paris)
		case 3:
			mv.LeftMs = rng.Int64N(3) - 1
		}
		want, err := json.Marshal(mv)
		if err != nil {
			t.Fatal(err)
		}
		got, err := game.Encode(mv)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%+v: encoded %s, encoding/json writes %s", mv, got, want)
		}
		// Appended after what a buffer holds, whichever writer takes it.
		if got, err := game.AppendEncode([]byte("[1,"), mv); err != nil || string(got) != "[1,"+string(want) {
			t.Fatalf("%+v: appended %s (%v), want [1,%s", mv, got, err, want)
		}
		if _, ok := mv.AppendFast(nil); ok {
			fast++
		}
	}
	stamped := MovePlayed{Seat: 1, UCI: "e7e8q", SAN: "e8=Q+", Piece: 20, FEN: "4Q3/8/8/8/8/8/8/k1K5 b - - 0 1",
		At: time.Now().UTC().Truncate(time.Microsecond), LeftMs: 5}
	if _, ok := stamped.AppendFast(nil); !ok || fast < 50 {
		t.Fatalf("the fast writer took %d of 5,000 moves, and refused a stamped one: %v", fast, !ok)
	}
}
