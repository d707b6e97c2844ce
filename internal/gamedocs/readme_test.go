package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The checks below keep README.md and docs/ true to the repository: they name no file
// outside it, their links lead somewhere, and their counts are the counts.

const root = "../.."

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docs lists README.md and every Markdown file under docs/.
func docs(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

// TestDocsStayInsideTheRepository: a reader of a clone has the repository only, so no
// page may point at ../shared or any path outside it, and every relative link resolves.
func TestDocsStayInsideTheRepository(t *testing.T) {
	for _, rel := range docs(t) {
		doc := readDoc(t, rel)
		if strings.Contains(doc, "../shared") || strings.Contains(doc, "shared/rules") {
			t.Errorf("%s names a file outside the repository (../shared); link to docs/games instead", rel)
		}
		for _, m := range mdLink.FindAllStringSubmatch(doc, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path := filepath.Join(root, filepath.Dir(rel), target)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", rel, target)
			}
		}
	}
}

// TestReadmeCounts checks the numbers the README states in words.
func TestReadmeCounts(t *testing.T) {
	readme := readDoc(t, "README.md")
	if !strings.Contains(readme, "58 distinct cards, decks of 144") {
		t.Error(`README.md should say "58 distinct cards, decks of 144" of UnfairChess`)
	}
	// "## Play a game in N requests" is followed by a block with one request a line.
	words := map[string]int{"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
	m := regexp.MustCompile(`(?s)## Play a game in (\w+) requests\n\n` + "```graphql\n(.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal(`README.md has no "## Play a game in N requests" section with a graphql block`)
	}
	requests := 0
	for _, line := range strings.Split(m[2], "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "mutation" || f[0] == "query" || f[0] == "subscription") {
			requests++
		}
	}
	if words[m[1]] != requests {
		t.Errorf("README.md says %q requests and shows %d", m[1], requests)
	}
}

// TestReadmeNamesEveryEnvironmentVariable: each ARBITER_ variable the command reads is
// documented in README.md or docs/operations.md.
func TestReadmeNamesEveryEnvironmentVariable(t *testing.T) {
	documented := readDoc(t, "README.md") + readDoc(t, "docs/operations.md")
	files, err := filepath.Glob(filepath.Join(root, "cmd", "arbiter", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	getenv := regexp.MustCompile(`os\.(?:Getenv|LookupEnv)\("(ARBITER_[A-Z_]+)"\)`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range getenv.FindAllStringSubmatch(string(src), -1) {
			seen++
			if !strings.Contains(documented, m[1]) {
				t.Errorf("%s reads %s, which neither README.md nor docs/operations.md mentions", filepath.Base(f), m[1])
			}
		}
	}
	if seen == 0 {
		t.Fatal("found no ARBITER_ variable read in cmd/arbiter: the pattern no longer matches the code")
	}
}
