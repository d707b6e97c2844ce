package esdb

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	kdb "github.com/EventStore/EventStore-Client-Go/v4/esdb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/serverkey"
)

var n = names{"arbiter"}

// sealed returns the events of a store that holds, in this order, two events of
// match-1, one of player-7 and a third of match-1: each envelope field set to something
// other than its zero.
func sealed(t *testing.T) []eventstore.Event {
	t.Helper()
	at := time.Date(2026, 12, 1, 5, 0, 0, 123456789, time.UTC)
	p := func(id string, vis visibility.Visibility) eventstore.Proposed {
		return eventstore.Proposed{ID: id, Type: "MovePlayed", SchemaVersion: 2, Payload: []byte(` {"from":"e2", "to":"e4"}`),
			CommandID: "cmd-" + id, Actor: "seat:1", Visibility: vis, Time: at}
	}
	st := newState()
	var out []eventstore.Event
	for _, a := range []struct {
		stream string
		evs    []eventstore.Proposed
	}{
		{"match-1", []eventstore.Proposed{p("a", visibility.Public), p("b", visibility.Seat(1))}},
		{"player-7", []eventstore.Proposed{p("c", visibility.Server)}},
		{"match-1", []eventstore.Proposed{p("d", visibility.Team(0))}},
	} {
		tl := st.tails[a.stream]
		evs := eventstore.Seal(a.stream, tl.Version, tl.Hash, st.head+1, st.headHash, at, a.evs)
		for _, e := range evs {
			st.fold(e, nil)
		}
		out = append(out, evs...)
	}
	return out
}

// recorded is what ESDB hands back for ev written to stream at revision.
func recorded(ev kdb.EventData, stream string, revision uint64) *kdb.RecordedEvent {
	return &kdb.RecordedEvent{EventID: ev.EventID, EventType: ev.EventType, ContentType: "application/json",
		StreamID: stream, EventNumber: revision, Data: ev.Data, UserMetadata: ev.Metadata}
}

// TestEnvelopeRoundTrip: every field of a stored event, and the signed head of the log
// append it ends, comes back from its data copy and from its log copy as it was sealed.
func TestEnvelopeRoundTrip(t *testing.T) {
	key, err := serverkey.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range sealed(t) {
		head := eventstore.SignHead(key, e.Position, e.GlobalHash, time.Unix(1, 987654321))
		data := encode(e, false, nil)
		if data.ContentType != kdb.ContentTypeJson || data.EventType != e.Type || !bytes.Equal(data.Data, e.Payload) {
			t.Fatalf("the ESDB event of %s: type %q, content %v, data %q", e.ID, data.EventType, data.ContentType, data.Data)
		}
		got, h, err := decode(n, recorded(data, "arbiter."+e.Stream, uint64(e.Version-1)))
		if err != nil || h != nil || !reflect.DeepEqual(got, e) {
			t.Fatalf("data copy of %s decodes to\n%+v, %v, %v\nwant %+v", e.ID, got, h, err, e)
		}
		got, h, err = decode(n, recorded(encode(e, true, &head), "arbiter:log", uint64(e.Position-1)))
		if err != nil || !reflect.DeepEqual(got, e) {
			t.Fatalf("log copy of %s decodes to %+v, %v", e.ID, got, err)
		}
		if h == nil || h.Position != e.Position || h.Hash != e.GlobalHash || !h.Time.Equal(head.Time) || !serverkey.Verify(key.Public(), h.Message(), h.Signature) {
			t.Fatalf("the head of the log copy of %s is %+v, want %+v signed", e.ID, h, head)
		}
	}
}

