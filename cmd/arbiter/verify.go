package main

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
)

func init() {
	register("verify", "check every hash chain, the store's signed heads, and re-derive every match; non-zero exit on any mismatch", runVerify)
}

// runVerify is `arbiter verify [--db FILE] [--key FILE] [--head-log FILE] [--match ID]`:
// the store as a whole (its global chain and signed heads), then one line per match on
// stdout, then a summary; progress on stderr. Any problem makes it fail with the first one.
// `arbiter verify --file EXPORT` checks one match's export (docs/exports.md) offline.
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("match", "", "verify only this match (its chain and its rules, not the store as a whole); with --receipt, a team's receipt names its hidden stream, hidden-<team>-<match>")
	file := fs.String("file", "", "verify a match's export, GET /matches/{id}.ndjson, offline: no store is read")
	fair := fs.Bool("fairness", false, "also draw every deck, deal, shuffle and roll of each finished match again from its revealed seed and its seats' entropy, and fail on any difference (docs/fairness.md); with --match or --file the match must be over")
	receiptFile := fs.String("receipt", "", "with --match: also check that the store still holds exactly the events this receipt (a signed tree head taken from the API's receipt query) signed; see docs/receipts.md")
	db := dbFlag(fs)
	keys := addKeyFlags(fs)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *file != "" {
		return verifyFile(*file, *id, *receiptFile, *keys.key, *fair, stdout)
	}
	if err := checkDB(dbPath(*db)); err != nil {
		return err
	}
	keyFile, logFile, explicitLog := keys.paths(dbPath(*db))
	var (
		pub    ed25519.PublicKey
		logged []eventstore.Head
		hasLog bool
		err    error
	)
	if *receiptFile != "" && *id == "" {
		return errors.New("--receipt needs --match: a receipt is one match's")
	}
	if *id == "" || *receiptFile != "" {
		if pub, err = publicKey(keyFile); err != nil {
			return err
		}
	}
	if *id == "" {
		if logged, hasLog, err = loggedHeads(logFile, explicitLog); err != nil {
			return err
		}
	}
	store, err := openExisting(ctx, dbPath(*db), keyFile)
	if err != nil {
		return err
	}
	defer store.Close()
	start := time.Now()
	var storeErr error
	if *id == "" {
		whole, err := replay.VerifyStore(ctx, store, pub, logged)
		if err != nil {
			return err
		}
		printStore(stdout, whole, logFile, hasLog)
		storeErr = whole.Err()
	}
	if *receiptFile != "" {
		if storeErr, err = checkReceipt(ctx, stdout, store, pub, *receiptFile, *id); err != nil {
			return err
		}
	}
	var reports []replay.Report
	if *id != "" {
		verify := replay.Verify
		if *fair {
			verify = replay.VerifyFairness
		}
		matchID := *id
		if m, _, hidden := matchstream.HiddenOf(*id); hidden {
			matchID = m // a team's receipt names its hidden stream; the match is verified whole
		}
		r, err := verify(ctx, store, hostedGames(ctx), matchID)
		if err != nil {
			return err
		}
		reports = []replay.Report{r}
	} else {
		tick := newTicker(time.Second)
		reports, err = replay.VerifyAll(ctx, store, hostedGames(ctx), replay.Options{Fairness: *fair, Progress: func(p replay.Progress) {
			if tick.due() {
				if p.Verified == 0 {
					fmt.Fprintf(stderr, "listing streams: %d events read, %d streams\n", p.Scanned, p.Streams)
				} else {
					fmt.Fprintf(stderr, "verified %d of %d streams\n", p.Verified, p.Streams)
				}
			}
		}})
		if err != nil {
			return err
		}
	}
	var matches, others, failed, events, unfair int
	var first error
	for _, r := range reports {
		events += r.Events
		if r.MatchID == "" {
			others++
			if !r.OK() {
				failed++
				fmt.Fprintf(stdout, "FAIL %s: %v\n", r.Stream, r.Problems)
				first = cmp.Or(first, r.Err())
			}
			continue
		}
		matches++
		if *fair && r.Fairness == nil {
			unfair++ // not over: its seed is still secret
		}
		if r.OK() {
			fmt.Fprintln(stdout, strings.TrimSpace(fmt.Sprintf("ok   %s %s %d events %s %s", r.MatchID, r.Game, r.Events, r.Status, r.Ending)))
			printFairness(stdout, r.Fairness)
			continue
		}
		failed++
		fmt.Fprintf(stdout, "FAIL %s %s %d events\n", r.MatchID, r.Game, r.Events)
		for _, p := range r.Problems {
			fmt.Fprintf(stdout, "     %s\n", p)
		}
		first = cmp.Or(first, r.Err())
	}
	if *id == "" {
		w, err := replay.VerifyWallets(ctx, store, hostedGames(ctx))
		if err != nil {
			return err
		}
		if !printWallets(stdout, w) {
			failed++
			first = cmp.Or(first, w.Err())
		}
	}
	if unfair > 0 {
		fmt.Fprintf(stdout, "%d match(es) not over: verified without their fairness, their seeds still secret\n", unfair)
	}
	fmt.Fprintf(stdout, "%d matches and %d other streams, %d events, verified in %s: ", matches, others, events, time.Since(start).Round(time.Millisecond))
	switch {
	case failed == 0 && storeErr == nil:
		fmt.Fprintln(stdout, "all ok")
		return nil
	case failed == 0:
		fmt.Fprintln(stdout, "the STORE FAILED")
		return storeErr
	case storeErr != nil:
		fmt.Fprintf(stdout, "the STORE and %d stream(s) FAILED\n", failed)
		return fmt.Errorf("%w; and %d stream(s) do not verify; first: %w", storeErr, failed, first)
	}
	fmt.Fprintf(stdout, "%d FAILED\n", failed)
	return fmt.Errorf("%d stream(s) do not verify; first: %w", failed, first)
}

