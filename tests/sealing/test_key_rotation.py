"""Rotation: the newest key seals, older keys still open until retired, so games in flight survive."""

from __future__ import annotations

import pytest

from engine_service.sealing import KeyRetired, KeyUnknown, seal, unseal
from tests.sealing.rings import BINDING, STATE, key_line, ring


def test_after_rotation_the_new_key_seals_and_the_old_key_still_opens() -> None:
    before = ring(key_line("2026-01", 1))
    in_flight = seal(before, STATE, BINDING)
    after = ring(key_line("2026-06", 2), key_line("2026-01", 1))
    assert unseal(after, in_flight).key_id == "2026-01"
    fresh = seal(after, STATE, BINDING)
    assert unseal(after, fresh).key_id == "2026-06"
    # A replica not yet rotated cannot open the new key's tokens: roll the key out before it seals.
    with pytest.raises(KeyUnknown):
        unseal(before, fresh)


def test_a_ring_that_lists_the_new_key_second_opens_but_does_not_seal_with_it() -> None:
    """The rollout step: every replica learns the new key before any replica seals with it."""
    staged = ring(key_line("2026-01", 1), key_line("2026-06", 2))
    switched = ring(key_line("2026-06", 2), key_line("2026-01", 1))
    assert unseal(staged, seal(switched, STATE, BINDING)).key_id == "2026-06"
    assert unseal(switched, seal(staged, STATE, BINDING)).key_id == "2026-01"


def test_retiring_the_old_key_refuses_its_tokens_and_keeps_the_new_ones() -> None:
    old_token = seal(ring(key_line("2026-01", 1)), STATE, BINDING)
    retired = ring(key_line("2026-06", 2), "2026-01:retired")
    with pytest.raises(KeyRetired):
        unseal(retired, old_token)
    assert unseal(retired, seal(retired, STATE, BINDING)).state_bytes == STATE


def test_removing_the_old_key_refuses_its_tokens_as_unknown() -> None:
    old_token = seal(ring(key_line("2026-01", 1)), STATE, BINDING)
    with pytest.raises(KeyUnknown):
        unseal(ring(key_line("2026-06", 2)), old_token)
