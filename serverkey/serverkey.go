// Package serverkey holds the server's signing key: an Ed25519 key in a file of its own
// (PEM: a PKCS #8 "PRIVATE KEY", mode 0600; a PKIX "PUBLIC KEY" file holds the public half,
// enough to verify), outside the event store, so that someone who can change the store's
// file cannot also sign what they wrote. The store signs its head with it
// (eventstore.Head); `arbiter verify` checks those signatures with the public half.
package serverkey

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Key is a server's private key. It is safe for concurrent use.
type Key struct {
	priv ed25519.PrivateKey
}

// Sign returns the Ed25519 signature of message.
func (k *Key) Sign(message []byte) []byte { return ed25519.Sign(k.priv, message) }

// Public returns the public half of the key.
func (k *Key) Public() ed25519.PublicKey { return k.priv.Public().(ed25519.PublicKey) }

// Verify reports whether sig is pub's signature of message.
func Verify(pub ed25519.PublicKey, message, sig []byte) bool {
	return len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, message, sig)
}

// Fingerprint names a public key in messages: the first 8 bytes of its SHA-256, in hex.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// LoadOrCreate loads the private key at path, or creates one there if no file exists
// (mode 0600, in a directory that must exist). created says which.
func LoadOrCreate(path string) (k *Key, created bool, err error) {
	k, err = Load(path)
	if !errors.Is(err, os.ErrNotExist) {
		return k, false, err
	}
	k, err = Generate()
	if err != nil {
		return nil, false, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return nil, false, err
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := createFile(path, data); err != nil {
		if errors.Is(err, os.ErrExist) { // another process created it first: use theirs
			k, err = Load(path)
			return k, false, err
		}
		return nil, false, fmt.Errorf("creating the server key %s: %w", path, err)
	}
	return k, true, nil
}

// Generate returns a new key, kept in memory only.
func Generate() (*Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return &Key{priv: priv}, nil
}

// createFile writes data to a new file at path, whole or not at all: a crash must not
// leave half a key that later starts could not read.
func createFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// A link fails if path exists, where a rename would replace it.
	if err := os.Link(tmp.Name(), path); err != nil {
		return err
	}
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

// Load reads the private key at path. It refuses a file that others than its owner may
// read, as ssh does: a key others can read signs nothing they could not sign too.
func Load(path string) (*Key, error) {
	block, err := readPEM(path)
	if err != nil {
		return nil, err
	}
	if block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("the server key %s holds a %q, not a PRIVATE KEY: the server needs the private key to sign", path, block.Type)
	}
	if fi, err := os.Stat(path); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the server key %s can be read by others (mode %04o): run chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("the server key %s does not parse: %w", path, err)
	}
	priv, ok := parsed.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("the server key %s is a %T, not an Ed25519 key", path, parsed)
	}
	return &Key{priv: priv}, nil
}

// LoadPublic reads the public key from the file at path: a private key file, or a public
// key file (PKIX, as `openssl pkey -in arbiter.key -pubout` writes it).
func LoadPublic(path string) (ed25519.PublicKey, error) {
	block, err := readPEM(path)
	if err != nil {
		return nil, err
	}
	switch block.Type {
	case "PRIVATE KEY":
		k, err := Load(path)
		if err != nil {
			return nil, err
		}
		return k.Public(), nil
	case "PUBLIC KEY":
		parsed, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("the public key %s does not parse: %w", path, err)
		}
		pub, ok := parsed.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("the public key %s is a %T, not an Ed25519 key", path, parsed)
		}
		return pub, nil
	}
	return nil, fmt.Errorf("the key file %s holds a %q, want a PRIVATE KEY or a PUBLIC KEY", path, block.Type)
}

func readPEM(path string) (*pem.Block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("the key file %s is not PEM", path)
	}
	return block, nil
}