// checkReceipt checks the match against the receipt in the file and prints the outcome.
// A store that fails it is failed, an error that does not stop the match's own check.
func checkReceipt(ctx context.Context, w io.Writer, store replay.Reader, pub ed25519.PublicKey, file, id string) (failed, err error) {
	signed, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("the receipt: %w", err)
	}
	r, err := replay.VerifyReceipt(ctx, store, pub, signed, id)
	if err != nil {
		return nil, fmt.Errorf("the receipt %s: %w", file, err)
	}
	return printReceipt(w, r), nil
}

// printReceipt writes the check of a receipt and returns its failure, nil if it held.
func printReceipt(w io.Writer, r replay.ReceiptReport) error {
	if !r.OK() {
		fmt.Fprintf(w, "FAIL receipt: match %s, %d events signed with root %s, %d in the log\n     %s\n", r.Head.Match, r.Head.Size, r.Head.Root, r.Events, r.Problem)
		return r.Err()
	}
	fmt.Fprintf(w, "ok   receipt: match %s still holds the %d events the receipt signed (root %s); %d in the log now\n", r.Head.Match, r.Head.Size, r.Head.Root, r.Events)
	return nil
}

// printWallets writes the verification of the wallets, if the store has any, and reports
// whether they verified.
func printWallets(w io.Writer, r replay.WalletReport) bool {
	if r.Wallets == 0 && r.Matches == 0 {
		return true
	}
	status := "ok  "
	if !r.OK() {
		status = "FAIL"
	}
	profiles := ""
	if r.Profiles > 0 {
		profiles = fmt.Sprintf("; %d profile(s): each hat worn was bought", r.Profiles)
	}
	if r.Draws > 0 {
		profiles += fmt.Sprintf("; %d loot draw(s) re-derived from their seeds (%d by the match seed, %d by the Legacy derivation)", r.Draws, r.Draws-r.LegacyDraws, r.LegacyDraws)
	}
	if r.Rulings > 0 {
		profiles += fmt.Sprintf("; %d ruling(s) on disputed matches, their coins checked", r.Rulings)
	}
	fmt.Fprintf(w, "%s wallets: %d re-derived, %d holds over %d matches that move coins, %d step(s) pending%s\n", status, r.Wallets, r.Holds, r.Matches, len(r.Pending), profiles)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "     %s\n", p)
	}
	for _, p := range r.Pending {
		fmt.Fprintf(w, "     pending: %s\n", p)
	}
	return r.OK()
}