// TestDecodeRefusesMisplacedEvents: an event is read back only where the adapter wrote
// it; anything else is reported as corrupt, never taken for another event.
func TestDecodeRefusesMisplacedEvents(t *testing.T) {
	e := sealed(t)[3] // match-1 version 3, position 4
	data := encode(e, false, nil)
	logged := encode(e, true, &eventstore.Head{})
	other := encode(sealed(t)[0], false, nil)
	for name, rec := range map[string]*kdb.RecordedEvent{
		"in another stream":          recorded(data, "arbiter.match-2", 2),
		"in another namespace":       recorded(data, "other.match-1", 2),
		"at another revision":        recorded(data, "arbiter.match-1", 3),
		"with another event's ID":    {EventID: other.EventID, EventType: data.EventType, StreamID: "arbiter.match-1", EventNumber: 2, Data: data.Data, UserMetadata: data.Metadata},
		"a log copy in the stream":   recorded(logged, "arbiter.match-1", 2),
		"a data copy in the log":     recorded(data, "arbiter:log", 3),
		"in the log at another slot": recorded(logged, "arbiter:log", 2),
		"without an envelope":        {EventID: data.EventID, EventType: data.EventType, StreamID: "arbiter.match-1", EventNumber: 2, Data: data.Data},
		"of another format":          recorded(kdb.EventData{EventID: data.EventID, EventType: data.EventType, Data: data.Data, Metadata: bytes.Replace(data.Metadata, []byte(`"arbiter":1`), []byte(`"arbiter":2`), 1)}, "arbiter.match-1", 2),
		"with an unknown visibility": recorded(kdb.EventData{EventID: data.EventID, EventType: data.EventType, Data: data.Data, Metadata: bytes.Replace(data.Metadata, []byte(`"visibility":"team:0"`), []byte(`"visibility":"friends"`), 1)}, "arbiter.match-1", 2),
	} {
		if _, _, err := decode(n, rec); !errors.Is(err, errCorrupt) {
			t.Errorf("an event %s: decode = %v, want errCorrupt", name, err)
		}
	}
	if _, _, err := decode(n, recorded(data, "arbiter.match-1", 2)); err != nil {
		t.Fatalf("the event where it belongs: %v", err)
	}
}

// TestEventIDs: the ESDB IDs are derived from Arbiter's, the same on every attempt, and
// the data copy and the log copy of one event, or two events, never share one.
func TestEventIDs(t *testing.T) {
	// Pinned: a change of the derivation would make every retry after an upgrade a new
	// write in ESDB's eyes.
	if got := dataID("match-1/cmd-9/0").String(); got != pinnedDataID {
		t.Fatalf("dataID = %s, want %s", got, pinnedDataID)
	}
	seen := map[string]string{}
	for _, id := range []string{"a", "b", "match-1/cmd-9/0", "match-1/cmd-9/1"} {
		for kind, u := range map[string]string{"data": dataID(id).String(), "log": logID(id).String()} {
			if prev, ok := seen[u]; ok {
				t.Fatalf("%s copy of %q has the UUID of %s", kind, id, prev)
			}
			seen[u] = kind + " " + id
		}
	}
	if v := dataID("a").Version(); v != 5 {
		t.Fatalf("UUID version %d, want 5 (name-based)", v)
	}
}

// TestRevisions: an Arbiter version v is the ESDB revision v-1, and a position p is the
// log's revision p-1.
func TestRevisions(t *testing.T) {
	if got := expectedRevision(0); got != (kdb.NoStream{}) {
		t.Fatalf("expected revision of an empty stream = %#v, want NoStream", got)
	}
	if got := expectedRevision(1); got != kdb.Revision(0) {
		t.Fatalf("expected revision after version 1 = %#v, want revision 0", got)
	}
	if got := expectedRevision(42); got != kdb.Revision(41) {
		t.Fatalf("expected revision after version 42 = %#v, want revision 41", got)
	}
	if got := revisionFrom(5); got != kdb.Revision(5) {
		t.Fatalf("the read after version 5 starts at %#v, want revision 5 (version 6)", got)
	}
}

