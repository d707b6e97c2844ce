package serverkey

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOrCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "arbiter.key")
	k, created, err := LoadOrCreate(path)
	if err != nil || !created {
		t.Fatalf("first LoadOrCreate: created %v, %v", created, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file has mode %04o, want 0600", fi.Mode().Perm())
	}
	again, created, err := LoadOrCreate(path)
	if err != nil || created || !bytes.Equal(again.Public(), k.Public()) {
		t.Fatalf("second LoadOrCreate: created %v, %v, same key %v", created, err, bytes.Equal(again.Public(), k.Public()))
	}
	msg := []byte("head")
	if !Verify(k.Public(), msg, again.Sign(msg)) || Verify(k.Public(), []byte("other"), k.Sign(msg)) {
		t.Error("a signature of the reloaded key does not verify, or verifies another message")
	}

	// The public half alone, as openssl writes it, verifies too.
	der, err := x509.MarshalPKIXPublicKey(k.Public())
	if err != nil {
		t.Fatal(err)
	}
	pubPath := filepath.Join(t.TempDir(), "arbiter.pub")
	if err := os.WriteFile(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublic(pubPath)
	if err != nil || !bytes.Equal(pub, k.Public()) {
		t.Fatalf("LoadPublic of the public half: %v", err)
	}
	if _, err := Load(pubPath); err == nil || !strings.Contains(err.Error(), "not a PRIVATE KEY") {
		t.Errorf("Load of a public key: %v", err)
	}

	// A key others may read is refused.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreate(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key readable by others: %v", err)
	}
}
