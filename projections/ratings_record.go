package projections

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/arbiter-games/arbiter/domain/rating"
)

// Every rated match keeps its ruling record (ratedResult) for good: a ruling may come at
// any time, and the ratings before the match that a ruling rates from are nowhere in the
// store. So the record is kept packed, its strings interned (games, players and keys
// number far fewer than matches): about 60 bytes for a duel, where the record as a struct
// of slices took about 500. It is unpacked only for a ruling.

// packedResult is a ratedResult packed by Ratings.pack.
type packedResult []byte

// errPacked is a record that does not unpack: a bug of pack, never of the events.
var errPacked = errors.New("projections: a packed rating record does not unpack")

// pack packs d. The caller holds the lock.
func (r *Ratings) pack(d *ratedResult) packedResult {
	u := func(b []byte, v int) []byte { return binary.AppendUvarint(b, uint64(v)) }
	b := make([]byte, 0, 64)
	b = u(b, int(r.names.of(d.game)))
	b = u(b, len(d.players))
	for i, p := range d.players {
		b = u(b, int(r.names.of(p)))
		b = u(b, d.teams[i])
	}
	b = u(b, len(d.before)) // keys per seat
	if d.keys == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		for _, keys := range d.keys {
			for _, k := range keys {
				b = u(b, int(r.names.of(k)))
			}
		}
	}
	for _, before := range d.before {
		for _, p := range before {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Rating))
			b = u(b, p.Games)
		}
	}
	b = u(b, len(d.moved))
	for _, mv := range d.moved {
		b = u(b, int(mv.seat))
		b = u(b, int(mv.key))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(mv.by))
		b = append(b, byte(mv.result*2)) // 1 won, 0 lost, 0.5 drew: 2, 0, 1
	}
	return packedResult(b)
}

// unpack is the record that pack packed into p. The caller holds the lock.
func (r *Ratings) unpack(p packedResult) (*ratedResult, error) {
	b := []byte(p)
	bad := false
	u := func() int {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return int(v)
	}
	f := func() float64 {
		if len(b) < 8 {
			bad = true
			return 0
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(b))
		b = b[8:]
		return v
	}
	name := func() string {
		n := u()
		if n >= len(r.names.all) {
			bad = true
			return ""
		}
		return r.names.all[n]
	}
	d := &ratedResult{game: name()}
	seats := u()
	if bad || seats > len(p) {
		return nil, errPacked
	}
	d.players, d.teams = make([]string, seats), make([]int, seats)
	for i := range seats {
		d.players[i], d.teams[i] = name(), u()
	}
	perSeat := u()
	if bad || perSeat > len(p) || len(b) == 0 {
		return nil, errPacked
	}
	keyed := b[0] == 1
	b = b[1:]
	if keyed {
		d.keys = make([][]string, seats)
		for i := range d.keys {
			d.keys[i] = make([]string, perSeat)
			for k := range perSeat {
				d.keys[i][k] = name()
			}
		}
	}
	d.before = make([][]rating.Player, perSeat)
	for k := range d.before {
		d.before[k] = make([]rating.Player, seats)
		for i := range seats {
			d.before[k][i] = rating.Player{Rating: f(), Games: u()}
		}
	}
	moved := u()
	if bad || moved > len(p) {
		return nil, errPacked
	}
	for range moved {
		mv := movedRating{seat: int32(u()), key: int32(u()), by: f()}
		if len(b) == 0 || b[0] > 2 {
			return nil, errPacked
		}
		mv.result, b = float64(b[0])/2, b[1:]
		d.moved = append(d.moved, mv)
	}
	if bad || len(b) != 0 {
		return nil, errPacked
	}
	return d, nil
}
