// Package layering holds the test that keeps the module's packages in their layers: the
// pure rules (domain) below the engine and the store, the store below every game, and the
// engine and the read side below the API. Its rules and exemptions are in layering_test.go;
// docs/architecture.md explains them.
package layering
