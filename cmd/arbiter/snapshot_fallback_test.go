package main

import (
	"bytes"
	"encoding/gob"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/projections"
	snapfile "github.com/arbiter-games/arbiter/snapshot"
)

// Two snapshots, the newest refused, whether before the models read it (damaged) or as
// they read it (a match of a game this build does not play): `rebuild --verify-snapshot`
// and a boot start from the older one, say so in one line, and answer as a fold from zero.
func TestTwoSnapshotsTheNewestRefused(t *testing.T) {
	db, ids, tokens, live := snapshotStore(t)
	srv := startServer(t, db)
	srv.stop(t) // the older snapshot
	srv = startServer(t, db)
	if r := srv.play(t, tokens[2], live, "a6"); len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	srv.stop(t) // the newest
	dir := db + ".snapshots"
	paths := must(snapfile.List(dir))
	if len(paths) != 2 {
		t.Fatalf("snapshots %v, want two", paths)
	}
	newest, older := paths[0], paths[1]
	good := [2][]byte{must(os.ReadFile(newest)), must(os.ReadFile(older))}
	zero := startServer(t, db, "--snapshots", "off")
	want := answers(t, zero, ids, live)
	zero.stop(t)

	for _, c := range []struct {
		name, reason string
		forge        func(t *testing.T, b []byte) []byte
	}{
		{"damaged", "SHA-256 does not match", func(t *testing.T, b []byte) []byte {
			b = bytes.Clone(b)
			b[len(b)/2] ^= 0x20
			return b
		}},
		{"of a game not played", "does not play", forgeUnplayable},
	} {
		t.Run(c.name, func(t *testing.T) {
			put := func() {
				for _, p := range must(snapfile.List(dir)) {
					os.Remove(p)
				}
				write(t, newest, c.forge(t, good[0]))
				write(t, older, good[1])
			}
			put()
			out, errOut := lastLineOK(t, "rebuild", "--db", db, "--verify-snapshot")
			if n := strings.Count(out, "refused"); n != 1 || !strings.Contains(out, "snapshot "+newest+" refused: ") ||
				!strings.Contains(out, c.reason) || !strings.Contains(out, ": starting from the older "+older+"\n") {
				t.Fatalf("rebuild --verify-snapshot: want one line refusing the newest, saying %q, starting from the older:\n%s\n%s", c.reason, out, errOut)
			}
			if !strings.Contains(out, "read the snapshot "+older+" in ") || !strings.Contains(out, "  digests equal\n") {
				t.Fatalf("rebuild --verify-snapshot did not verify the older snapshot:\n%s", out)
			}

			put()
			srv := startServer(t, db)
			log := srv.stderr.String()
			lines := regexp.MustCompile(`(?m)^.*snapshot refused.*$`).FindAllString(log, -1)
			if len(lines) != 1 || !strings.Contains(lines[0], "starts from an older one") || !strings.Contains(lines[0], newest) ||
				!strings.Contains(lines[0], "older="+older) || !strings.Contains(lines[0], c.reason) {
				t.Fatalf("want one line refusing the newest and starting from the older:\n%s", log)
			}
			if !strings.Contains(log, "msg=\"read the read side's snapshot\" snapshot="+older) {
				t.Fatalf("the boot did not read the older snapshot:\n%s", log)
			}
			got := answers(t, srv, ids, live)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s\nfrom the older snapshot: %s\nfrom zero:               %s", snapshotQueries[i], got[i], want[i])
				}
			}
			srv.stop(t)
		})
	}
}

