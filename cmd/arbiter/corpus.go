package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/corpus"
)

func init() {
	register("corpus", "play the archived matches of testdata/corpus again and write them with their manifest (docs/corpus.md)", runCorpus)
}

// runCorpus is `arbiter corpus [--out DIR]`: every scenario of package corpus played
// through the engine on a store in memory, from its seed, and written as an export with
// the manifest the corpus's test checks. The same build writes the same bytes; run it
// only to add a scenario, never to make a failing corpus pass (docs/corpus.md).
func runCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "testdata/corpus", "the directory to write the exports and "+corpus.ManifestFile+" to")
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if err := corpus.Generate(ctx, games(), *out, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "written to %s\n", *out)
	return nil
}
