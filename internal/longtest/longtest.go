// Package longtest sizes the seeded random playouts of the rules tests: a few seconds
// in every go test, as many games as an environment variable asks for in a long run.
package longtest

import (
	"os"
	"strconv"
	"testing"
)

// Games is how many games a playout test plays: short under -short, normal otherwise,
// or the number in the environment variable env when it is set (long is then true, for
// the test to play longer games too). A value that is not a positive number fails t.
func Games(t testing.TB, env string, short, normal int) (n int, long bool) {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		if testing.Short() {
			return short, false
		}
		return normal, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a number of games, such as %s=300", env, v, env)
	}
	return n, true
}
