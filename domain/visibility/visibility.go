// Package visibility is who may see an event: everyone, one seat, one team, or the server
// alone. The rules decide it, the store keeps it, and projections/redact.go applies it to a
// viewer; all three hold the same typed value, and only the store's adapters (and the bus,
// which carries stored events) turn it into its stored string form, through
// MarshalText and Parse. The package imports nothing of Arbiter, so that the pure domain
// and the store can both use it.
package visibility

import (
	"fmt"
	"strconv"
	"strings"
)

// Visibility says who may see an event. The zero value is Public. Values compare with ==.
type Visibility struct {
	kind kind
	n    int // the seat or team
}

type kind uint8

const (
	public kind = iota
	server
	seat
	team
)

// Public is the visibility of an event everyone may see, spectators included.
var Public = Visibility{}

// Server is the visibility of an event no client may see before the match is over (a
// seed, a deck order).
var Server = Visibility{kind: server}

// Seat is the visibility of an event private to one seat (a drawn card).
func Seat(n int) Visibility { return Visibility{kind: seat, n: n} }

// Team is the visibility of an event private to one team (a trap placed).
func Team(n int) Visibility { return Visibility{kind: team, n: n} }

// IsPublic reports whether everyone may see the event.
func (v Visibility) IsPublic() bool { return v.kind == public }

// Seat returns the seat an event is private to, ok false when it is not private to a seat.
func (v Visibility) Seat() (n int, ok bool) { return v.n, v.kind == seat }

// Team returns the team an event is private to, ok false when it is not private to a team.
func (v Visibility) Team() (n int, ok bool) { return v.n, v.kind == team }

// String is the stored form: "" for Public, "server", "seat:N" or "team:N". Event hashes
// cover these bytes, so they never change.
func (v Visibility) String() string {
	switch v.kind {
	case server:
		return "server"
	case seat:
		return "seat:" + strconv.Itoa(v.n)
	case team:
		return "team:" + strconv.Itoa(v.n)
	}
	return ""
}

// MarshalText writes the stored form, so that an event encoded as JSON (on the bus) keeps
// the string the store holds.
func (v Visibility) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads the stored form; see Parse.
func (v *Visibility) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Parse reads the stored form that String writes. Any other string is an error: the store
// only ever holds what String wrote, so anything else is damage, and a visibility this code
// cannot read must never be shown as public.
func Parse(s string) (Visibility, error) {
	switch s {
	case "":
		return Public, nil
	case "server":
		return Server, nil
	}
	k, num, _ := strings.Cut(s, ":")
	n, err := strconv.Atoi(num)
	if err == nil && strconv.Itoa(n) == num { // the one form String writes: no "+1", no "01"
		switch k {
		case "seat":
			return Seat(n), nil
		case "team":
			return Team(n), nil
		}
	}
	return Visibility{}, fmt.Errorf("visibility: %q is not \"\" (public), server, seat:N or team:N", s)
}
