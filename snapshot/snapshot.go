// Package snapshot is the file a snapshot of the read side is kept in: per read model, its
// stored form at its own checkpoint position, under a header that says what each part is
// and a SHA-256 of the whole, so that a damaged or foreign file is refused before anything
// of it is believed.
//
// The format, version 1:
//
//	arbiter-snapshot 1\n
//	<header: one line of JSON, the models' names, formats, positions, hashes and lengths>\n
//	<each model's bytes, in the header's order, with no separator>
//	sha256 <hex of every byte above>\n
//
// A file is written whole to a temporary file, flushed, renamed into place and the
// directory flushed: a crash at any moment leaves either the previous snapshots or the
// new one, never part of one. The last two are kept, so that a snapshot found damaged
// still leaves one to try.
package snapshot

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Version is the format of the file itself (the models' own forms have their own).
const Version = 1

// magic opens every snapshot file.
const magic = "arbiter-snapshot"

// Keep is how many snapshots a directory keeps.
const Keep = 2

// Model is one read model's part of a snapshot.
type Model struct {
	Name   string `json:"name"`
	Format int    `json:"format"` // the model's stored form's version
	// Position is the model's checkpoint, and GlobalHash the store's hash of the event at
	// that position ("" at position 0): a store whose hash there differs is another store,
	// or one rewritten since, and the snapshot is not its.
	Position   int64  `json:"position"`
	GlobalHash string `json:"globalHash"`
	Length     int    `json:"length"`
	Data       []byte `json:"-"`
}

// Snapshot is the models' parts, in the order they were written.
type Snapshot struct {
	Models []Model
}

// Find returns the part of the model called name.
func (s Snapshot) Find(name string) (Model, bool) {
	for _, m := range s.Models {
		if m.Name == name {
			return m, true
		}
	}
	return Model{}, false
}

// Damaged is the error of a file that is not a whole snapshot of this format.
type Damaged struct {
	Path   string
	Reason string
}

func (e *Damaged) Error() string { return fmt.Sprintf("snapshot %s is damaged: %s", e.Path, e.Reason) }

// ErrDamaged is matched (errors.Is) by every *Damaged.
var ErrDamaged = errors.New("snapshot: damaged")

// Is lets errors.Is(err, ErrDamaged) match.
func (e *Damaged) Is(target error) bool { return target == ErrDamaged }

// prefix and suffix name the files of a directory: snapshot-<20-digit position>.snap,
// so that their names sort as their positions do.
const (
	prefix = "snapshot-"
	suffix = ".snap"
)

// Encode writes s in the file format.
func Encode(w io.Writer, s Snapshot) error {
	h := sha256.New()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	models := make([]Model, len(s.Models))
	for i, m := range s.Models {
		m.Length = len(m.Data)
		models[i] = m
	}
	header, err := json.Marshal(struct {
		Models []Model `json:"models"`
	}{models})
	if err != nil {
		return fmt.Errorf("snapshot: encoding the header: %w", err)
	}
	fmt.Fprintf(bw, "%s %d\n%s\n", magic, Version, header)
	for _, m := range models {
		bw.Write(m.Data)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("snapshot: writing: %w", err)
	}
	if _, err := fmt.Fprintf(w, "sha256 %s\n", hex.EncodeToString(h.Sum(nil))); err != nil {
		return fmt.Errorf("snapshot: writing: %w", err)
	}
	return nil
}

// Decode reads a whole file's bytes; name is for the error (a *Damaged when the bytes are
// not a whole snapshot of this format).
func Decode(name string, b []byte) (Snapshot, error) {
	bad := func(format string, args ...any) (Snapshot, error) {
		return Snapshot{}, &Damaged{Path: name, Reason: fmt.Sprintf(format, args...)}
	}
	body, trailer, ok := cutTrailer(b)
	if !ok {
		return bad("no checksum line at its end (a file cut short?)")
	}
	sum, ok := strings.CutPrefix(trailer, "sha256 ")
	want := sha256.Sum256(body)
	if !ok || sum != hex.EncodeToString(want[:]) {
		return bad("its SHA-256 does not match its content")
	}
	first, rest, _ := bytes.Cut(body, []byte("\n"))
	var version int
	if _, err := fmt.Sscanf(string(first), magic+" %d", &version); err != nil {
		return bad("it does not start with %q", magic)
	}
	if version != Version {
		return bad("file format %d, this build reads %d", version, Version)
	}
	line, data, _ := bytes.Cut(rest, []byte("\n"))
	var header struct {
		Models []Model `json:"models"`
	}
	if err := json.Unmarshal(line, &header); err != nil {
		return bad("its header does not parse: %v", err)
	}
	for i := range header.Models {
		m := &header.Models[i]
		if m.Length < 0 || m.Length > len(data) {
			return bad("model %s is longer than the file", m.Name)
		}
		m.Data, data = data[:m.Length:m.Length], data[m.Length:]
	}
	if len(data) != 0 {
		return bad("%d bytes after the last model", len(data))
	}
	return Snapshot{Models: header.Models}, nil
}

// trailerLen is the length of the checksum line that ends a file.
const trailerLen = len("sha256 ") + 2*sha256.Size + len("\n")

// cutTrailer splits b before its checksum line (the model's bytes before it may end
// without a newline, or hold any byte).
func cutTrailer(b []byte) (body []byte, trailer string, ok bool) {
	if len(b) < trailerLen || b[len(b)-1] != '\n' {
		return nil, "", false
	}
	cut := len(b) - trailerLen
	return b[:cut], string(b[cut : len(b)-1]), true
}

// Write stores s in dir (created if need be) as the newest snapshot, atomically, and
// removes all but the newest Keep. It returns the new file's path.
func Write(dir string, s Snapshot) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	var at int64
	for _, m := range s.Models {
		at = max(at, m.Position)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s%020d%s", prefix, at, suffix))
	tmp, err := os.CreateTemp(dir, ".tmp-"+prefix+"*")
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	fail := func(err error) (string, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", fmt.Errorf("snapshot: writing %s: %w", path, err)
	}
	if err := Encode(tmp, s); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	if err := syncDir(dir); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	return path, prune(dir)
}

// syncDir flushes dir, so that a rename in it survives a crash of the machine.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// prune removes all but the newest Keep snapshots of dir, and the temporary files a
// write that did not finish left (a process killed during a write).
func prune(dir string) error {
	if _, err := RemoveTemporary(dir); err != nil {
		return err
	}
	paths, err := List(dir)
	if err != nil {
		return err
	}
	for _, p := range paths[min(Keep, len(paths)):] {
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
	}
	return nil
}

// RemoveTemporary removes the temporary files that writes which did not finish left in
// dir (a process killed during a write), and returns them; none when dir does not exist.
// Only the directory's one writer may call it (serve holds a lock for that): a write
// under way has such a file too.
func RemoveTemporary(dir string) ([]string, error) {
	paths, err := matching(dir, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), ".tmp-"+prefix) })
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, p := range paths {
		if os.Remove(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed, nil
}

// matching is the paths of the entries of dir that keep takes; none (and no error) when
// dir does not exist.
func matching(dir string, keep func(os.DirEntry) bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if keep(e) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths, nil
}

// List returns the snapshot files of dir, newest first; none (and no error) when dir does
// not exist.
func List(dir string) ([]string, error) {
	paths, err := matching(dir, func(e os.DirEntry) bool {
		n := e.Name()
		return strings.HasPrefix(n, prefix) && strings.HasSuffix(n, suffix) && e.Type().IsRegular()
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	slices.Reverse(paths)
	return paths, nil
}

// Read reads and checks the snapshot file at path.
func Read(path string) (Snapshot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot: %w", err)
	}
	return Decode(path, b)
}