// TestConflictFromTheClient: ESDB's refusal, in the words of the client v4.2.0, becomes
// the port's typed conflict with the stream's actual version.
func TestConflictFromTheClient(t *testing.T) {
	for _, c := range []struct {
		msg    string
		actual int64
	}{
		{"wrong expected version: expecting '3' but got '5'", 6},
		{"wrong expected version: expecting '0' but got 'no_stream'", 0},
		{"wrong expected version: expecting 'no_stream' but got '0'", 1},
		{"something else", -1},
	} {
		vc := conflict(errors.New(c.msg), "match-1", 4)
		if !errors.Is(vc, eventstore.ErrWrongVersion) || vc.Stream != "match-1" || vc.Expected != 4 || vc.Actual != c.actual {
			t.Errorf("%q: %+v, want actual %d", c.msg, vc, c.actual)
		}
	}
	if wrongVersion(errors.New("wrong expected version")) || notFound(errors.New("not found")) {
		t.Fatal("an error that is not the client's was taken for its code")
	}
	if !transient(status.Error(codes.Unavailable, "leader changed")) || transient(status.Error(codes.PermissionDenied, "no")) || transient(errors.New("x")) {
		t.Fatal("transient misjudges gRPC statuses")
	}
}

// TestNamesAndFilter: data streams are under the prefix the $all filter selects, the log
// is not, and one namespace's prefix never selects another's streams.
func TestNamesAndFilter(t *testing.T) {
	if got := n.data("match-9"); got != "arbiter.match-9" {
		t.Fatalf("data stream %q", got)
	}
	f := n.filter()
	if f.Type != kdb.StreamFilterType || !reflect.DeepEqual(f.Prefixes, []string{"arbiter."}) {
		t.Fatalf("filter %+v", f)
	}
	if strings.HasPrefix(n.log(), n.prefix()) {
		t.Fatalf("the log %q is under the data prefix %q", n.log(), n.prefix())
	}
	if s, ok := n.arbiterStream("arbiter.match-9"); !ok || s != "match-9" {
		t.Fatalf("arbiterStream = %q, %v", s, ok)
	}
	for _, other := range []string{"arbiter2.match-9", "arbiter:log", "arbiter.", "$all"} {
		if _, ok := n.arbiterStream(other); ok {
			t.Errorf("%q taken for a data stream of namespace arbiter", other)
		}
	}
	for ns, ok := range map[string]bool{"arbiter": true, "t_0f3a": true, "a.b": false, "a:b": false, "": false, "ünï": false} {
		if validNamespace.MatchString(ns) != ok {
			t.Errorf("namespace %q valid = %v, want %v", ns, !ok, ok)
		}
	}
}

func TestSplitNamespace(t *testing.T) {
	for _, c := range []struct{ in, rest, ns string }{
		{"esdb://localhost:2113?tls=false", "esdb://localhost:2113?tls=false", ""},
		{"esdb://localhost:2113?tls=false&namespace=prod", "esdb://localhost:2113?tls=false", "prod"},
		{"esdb://a:2113,b:2113,c:2113?namespace=t_1&tls=false&tlsVerifyCert=false", "esdb://a:2113,b:2113,c:2113?tls=false&tlsVerifyCert=false", "t_1"},
		{"esdb+discover://node?Namespace=x", "esdb+discover://node", "x"},
		{"esdb://node", "esdb://node", ""},
	} {
		rest, ns, err := splitNamespace(c.in)
		if err != nil || rest != c.rest || ns != c.ns {
			t.Errorf("splitNamespace(%q) = %q, %q, %v; want %q, %q", c.in, rest, ns, err, c.rest, c.ns)
		}
	}
}

// pinnedDataID is dataID("match-1/cmd-9/0") as the first release computed it.
const pinnedDataID = "6dae5ffa-8f14-5b18-8250-1d4161a4f877" // uuid5(idSpace, "data\x00match-1/cmd-9/0"), checked with Python's uuid module
