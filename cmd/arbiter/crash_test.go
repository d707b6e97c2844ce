package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this binary as a real `arbiter serve` process: with
// ARBITER_TEST_MAIN set, the test binary is arbiter itself.
func TestMain(m *testing.M) {
	if args := os.Getenv("ARBITER_TEST_MAIN"); args != "" {
		reexecWithServerGODEBUG(strings.Fields(args)[0]) // as main
		if marker := os.Getenv(holdSnapshotsEnv); marker != "" {
			holdSecondSnapshot(marker)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM) // as main
		defer stop()
		os.Exit(run(ctx, strings.Fields(args), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// startProcess runs `arbiter serve` in a child process and returns its URL.
func startProcess(t *testing.T, db string, extra ...string) (*server, *exec.Cmd) {
	t.Helper()
	return startProcessEnv(t, nil, db, extra...)
}

// startProcessEnv is startProcess with env added to the process's environment.
func startProcessEnv(t *testing.T, env []string, db string, extra ...string) (*server, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), env...), "ARBITER_TEST_MAIN="+strings.Join(append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...), " "))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	m := servingLine.FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("the server process printed %q, %v", line, err)
	}
	return &server{url: m[1]}, cmd
}

// TestKillNineLosesNothingAcknowledged plays moves in many matches against a server
// process, kills it with SIGKILL while requests are in flight, restarts it on the same
// file and finds every acknowledged move.
func TestKillNineLosesNothingAcknowledged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "arbiter.db")
	srv, proc := startProcess(t, db)
	_, white := srv.register(t, "White")
	_, black := srv.register(t, "Black")

	// Each match shuffles its knights; a fresh match every 8 moves stays clear of repetition draws.
	shuffle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"}
	const players = 6
	type acked struct {
		match string
		moves int
	}
	results := make(chan []acked, players)
	stop := make(chan struct{})
	for range players {
		go func() {
			var all []acked
			defer func() { results <- all }()
			for {
				id := srv.newMatchQuiet(white, black)
				if id == "" {
					return
				}
				all = append(all, acked{match: id})
				cur := &all[len(all)-1]
				for i, mv := range shuffle {
					select {
					case <-stop:
						return
					default:
					}
					tok := white
					if i%2 == 1 {
						tok = black
					}
					if !srv.playQuiet(tok, cur.match, mv) {
						return // the server died: this move was never acknowledged
					}
					cur.moves++
				}
			}
		}()
	}
	time.Sleep(1500 * time.Millisecond) // let acknowledged moves pile up; not a timing assertion
	if err := proc.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	close(stop)
	var last []acked
	for range players {
		last = append(last, <-results...)
	}
	_ = proc.Wait()

	srv, _ = startProcess(t, db)
	for _, a := range last {
		// Every acknowledged creation survived, and every acknowledged move of it.
		var d struct{ Match *struct{ Moves []string } }
		srv.must(t, "", `query($m:ID!){match(id:$m){moves}}`, map[string]any{"m": a.match}, &d)
		if d.Match == nil {
			t.Fatalf("match %s was acknowledged as created and did not survive the kill", a.match)
		}
		if len(d.Match.Moves) < a.moves {
			t.Fatalf("match %s: %d moves were acknowledged, %d survived the kill", a.match, a.moves, len(d.Match.Moves))
		}
	}
	if len(last) == 0 {
		t.Fatalf("no match was acknowledged before the kill")
	}
	t.Logf("%d matches and every acknowledged move survived the kill", len(last))
}

// newMatchQuiet and playQuiet are for goroutines: they report failure instead of failing.
func (s *server) newMatchQuiet(white, black string) string {
	r := s.postQuiet(white, `mutation{createMatch(input:{game:CHESS}){match{id}}}`, nil)
	id := extract(r, `"id":"`)
	if id == "" {
		return ""
	}
	for seat, tok := range []string{white, black} {
		if extract(s.postQuiet(tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}), `"seat":`) == "" {
			return ""
		}
	}
	return id
}

func (s *server) playQuiet(token, matchID, move string) bool {
	return extract(s.postQuiet(token, playQ, map[string]any{"m": matchID, "mv": move}), `"version":`) != ""
}

func extract(body, key string) string {
	i := strings.Index(body, key)
	if i < 0 || strings.Contains(body, `"errors"`) {
		return ""
	}
	rest := body[i+len(key):]
	end := strings.IndexAny(rest, `",}`)
	if end <= 0 {
		return ""
	}
	return rest[:end]
}

func (s *server) postQuiet(token, query string, vars map[string]any) string {
	b, err := jsonBody(query, vars)
	if err != nil {
		return ""
	}
	return httpPost(s.url+"/graphql", token, b)
}
