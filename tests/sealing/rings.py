"""Key rings and tokens for the sealing tests."""

from __future__ import annotations

import base64
import random

from engine_service.sealing import Binding, KeyRing, parse_key_ring

# Opaque to the token format; the size of a mid-game 4-player state.
STATE = random.Random(7).randbytes(400)
BINDING = Binding(game_id="0123456789abcdef0123456789abcdef", turn=12, step=15)


def key_line(key_id: str, seed: int) -> str:
    return f"{key_id}:{base64.b64encode(random.Random(seed).randbytes(32)).decode()}"


def ring(*lines: str) -> KeyRing:
    return parse_key_ring("\n".join(lines))