// printStore writes the verification of the store as a whole.
func printStore(w io.Writer, r replay.StoreReport, logFile string, hasLog bool) {
	log := fmt.Sprintf("%d head(s) of the head log %s", r.Logged, logFile)
	if !hasLog {
		log = fmt.Sprintf("no head log at %s, so a rollback of the whole store to an older signed head cannot be seen", logFile)
	}
	if r.OK() {
		fmt.Fprintf(w, "ok   store: %d events in one global chain, signed head at position %d (%s) with key %s, %s\n",
			r.Events, r.Signed.Position, r.Signed.Time.Format(time.RFC3339), r.Key, log)
		return
	}
	fmt.Fprintf(w, "FAIL store: %d events, last at position %d, signed head at position %d, key %s, %s\n", r.Events, r.Last, r.Signed.Position, r.Key, log)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "     %s\n", p)
	}
}

// ticker says when a second (or its period) has passed since it last said so: progress
// lines at a steady pace whatever the callback rate.
type ticker struct {
	every time.Duration
	next  time.Time
}

func newTicker(every time.Duration) *ticker {
	return &ticker{every: every, next: time.Now().Add(every)}
}

func (t *ticker) due() bool {
	if now := time.Now(); now.After(t.next) {
		t.next = now.Add(t.every)
		return true
	}
	return false
}

// verifyFile is `arbiter verify --file EXPORT [--match ID]`: the export's chain and, when
// it hides nothing, its match under its rules (replay.VerifyExport).
func verifyFile(path, id, receiptFile, keyFile string, fair bool, stdout io.Writer) error {
	x, err := readExportFile(path, id)
	if err != nil {
		return err
	}
	var failed error
	if receiptFile != "" {
		// An export has no store beside it: the key is named, or taken from ARBITER_KEY.
		if keyFile = cmp.Or(keyFile, os.Getenv("ARBITER_KEY")); keyFile == "" {
			return errors.New("--receipt with --file needs --key FILE (the server's public key, from the serverKey query) or ARBITER_KEY")
		}
		pub, err := publicKey(keyFile)
		if err != nil {
			return err
		}
		signed, err := os.ReadFile(receiptFile)
		if err != nil {
			return fmt.Errorf("the receipt: %w", err)
		}
		rr, err := replay.VerifyReceiptExport(pub, signed, x)
		if err != nil {
			return fmt.Errorf("the receipt %s: %w", receiptFile, err)
		}
		failed = printReceipt(stdout, rr)
	}
	r := replay.VerifyExport(games(), x)
	if fair {
		r = replay.VerifyExportFairness(games(), x)
	}
	if r.OK() {
		_, err := fmt.Fprintln(stdout, strings.TrimSpace(fmt.Sprintf("ok   %s %s %d events %s %s (export for %s)", r.MatchID, r.Game, r.Events, r.Status, r.Ending, x.Header.Viewer)))
		printFairness(stdout, r.Fairness)
		if err == nil {
			err = failed
		}
		return err
	}
	fmt.Fprintf(stdout, "FAIL %s %s %d events (export for %s)\n", r.MatchID, r.Game, r.Events, x.Header.Viewer)
	for _, p := range r.Problems {
		fmt.Fprintf(stdout, "     %s\n", p)
	}
	return r.Err()
}

// readExportFile reads a match's export; id, when given, must be its match.
func readExportFile(path, id string) (replay.Export, error) {
	f, err := os.Open(path)
	if err != nil {
		return replay.Export{}, err
	}
	defer f.Close()
	x, err := replay.ReadExport(f)
	if err != nil {
		return replay.Export{}, fmt.Errorf("%s: %w", path, err)
	}
	if id != "" && id != x.Header.Match {
		return replay.Export{}, fmt.Errorf("%s is the export of match %s, not %s", path, x.Header.Match, id)
	}
	return x, nil
}

// printFairness writes what a fairness verification drew again, if it was asked for.
func printFairness(w io.Writer, f *replay.Fairness) {
	if f == nil {
		return
	}
	purposes := map[string]bool{}
	for _, d := range f.Drawn {
		for _, p := range d.Purposes {
			purposes[p] = true
		}
	}
	seed := f.MatchSeed
	if seed == "" {
		seed = "none (the match never started)"
	}
	entropies := strings.Join(f.Entropies, ", ")
	if entropies == "" {
		entropies = "none (procedure 0 takes none: the server's seed alone)"
	}
	fmt.Fprintf(w, "     fairness: procedure %d, seed %s matches its commitment %s; match seed %s from the entropies %s; the random outcomes of %d event(s) drawn again from %d stream(s), all as recorded\n",
		f.Procedure, f.Seed, f.Commitment, seed, entropies, len(f.Drawn), len(purposes))
}
