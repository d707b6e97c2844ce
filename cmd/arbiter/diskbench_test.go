package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestBenchDisk runs `arbiter bench disk` briefly in a directory of its own: both runs are
// reported with their flushes counted, and nothing is left in the directory.
func TestBenchDisk(t *testing.T) {
	dir := t.TempDir()
	_, out := lastLine(t, "bench", "disk", "--dir", dir, "--duration", "300ms", "--burst", "8", "--burst-every", "20ms")
	for _, want := range []string{"in " + dir, "log alone:", "beside bursts:", "p99", "over 10ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench disk output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " 0 flushes") {
		t.Errorf("a run made no flush:\n%s", out)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("bench disk left %v in %s (%v)", entries, dir, err)
	}
	_, out = lastLine(t, "bench", "disk", "--dir", dir, "--duration", "300ms", "--burst", "8", "--burst-every", "20ms",
		"--rate", "500", "--clients", "10", "--work", "5us")
	for _, want := range []string{"500 appends/s from 10 clients (5µs of CPU before each)", "log alone:", "beside bursts:", "of CPU per append", "over 10ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench disk --rate output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " 0 appends") {
		t.Errorf("a run acknowledged no append:\n%s", out)
	}
	_, out = lastLine(t, "bench", "disk", "--dir", dir, "--duration", "100ms", "--burst", "0")
	if !strings.Contains(out, "log alone:") || strings.Contains(out, "beside bursts:") {
		t.Errorf("--burst 0 runs the log alone:\n%s", out)
	}
}

// TestBenchDiskRefusesBadFlags: a directory that is not there, or a run that cannot run,
// is an error that says what was wrong.
func TestBenchDiskRefusesBadFlags(t *testing.T) {
	missing := t.TempDir() + "/not-there"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", missing, "--duration", "100ms"}, "writable directory"},
		{[]string{"--dir", t.TempDir(), "--duration", "0"}, "positive duration"},
		{[]string{"--dir", t.TempDir(), "--pages", "0"}, "1 page or more"},
		{[]string{"--dir", t.TempDir(), "--rate", "100", "--clients", "0"}, "1 client or more"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"bench", "disk"}, tc.args...), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("bench disk %v: exit %d, stderr %q; want an error naming %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
