package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSoakSmall runs `arbiter bench soak` on a small load with no archive window: matches
// are played one after another by the same players, the read side is checked to hold as
// finished every one played to its end (soak fails otherwise), and the figures and the
// heap profiles (once the window is full, and at the end) come out.
func TestSoakSmall(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "heap.pprof")
	_, out := lastLine(t, "bench", "soak", "--db", filepath.Join(dir, "soak.db"), "--live", "4", "--moves", "6", "--rate", "400",
		"--duration", "2s", "--every", "500ms", "--archive-after", "0", "--memprofile", profile)
	for _, want := range []string{"heap:", "steady:", "match:", "archived"} {
		if !strings.Contains(out, want) {
			t.Errorf("soak's output lacks %q:\n%s", want, out)
		}
	}
	for _, p := range []string{profile, profile + ".steady"} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("no heap profile %s: %v", filepath.Base(p), err)
		}
	}
}
