package sqlite

import "testing"

// TestStoredForms: an ID or a hash is stored as bytes exactly when it is in the form that
// reads back the same, and any other value as its text, so every value has one stored form.
func TestStoredForms(t *testing.T) {
	for _, c := range []struct {
		id    string
		bytes int // 0: stored as text
	}{
		{"19d49992-c8e5-9d35-cda1-fd5764890ade", 16},
		{"19D49992-c8e5-9d35-cda1-fd5764890ade", 0},
		{"19d49992-c8e5-9d35-cda1-fd5764890adg", 0},
		{"19d49992c-8e5-9d35-cda1-fd5764890ade", 0},
		{"19d49992-c8e5-9d35-cda1-fd5764890ad", 0},
		{"loot:match-x:0", 0},
		{"", 0},
	} {
		var scratch []byte
		got := storedID(&scratch, c.id)
		checkForm(t, "ID", c.id, got, c.bytes)
	}
	hash := "e45bde70727ad0f05df27d3b76c5a9af38695bd6aab69f7e2cea48e374b01aee"
	for _, c := range []struct {
		hash  string
		bytes int
	}{
		{hash, 32},
		{hash[:63] + "E", 0},
		{hash[:63] + "g", 0},
		{hash[:62], 0},
		{hash + "00", 0},
		{"", 0},
	} {
		var scratch []byte
		checkForm(t, "hash", c.hash, storedHash(&scratch, c.hash), c.bytes)
	}
}

// checkForm checks that value was stored as n bytes (0: as its text) and reads back.
func checkForm(t *testing.T, what, value string, stored any, n int) {
	t.Helper()
	var back string
	var err error
	switch what {
	case "ID":
		err = textID{&back}.Scan(stored)
	default:
		err = textHash{&back}.Scan(stored)
	}
	b, isBytes := stored.([]byte)
	switch {
	case n == 0 && isBytes, n > 0 && (!isBytes || len(b) != n):
		t.Errorf("%s %q stored as %T %x, want %d bytes (0: its text)", what, value, stored, stored, n)
	case err != nil || back != value:
		t.Errorf("%s %q stored as %x reads back as %q, %v", what, value, stored, back, err)
	case n == 0 && stored != value:
		t.Errorf("%s %q stored as text %q", what, value, stored)
	}
}
