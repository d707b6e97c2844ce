//go:build deep

package chess

import "testing"

// TestDeepPerft goes to the deepest published count of every reference position, the
// counts TestPerft leaves out to keep the ordinary run short (a minute or two):
//
//	go test -tags deep -run Deep ./domain/chess/
func TestDeepPerft(t *testing.T) { checkPerft(t, true) }
