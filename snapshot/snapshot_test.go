package snapshot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestMain lets TestKillNineDuringAWriteLeavesTheLastSnapshot run this binary as a
// writer of snapshots that it kills.
func TestMain(m *testing.M) {
	if dir := os.Getenv("SNAPSHOT_TEST_WRITER"); dir != "" {
		for n := int64(1); ; n++ {
			if _, err := Write(dir, sample(n, 4<<20)); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			fmt.Println("wrote", n)
		}
	}
	os.Exit(m.Run())
}

// sample is the n-th snapshot of a writer: two models at position n, size bytes each.
func sample(n int64, size int) Snapshot {
	return Snapshot{Models: []Model{
		{Name: "a", Format: 1, Position: n, GlobalHash: strconv.FormatInt(n, 16), Data: bytes.Repeat([]byte{byte(n)}, size)},
		{Name: "b", Format: 2, Position: n - 1, GlobalHash: "", Data: []byte(fmt.Sprint("model b at ", n))},
	}}
}

func TestAWrittenSnapshotReadsBackAndTheLastTwoAreKept(t *testing.T) {
	dir := t.TempDir()
	for n := int64(1); n <= 4; n++ {
		if _, err := Write(dir, sample(n, 100)); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := List(dir)
	if err != nil || len(paths) != Keep {
		t.Fatalf("%v, %v", paths, err)
	}
	for i, p := range paths {
		s, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		want := sample(int64(4-i), 100)
		for k := range want.Models {
			want.Models[k].Length = len(want.Models[k].Data)
		}
		if fmt.Sprint(s) != fmt.Sprint(want) {
			t.Errorf("%s reads back as\n%v\nnot\n%v", p, s, want)
		}
	}
}

// Every byte of a snapshot is checked: one flipped anywhere, or the file cut anywhere,
// and it is refused as damaged.
func TestADamagedSnapshotIsRefused(t *testing.T) {
	var b bytes.Buffer
	if err := Encode(&b, sample(7, 50)); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	if _, err := Decode("good", good); err != nil {
		t.Fatal(err)
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x01
		if _, err := Decode("bad", bad); !errors.Is(err, ErrDamaged) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
		if _, err := Decode("cut", good[:i]); !errors.Is(err, ErrDamaged) {
			t.Fatalf("cut at %d: %v", i, err)
		}
	}
}

// A writer killed with SIGKILL, most likely in the middle of a write, leaves its last
// whole snapshot readable and newest; the next write clears what it left.
func TestKillNineDuringAWriteLeavesTheLastSnapshot(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SNAPSHOT_TEST_WRITER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var last int64
	for last < 3 && lines.Scan() { // the writer's output ends if it dies
		if _, err := fmt.Sscanf(lines.Text(), "wrote %d", &last); err != nil {
			t.Fatalf("the writer said %q", lines.Text())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	paths, err := List(dir)
	if err != nil || len(paths) == 0 {
		t.Fatalf("%v, %v", paths, err)
	}
	s, err := Read(paths[0])
	if err != nil {
		t.Fatalf("the newest snapshot after the kill: %v", err)
	}
	if n := s.Models[0].Position; n < last || !bytes.Equal(s.Models[0].Data, sample(n, 4<<20).Models[0].Data) {
		t.Fatalf("the newest snapshot is at %d, the writer had written %d", n, last)
	}
	if _, err := Write(dir, sample(1000, 10)); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != Keep {
		t.Errorf("after a write, %d files in the directory: %v", len(entries), entries)
	}
	if _, err := Read(filepath.Join(dir, fmt.Sprintf("%s%020d%s", prefix, 1000, suffix))); err != nil {
		t.Error(err)
	}
}

// RemoveTemporary removes the temporary files of writes that did not finish, and nothing
// else: the snapshots stay, and a directory that does not exist is no error.
func TestRemoveTemporaryRemovesOnlyTheLeftovers(t *testing.T) {
	dir := t.TempDir()
	path, err := Write(dir, sample(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(dir, ".tmp-"+prefix+"123456")
	if err := os.WriteFile(left, []byte("half a snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveTemporary(dir)
	if err != nil || len(removed) != 1 || removed[0] != left {
		t.Fatalf("RemoveTemporary = %v, %v; want [%s]", removed, err, left)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || filepath.Join(dir, entries[0].Name()) != path {
		t.Fatalf("after RemoveTemporary the directory holds %v, want %s alone", entries, path)
	}
	if removed, err := RemoveTemporary(filepath.Join(dir, "missing")); removed != nil || err != nil {
		t.Fatalf("RemoveTemporary of a missing directory = %v, %v", removed, err)
	}
}
