package facts

// Stored is a Tally written down, for a snapshot of the read side: everything the tally
// of a match still going on has counted, so that the tally goes on from it as it would
// have from the events.
type Stored struct {
	Match    Match
	Over     bool
	Fighters map[int]int
	Teams    []int
	Actor    int
	Status   map[int]int
	Pushed   map[int]bool
}

// Stored returns t written down. It shares t's maps: encode it before t changes.
func (t *Tally) Stored() Stored {
	return Stored{Match: t.m, Over: t.over, Fighters: t.fighters, Teams: t.teams, Actor: t.actor, Status: t.status, Pushed: t.pushed}
}

// Restore returns the tally s was written from.
func Restore(s Stored) *Tally {
	t := &Tally{m: s.Match, over: s.Over, fighters: s.Fighters, teams: s.Teams, actor: s.Actor, status: s.Status, pushed: s.Pushed}
	if t.fighters == nil {
		t.fighters = map[int]int{}
	}
	if t.status == nil {
		t.status = map[int]int{}
	}
	if t.pushed == nil {
		t.pushed = map[int]bool{}
	}
	return t
}
