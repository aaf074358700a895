"""The client's token reader (splendor_client.tokens, no engine import) reads what the server sealed: the binding the
server returned beside each token, for every format version, and refuses exactly the bytes the engine's own header
parser refuses, with the engine's reason."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import sealing_pb2
from splendor_client import TokenHeaderError, connect, read_token_header

from engine_service.sealing import Binding, SealingError, new_game_secret, read_header, seal
from engine_service.sealing.token import VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY
from tests.sealing.rings import STATE, key_line, ring
from tests.sealing.test_token_versions import older_token
from tests.sealing.token_vectors import vectors

KEYS = ring(key_line("2026-06.a_b", 3))


def engine_binding(binding: Binding) -> sealing_pb2.SealedStateBinding:
    out = sealing_pb2.SealedStateBinding(
        game_id=binding.game_id,
        turn=binding.turn,
        step=binding.step,
        public_deal=binding.public_deal,
        expires_at=binding.expires_at,
    )
    if binding.acting_seat is not None:
        out.acting_seat = binding.acting_seat
    return out


def test_the_reader_reads_the_binding_the_server_returned_with_every_token(loopback_address: str) -> None:
    rng = random.Random(4)
    with connect(loopback_address) as client:
        game = client.new_game(num_players=3, sealed=True, expires_in_seconds=600)
        seen = 0
        while not game.finished and seen < 60:
            header = read_token_header(game.token)
            assert header.version == 3 and header.key_id.startswith("ephemeral-")
            assert header.binding == game.binding and header.binding.expires_at > 0
            assert header.acting_seat == game.acting_seat
            seat = game.acting_seat
            game = client.apply(game, rng.choice(client.legal_actions(game, seat=seat)), seat=seat)
            seen += 1
        assert seen == 60 or read_token_header(game.token).acting_seat is None


@pytest.mark.parametrize("version", [VERSION_WITHOUT_FLAGS, VERSION_WITHOUT_SEAT_OR_EXPIRY, 3])
@pytest.mark.parametrize("public_deal", [False, True])
def test_every_format_version_reads_as_the_engine_reads_it(version: int, public_deal: bool) -> None:
    binding = Binding("0123456789abcdef0123456789abcdef", 2**32 - 1, 2**64 - 1, public_deal)
    if version == 3:
        token = seal(KEYS, STATE, binding._replace(acting_seat=3, expires_at=2**64 - 1), new_game_secret())
    else:
        token = older_token(version, STATE, binding, KEYS)
    header = read_token_header(token)
    engine = read_header(token)
    assert (header.version, header.key_id) == (engine.version, engine.key_id) == (version, "2026-06.a_b")
    assert header.binding == engine_binding(engine.binding)
    assert header.acting_seat == engine.binding.acting_seat


TOKEN = seal(KEYS, STATE, Binding("00" * 16, 5, 9, False, 1, 77), new_game_secret())


@settings(max_examples=400, deadline=None)
@given(
    edits=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 255)), max_size=3),
    cut=st.integers(0, len(TOKEN) + 1),
    pad=st.integers(0, 17_000),
)
def test_the_reader_refuses_exactly_what_the_engine_refuses_with_its_reason(
    edits: list[tuple[int, int]], cut: int, pad: int
) -> None:
    token = bytearray(TOKEN[:cut] + bytes(pad if pad > 16_000 else 0))
    for offset, value in edits:
        if offset < len(token):
            token[offset] = value
    try:
        engine = read_header(bytes(token))
    except SealingError as refused:
        with pytest.raises(TokenHeaderError) as mine:
            read_token_header(bytes(token))
        assert mine.value.reason == refused.reason
        return
    header = read_token_header(bytes(token))
    assert (header.version, header.key_id, header.binding) == (
        engine.version,
        engine.key_id,
        engine_binding(engine.binding),
    )


def test_the_reader_needs_no_engine() -> None:
    """splendor_client.tokens imports only the stubs: a platform in a venv without the engine can use it."""
    code = (
        "import sys, splendor_client.tokens\n"
        "assert not any(name.startswith('engine_service') for name in sys.modules), sorted(sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_reader_agrees_with_every_shared_vector() -> None:
    """The vectors other languages' readers are tested on (tests/sealing/token_vectors.py)."""
    for vector in vectors(200, seed=1):
        token = bytes.fromhex(vector["token"])
        if "reason" in vector:
            with pytest.raises(TokenHeaderError) as refused:
                read_token_header(token)
            assert refused.value.reason == vector["reason"]
            continue
        header, expected = read_token_header(token), vector["header"]
        binding = header.binding
        assert (header.version, header.key_id) == (expected["version"], expected["key_id"])
        assert (binding.game_id, binding.turn, str(binding.step)) == (
            expected["game_id"],
            expected["turn"],
            expected["step"],
        )
        assert (binding.public_deal, header.acting_seat, str(binding.expires_at)) == (
            expected["public_deal"],
            expected["acting_seat"],
            expected["expires_at"],
        )
