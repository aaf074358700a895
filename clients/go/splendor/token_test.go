package splendor

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"splendor-engine/clients/go/internal/enginetest"
)

// The token vectors of tests/sealing/token_vectors.py (genuine tokens of every format version, and mutated
// ones) are read, or refused, by ReadTokenHeader exactly as the engine's own reader does.
func TestReadTokenHeaderAgreesWithTheEngineOnEveryVector(t *testing.T) {
	command := exec.Command(filepath.Join(enginetest.VenvDir(), "bin", "python"), "-m", "tests.sealing.token_vectors", "--count", "300", "--seed", "3")
	command.Dir = enginetest.RepoDir()
	out, err := command.Output()
	if err != nil {
		t.Fatalf("the vectors: %v", err)
	}
	var vectors []struct {
		Token  string `json:"token"`
		Reason string `json:"reason"`
		Header *struct {
			Version    int    `json:"version"`
			KeyID      string `json:"key_id"`
			GameID     string `json:"game_id"`
			Turn       uint32 `json:"turn"`
			Step       string `json:"step"`
			PublicDeal bool   `json:"public_deal"`
			ActingSeat *int   `json:"acting_seat"`
			ExpiresAt  string `json:"expires_at"`
		} `json:"header"`
	}
	if err := json.Unmarshal(out, &vectors); err != nil {
		t.Fatal(err)
	}
	read, refused := 0, 0
	for index, vector := range vectors {
		token, err := hex.DecodeString(vector.Token)
		if err != nil {
			t.Fatal(err)
		}
		header, err := ReadTokenHeader(token)
		if vector.Header == nil {
			var tokenRefused *TokenRefused
			if !errors.As(err, &tokenRefused) || tokenRefused.Reason != vector.Reason {
				t.Fatalf("vector %d: want %s, got %v", index, vector.Reason, err)
			}
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("vector %d: %v", index, err)
		}
		want := vector.Header
		acting := -1
		if want.ActingSeat != nil {
			acting = *want.ActingSeat
		}
		step, _ := strconv.ParseUint(want.Step, 10, 64)
		expires, _ := strconv.ParseUint(want.ExpiresAt, 10, 64)
		expected := TokenHeader{want.Version, want.KeyID, want.GameID, want.Turn, step, want.PublicDeal, acting, expires}
		if header != expected {
			t.Fatalf("vector %d: want %+v, got %+v", index, expected, header)
		}
		read++
	}
	if read == 0 || refused == 0 {
		t.Fatalf("the vectors must hold tokens read (%d) and refused (%d)", read, refused)
	}
}
