package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"time"
)

// runBootBench is `arbiter bench boot --db FILE [--runs 3] [--bin ARBITER] [-- SERVE FLAGS]`: it starts
// `arbiter serve` on the file as a process of its own, on a free port, and measures the time
// from the start of the process until /readyz answers ready: what an operator waits for
// after a restart. The server is then interrupted, as by Ctrl-C, and the next run starts.
// The server may write to the store (a timer that was due while it was down), so the file
// should be a copy made for the benchmark.
func runBootBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench boot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "the SQLite file (or server URL) to boot on; required")
	runs := fs.Int("runs", 3, "boots, one after the other")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up on a boot not ready after this long")
	bin := fs.String("bin", "", "the arbiter binary to boot (default: this one), to compare two builds on one file")
	// serve's flags follow "--": parseFlags would refuse them as arguments.
	serveFlags := []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		args, serveFlags = args[:i], args[i+1:]
	}
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *db == "" || *runs < 1 || *timeout <= 0 {
		return errors.New("bench boot needs --db, --runs of 1 or more and a --timeout above 0")
	}
	exe := *bin
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("finding this binary to run serve: %w", err)
		}
	}
	var took []time.Duration
	for i := range *runs {
		d, cpu, err := bootOnce(ctx, exe, *db, *timeout, serveFlags, stderr)
		if err != nil {
			return fmt.Errorf("boot %d: %w", i+1, err)
		}
		took = append(took, d)
		fmt.Fprintf(stdout, "boot %d: ready in %s (the server's process used %s of CPU from its start to its exit)\n", i+1, d.Round(time.Millisecond), cpu.Round(time.Millisecond))
	}
	slices.Sort(took)
	fmt.Fprintf(stdout, "boot: median %s, min %s, max %s over %d runs on %s\n", took[len(took)/2].Round(time.Millisecond), took[0].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), len(took), describeStore(*db))
	return nil
}

// servingURL finds the address in serve's first line.
var servingURL = regexp.MustCompile(`on (http://[^/ ]+)/`)

// bootOnce starts serve and returns the time until /readyz answered 200, and the CPU time
// the server's process used in all (read once it has exited).
func bootOnce(ctx context.Context, exe, db string, timeout time.Duration, extra []string, stderr io.Writer) (time.Duration, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command(exe, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	exited := make(chan error, 1)
	stopped := false
	stop := func() (time.Duration, error) {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(os.Interrupt)
		}
		err := <-exited
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), err
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, out)
		exited <- cmd.Wait() // after the pipe is drained, as Wait requires
	}()
	var url string
	select {
	case line := <-lines:
		m := servingURL.FindStringSubmatch(line)
		if m == nil {
			_, err := stop()
			return 0, 0, fmt.Errorf("serve printed %q, not its URL (exit: %v)", line, err)
		}
		url = m[1]
	case <-ctx.Done():
		_, _ = stop()
		return 0, 0, fmt.Errorf("serve printed no URL: %w", ctx.Err())
	}
	// serve prints its URL once the read side is rebuilt; /readyz then says whether the
	// store takes writes and the bus publishes. Each poll is a request that either answers
	// or fails at once; the wait ends at ready, at the timeout, or when serve exits.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if ready(ctx, url) {
			took := time.Since(start)
			cpu, err := stop()
			if err != nil {
				return 0, 0, fmt.Errorf("serve exited with %w", err)
			}
			return took, cpu, nil
		}
		select {
		case <-ctx.Done():
			_, _ = stop()
			return 0, 0, fmt.Errorf("/readyz not ready: %w", ctx.Err())
		case err := <-exited:
			exited <- err
			_, _ = stop()
			return 0, 0, fmt.Errorf("serve exited before it was ready: %v", err)
		case <-tick.C:
		}
	}
}

// ready reports whether url's /readyz answers 200.
func ready(ctx context.Context, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/readyz", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
