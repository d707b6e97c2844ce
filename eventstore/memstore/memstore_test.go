package memstore_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/conformance"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Harness{
		Open: func(t *testing.T) (eventstore.Store, func(*testing.T) eventstore.Store) {
			return memstore.New(memstore.WithSigner(conformance.Signer)), nil
		},
		Durable: false,
	})
}
