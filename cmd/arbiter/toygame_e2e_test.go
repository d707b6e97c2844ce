package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// toyGame is a whole game kept outside the hosted games, in the folder that the proof
// below adds to a copy of the repository as domain/games/traptictactoe.
const toyGame = "domain/game/gametest/internal/traptictactoe"

// Adding a game touches only its own folder, its schema file and one wiring line: on a
// copy of the repository, the toy game's folder (rules, view, schema file, tests) goes to
// domain/games/traptictactoe and one line of cmd/arbiter/app.go (with its import) hosts
// it. `go generate ./...` then changes nothing but generated code, the server builds, and
// a match of it is played through the API: each player sees its own trap and not the
// other's until it springs, a spectator sees none, and the stream verifies.
func TestAGameIsItsFolderItsSchemaAndOneLine(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the repository, regenerates the API and builds a server")
	}
	if raceDetector {
		t.Skip("the server it builds and runs is another binary, which the race detector does not watch")
	}
	// Its time is the go command's, compiling the whole module in the copy: another
	// process, so it runs in parallel, over the waits of the waitsOnTheClock tests.
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	files, err := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		copyFile(t, filepath.Join(root, f), filepath.Join(repo, f))
	}
	toy := filepath.Join(repo, "domain/games/traptictactoe")
	entries, err := os.ReadDir(filepath.Join(root, toyGame))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyFile(t, filepath.Join(root, toyGame, e.Name()), filepath.Join(toy, e.Name()))
	}
	app := filepath.Join(repo, "cmd/arbiter/app.go")
	src, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	wired := strings.Replace(string(src), "unfair.Rules{})", "unfair.Rules{}, traptictactoe.Rules{})", 1)
	wired = strings.Replace(wired, "\t\"github.com/arbiter-games/arbiter/domain/games/unfair\"\n",
		"\t\"github.com/arbiter-games/arbiter/domain/games/traptictactoe\"\n\t\"github.com/arbiter-games/arbiter/domain/games/unfair\"\n", 1)
	if changed := lineDiff(string(src), wired); changed != 2 {
		t.Fatalf("the wiring changed %d lines of app.go, want the registry's line and its import", changed)
	}
	if err := os.WriteFile(app, []byte(wired), 0o644); err != nil {
		t.Fatal(err)
	}

	before := snapshot(t, repo)
	goCmd(t, ctx, repo, "generate", "./...")
	after := snapshot(t, repo)
	generated := func(path string) bool {
		return strings.HasPrefix(path, "graph/generated/") || path == "graph/model/models_gen.go"
	}
	for path, sum := range after {
		if before[path] != sum && !generated(path) {
			t.Errorf("go generate changed %s, which is not generated code", path)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok && !generated(path) {
			t.Errorf("go generate removed %s", path)
		}
	}
	bin := filepath.Join(repo, "arbiter-toy")
	goCmd(t, ctx, repo, "build", "-o", bin, "./cmd/arbiter")

	db := filepath.Join(repo, "toy.db")
	srv := serveBinary(t, ctx, bin, db)
	ann, bob := must2(srv.register(t, "ann")), must2(srv.register(t, "bob"))
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:TRAP_TICTACTOE}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	const stateQuery = `query($m:ID!){match(id:$m){status result{reason} state{... on TrapTicTacToeState{rows turn traps{seat cell} burned}}}}`
	type trap struct {
		Seat int
		Cell string
	}
	type view struct {
		Match struct {
			Status string
			Result *struct{ Reason string }
			State  struct {
				Rows   []string
				Turn   int
				Traps  []trap
				Burned []string
			}
		}
	}
	read := func(token string) view {
		var v view
		srv.must(t, token, stateQuery, map[string]any{"m": id}, &v)
		return v
	}
	viewers := map[string]string{"ann": ann, "bob": bob, "spectator": ""}
	seatOf := map[string]int{"ann": 0, "bob": 1, "spectator": -1}
	moves := 0
	for ; ; moves++ {
		views := map[string]view{}
		for name, tok := range viewers {
			views[name] = read(tok)
		}
		if views["ann"].Match.Status == "FINISHED" {
			break
		}
		if moves > 12 {
			t.Fatalf("the match is still %s after %d moves", views["ann"].Match.Status, moves)
		}
		for name, v := range views {
			for _, tr := range v.Match.State.Traps {
				if tr.Seat != seatOf[name] && !slices.Contains(v.Match.State.Burned, tr.Cell) {
					t.Fatalf("%s sees seat %d's trap %s before it sprang: %+v", name, tr.Seat, tr.Cell, v.Match.State)
				}
			}
			if own := slices.IndexFunc(v.Match.State.Traps, func(tr trap) bool { return tr.Seat == seatOf[name] }); seatOf[name] >= 0 && own < 0 {
				t.Fatalf("%s does not see its own trap: %+v", name, v.Match.State)
			}
		}
		// The seat to move plays the first free cell, from a1 on.
		turn := views["ann"].Match.State
		cell := ""
		for i := 0; i < 9 && cell == ""; i++ {
			if turn.Rows[2-i/3][i%3] == '.' {
				cell = string(rune('a'+i%3)) + string(rune('1'+i/3))
			}
		}
		if r := srv.play(t, []string{ann, bob}[turn.Turn], id, cell); len(r.Errors) > 0 {
			t.Fatalf("seat %d playing %s: %+v", turn.Turn, cell, r.Errors)
		}
	}
	end := read("")
	if r := end.Match.Result; r == nil || (r.Reason != "three in a row" && r.Reason != "no free cell") || len(end.Match.State.Traps) != 2 {
		t.Fatalf("after %d moves, the match as anyone sees it: %+v", moves, end.Match)
	}
	srv.stopBinary(t)
	if out, err := exec.CommandContext(ctx, bin, "verify", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
}

// binaryServer is `arbiter serve` run from a binary built by the test.
type binaryServer struct {
	*server
	cmd *exec.Cmd
}

// serveBinary starts bin serving db on a free port.
func serveBinary(t *testing.T, ctx context.Context, bin, db string) *binaryServer {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &binaryServer{server: &server{stderr: stderr}, cmd: cmd}
	t.Cleanup(func() { s.stopBinary(t) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server printed no URL: %v\nstderr: %s", err, stderr)
	}
	go io.Copy(io.Discard, out)
	m := servingLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("unexpected first line %q", line)
	}
	s.url = m[1]
	return s
}

// stopBinary interrupts the server and waits for it to exit, as an operator's Ctrl-C.
func (s *binaryServer) stopBinary(t *testing.T) {
	if s.cmd == nil {
		return
	}
	cmd := s.cmd
	s.cmd = nil
	_ = cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve exited with %v: %s", err, s.stderr)
	}
}

// goCmd runs the go command in dir.
func goCmd(t *testing.T, ctx context.Context, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// copyFile copies a file, making its directory.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot is the hash of every file under dir, by slash-separated path.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lineDiff counts the lines of b that a does not have.
func lineDiff(a, b string) int {
	old := strings.Split(a, "\n")
	n := 0
	for _, l := range strings.Split(b, "\n") {
		if i := slices.Index(old, l); i >= 0 {
			old = slices.Delete(old, i, i+1)
		} else {
			n++
		}
	}
	return n
}

// must2 is the second of two results: a player's token.
func must2(_, token string) string { return token }
