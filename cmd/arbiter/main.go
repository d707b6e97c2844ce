// Command arbiter is Arbiter's one binary: the server and the tools around it (perft,
// replay, verify, rebuild, bench). Each subcommand lives in its own file and registers
// itself in commands; wiring of adapters happens here, under cmd/, and nowhere else.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"syscall"
)

// command is one subcommand: run gets the arguments after its name.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	if len(os.Args) > 1 {
		reexecWithServerGODEBUG(os.Args[1])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arbiter: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if err := cmd.run(ctx, args[1:], stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "arbiter %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: arbiter <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'arbiter <command> -h' for the flags of one command.")
}

func init() {
	register("version", "print the version of this binary (also: arbiter --version)", func(_ context.Context, _ []string, stdout, _ io.Writer) error {
		fmt.Fprintln(stdout, version())
		return nil
	})
}

// version names this build: the module's version, the VCS revision it was built from
// (with "+dirty" for uncommitted changes) when the build recorded one, and Go's version.
func version() string {
	v, rev := "(unknown)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" && dirty {
			rev += "+dirty"
		}
	}
	out := "arbiter " + v
	if rev != "" {
		out += " " + rev
	}
	return out + " " + runtime.Version()
}
