"""Test vectors for token-header readers in other languages: tokens the engine sealed (format versions 1 to 3, a
finished game's, every flag), each mutated, with what the engine's own header parser reads or why it refuses.

    .venv/bin/python -m tests.sealing.token_vectors [--count 300] [--seed 0]

prints a JSON list of ``{"token": hex, "reason": str}`` (refused: the engine's SEALED_STATE_* reason) or
``{"token": hex, "header": {...}}`` (``version``, ``key_id``, ``game_id``, ``turn``, ``step`` and ``expires_at`` as
decimal strings, ``public_deal``, ``acting_seat``: a number or null). The TypeScript client's tests read it; a
reader in any language passes when it agrees on every vector.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from engine_service.sealing import Binding, SealingError, new_game_secret, read_header, seal
from engine_service.sealing.token import VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY
from tests.sealing.rings import STATE, key_line, ring
from tests.sealing.test_token_versions import older_token

KEYS = ring(key_line("2026-06.a_b-C", 5))


def genuine_tokens(rng: random.Random) -> list[bytes]:
    """Tokens as the engine seals them: every version, bindings at their extremes, both deals, over and not."""
    tokens = []
    for public_deal in (False, True):
        for acting_seat in (None, 0, 3):
            binding = Binding(rng.randbytes(16).hex(), rng.getrandbits(32), rng.getrandbits(64), public_deal)
            binding = binding._replace(acting_seat=acting_seat, expires_at=rng.choice((0, 1_900_000_000, 2**64 - 1)))
            tokens.append(seal(KEYS, STATE[: rng.randrange(400)], binding, new_game_secret()))
        for version in (VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY):
            tokens.append(older_token(version, STATE, Binding("ff" * 16, 2**32 - 1, 2**64 - 1, public_deal), KEYS))
    return tokens


def mutated(token: bytes, rng: random.Random) -> bytes:
    """``token`` with a few bytes of its header changed, cut short, or grown past the largest token."""
    kind = rng.randrange(4)
    if kind == 0:
        return token[: rng.randrange(len(token) + 1)]
    if kind == 1:
        return token + bytes(16 * 1024)
    changed = bytearray(token)
    for _ in range(rng.randrange(1, 4)):
        changed[rng.randrange(min(60, len(changed)))] = rng.choice((0, 1, 2, 3, 4, 0x20, 0x2E, 0x80, 0xFE, 0xFF))
    return bytes(changed)


def verdict(token: bytes) -> dict[str, Any]:
    try:
        header = read_header(token)
    except SealingError as refused:
        return {"token": token.hex(), "reason": refused.reason}
    binding = header.binding
    return {
        "token": token.hex(),
        "header": {
            "version": header.version,
            "key_id": header.key_id,
            "game_id": binding.game_id,
            "turn": binding.turn,
            "step": str(binding.step),
            "public_deal": binding.public_deal,
            "acting_seat": binding.acting_seat,
            "expires_at": str(binding.expires_at),
        },
    }


def vectors(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    genuine = genuine_tokens(rng)
    out = [verdict(token) for token in genuine]
    out += [verdict(mutated(rng.choice(genuine), rng)) for _ in range(count)]
    out += [verdict(token) for token in (b"", b"\x03", bytes((3, 0)) + bytes(100), bytes((9,)) + bytes(100))]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="mutated tokens (besides the genuine ones)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(vectors(args.count, args.seed)))


if __name__ == "__main__":
    main()
