package splendor

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
)

// TokenHeader is what a game token's readable header says (the layout is specified beside
// SealedStateBinding in proto/splendor/v1/sealing.proto). Reading it does not authenticate it: only the
// service can tell an authentic token; a platform reads it for its bookkeeping (which game, which step).
type TokenHeader struct {
	Version    int    // the token format's version: 1, 2 or 3
	KeyID      string // the key ring entry that sealed it
	GameID     string // 32 lowercase hex digits
	Turn       uint32
	Step       uint64
	PublicDeal bool
	// ActingSeat is the seat that must act, or -1: the game is over, or the token (format 1 or 2) does not say.
	ActingSeat int
	ExpiresAt  uint64 // Unix seconds; 0: never (and always 0 before format 3)
}

// TokenRefused is a token whose header cannot be read: Reason is the service's own for it
// (SEALED_STATE_MALFORMED, SEALED_STATE_VERSION_UNSUPPORTED, SEALED_STATE_TOO_LARGE).
type TokenRefused struct {
	Reason  string
	Message string
}

func (refused *TokenRefused) Error() string { return refused.Reason + ": " + refused.Message }

const (
	maxTokenBytes  = 16 * 1024
	nonceBytes     = 12
	minCipherBytes = 48 // the padded state's 32 bytes at the least, and the 16-byte tag
	noActingSeat   = 255
	flagPublicDeal = 0x01
)

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,32}$`)

// ReadTokenHeader reads a game token's header, refusing what the service would refuse before opening it.
func ReadTokenHeader(token []byte) (TokenHeader, error) {
	malformed := func(format string, args ...any) (TokenHeader, error) {
		return TokenHeader{}, &TokenRefused{"SEALED_STATE_MALFORMED", fmt.Sprintf(format, args...)}
	}
	if len(token) > maxTokenBytes {
		return TokenHeader{}, &TokenRefused{"SEALED_STATE_TOO_LARGE", fmt.Sprintf("the token is %d bytes; tokens are at most %d", len(token), maxTokenBytes)}
	}
	if len(token) == 0 {
		return malformed("the token is empty")
	}
	version := int(token[0])
	// The bytes after the key id and before the nonce: game id, turn, step, then by version the flags byte,
	// the acting seat and the expiry.
	tail := map[int]int{1: 28, 2: 29, 3: 38}[version]
	if tail == 0 {
		return TokenHeader{}, &TokenRefused{"SEALED_STATE_VERSION_UNSUPPORTED", fmt.Sprintf("token format version %d is not supported", version)}
	}
	if len(token) < 2 {
		return malformed("the token is truncated")
	}
	keyLength := int(token[1])
	headerLength := 2 + keyLength + tail
	if keyLength < 1 || keyLength > 32 || len(token) < headerLength+nonceBytes+minCipherBytes {
		return malformed("the token is truncated or its key id's length is wrong")
	}
	keyID := string(token[2 : 2+keyLength])
	if !keyIDPattern.MatchString(keyID) {
		return malformed("the token's key id is malformed")
	}
	at := 2 + keyLength
	header := TokenHeader{
		Version:    version,
		KeyID:      keyID,
		GameID:     hex.EncodeToString(token[at : at+16]),
		Turn:       binary.BigEndian.Uint32(token[at+16 : at+20]),
		Step:       binary.BigEndian.Uint64(token[at+20 : at+28]),
		PublicDeal: true, // format 1: dealt from the caller's seed or seed 0
		ActingSeat: -1,
	}
	if version >= 2 {
		flags := token[at+28]
		if flags&^flagPublicDeal != 0 {
			return malformed("the token's flags are not any the service sets")
		}
		header.PublicDeal = flags&flagPublicDeal != 0
	}
	if version == 3 {
		seat := token[at+29]
		switch {
		case seat <= 3:
			header.ActingSeat = int(seat)
		case seat != noActingSeat:
			return malformed("the token's acting seat is not a seat")
		}
		header.ExpiresAt = binary.BigEndian.Uint64(token[at+30 : at+38])
	}
	return header, nil
}