// forgeUnplayable is the snapshot file b with its matches' last view of a game no build
// plays and its checksum made anew: every check made before the models read it passes.
func forgeUnplayable(t *testing.T, b []byte) []byte {
	t.Helper()
	s := must(snapfile.Decode("forged", b))
	for i, part := range s.Models {
		if part.Name != "matches" {
			continue
		}
		var sm projections.StoredMatches
		if err := gob.NewDecoder(bytes.NewReader(part.Data)).Decode(&sm); err != nil {
			t.Fatal(err)
		}
		sm.Views[len(sm.Views)-1].State.Game = "no-such-game"
		var data bytes.Buffer
		if err := gob.NewEncoder(&data).Encode(&sm); err != nil {
			t.Fatal(err)
		}
		s.Models[i].Data = data.Bytes()
	}
	var out bytes.Buffer
	if err := snapfile.Encode(&out, s); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// lastLineOK runs arbiter with args, which must succeed, and returns its output.
func lastLineOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var o, e strings.Builder
	if code := run(t.Context(), args, &o, &e); code != 0 {
		t.Fatalf("arbiter %v: exit %d\n%s\n%s", args, code, o.String(), e.String())
	}
	return o.String(), e.String()
}

// `arbiter rebuild` from a snapshot says where the snapshot is, how long the models took
// to be ready and what CPU they used, and the tail it folded after the snapshot: its
// events and their rate, or that there was none; never a rate of nothing; and how the
// live matches' game states came back.
func TestRebuildSaysWhatTheSnapshotAndTheTailTook(t *testing.T) {
	db, _, tokens, live := snapshotStore(t)
	srv := startServer(t, db)
	srv.stop(t) // a snapshot at the head
	dur := `[0-9][0-9.]*(ns|µs|ms|s|m[0-9.]+s)`
	read := regexp.MustCompile(`(?m)^read the snapshot \S+ in ` + dur + `: the models are at position ([0-9]+) of ([0-9]+)$`)
	// Every live match's game state read back from its stored form: every game has one.
	states := regexp.MustCompile(`(?m)^live matches: [1-9][0-9]* game states read back, 0 folded again \(0 without a stored form, 0 that did not read back\)$`)
	ready := regexp.MustCompile(`(?m)^6 projections ready in ` + dur + ` \(the snapshot read in ` + dur + `, the tail folded in ` + dur + `\), ` + dur + ` of CPU$`)
	shape := func(out string) (at, head int64) {
		t.Helper()
		m := read.FindStringSubmatch(out)
		if m == nil || !ready.MatchString(out) || !states.MatchString(out) || strings.Contains(out, "unknown") || strings.Contains(out, " 0 events/s") {
			t.Fatalf("rebuild from a snapshot:\n%s", out)
		}
		at, _ = strconv.ParseInt(m[2], 10, 64)
		head, _ = strconv.ParseInt(m[3], 10, 64)
		return at, head
	}
	out, _ := lastLineOK(t, "rebuild", "--db", db)
	if at, head := shape(out); at != head || !strings.Contains(out, "\nno events after the snapshot: it is at the store's head\n") {
		t.Fatalf("rebuild from a snapshot at the head (%d of %d):\n%s", at, head, out)
	}

	srv = startServer(t, db, "--snapshots", "off") // events after the snapshot
	for i, mv := range []string{"a6", "Ba4"} {
		if r := srv.play(t, tokens[2-i], live, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	srv.stop(t)
	out, _ = lastLineOK(t, "rebuild", "--db", db)
	at, head := shape(out)
	tail := regexp.MustCompile(`(?m)^folded the tail: ([0-9]+) events after position ([0-9]+) in ` + dur + `: [1-9][0-9]* events/s, ` + dur + ` of CPU per event$`).FindStringSubmatch(out)
	if at >= head || tail == nil || tail[1] != strconv.FormatInt(head-at, 10) || tail[2] != strconv.FormatInt(at, 10) {
		t.Fatalf("rebuild from a snapshot at %d of %d, want its tail of %d events:\n%s", at, head, head-at, out)
	}

	out, _ = lastLineOK(t, "rebuild", "--db", db, "--from-zero")
	if !regexp.MustCompile(`(?m)^rebuilt 6 projections from `+strconv.FormatInt(head, 10)+` events in `+dur+`: [1-9][0-9]* events/s, `+dur+` of CPU per event$`).MatchString(out) || strings.Contains(out, "snapshot") {
		t.Fatalf("rebuild --from-zero:\n%s", out)
	}
}
