"""The key ring's text format, its loading from a variable or a file, and the generated fallback."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from engine_service.sealing import (
    EXAMPLE_KEYS,
    KeyRing,
    KeyRingError,
    KeyUnknown,
    load_key_ring,
    parse_key_ring,
    seal,
    unseal,
)
from tests.sealing.rings import BINDING, STATE, key_line

KEY_A = key_line("a", 1)
KEY_B = key_line("b", 2)


def test_the_first_key_seals_and_comments_blank_lines_and_commas_are_accepted() -> None:
    ring = parse_key_ring(f"# newest first\n\n  {KEY_A}  \n{KEY_B}, c:retired\n")
    assert ring.current_id == "a"
    assert set(ring.keys) == {"a", "b"}
    assert ring.retired == {"c"}
    assert not ring.generated
    assert parse_key_ring(f"{KEY_B},{KEY_A}").current_id == "b"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no key"),
        ("# only a comment", "no key"),
        ("a:retired", "must be a key, not retired"),
        ("justsomething", "line 1: expected KEY_ID:BASE64KEY"),
        (f"{KEY_A}\nb:", "line 2: expected KEY_ID:BASE64KEY"),
        ("bad id:" + KEY_A.split(":")[1], "key id 'bad id'"),
        (":" + KEY_A.split(":")[1], "key id ''"),
        ("x" * 33 + ":" + KEY_A.split(":")[1], "1-32 characters"),
        ("a:not base64!!", "not valid base64"),
        ("a:" + base64.b64encode(bytes(16)).decode(), "is 16 bytes; a key is 32"),
        (f"{KEY_A}\n{KEY_A}", "line 2: key id 'a' is listed twice"),
        (f"{KEY_A}\na:retired", "line 2: key id 'a' is listed twice"),
    ],
)
def test_a_malformed_ring_is_refused_naming_the_line_and_the_fault(text: str, message: str) -> None:
    with pytest.raises(KeyRingError, match=message):
        parse_key_ring(text)


def test_error_messages_never_echo_key_material() -> None:
    secret = KEY_A.split(":")[1]
    for text in (secret, f"{KEY_A}\n{secret}", f"{KEY_A}\nbad id:{secret}"):
        with pytest.raises(KeyRingError) as refused:
            parse_key_ring(text)
        assert secret not in str(refused.value)
        assert secret[:8] not in str(refused.value)


def test_the_ring_repr_shows_ids_but_no_key() -> None:
    ring = parse_key_ring(KEY_A)
    assert "'a'" in repr(ring)
    assert KEY_A.split(":")[1] not in repr(ring)
    assert str(ring.keys["a"]) not in repr(ring)


def test_load_from_the_variable_text(tmp_path: Path) -> None:
    assert load_key_ring(keys_text=f"{KEY_A},{KEY_B}").current_id == "a"


def test_load_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    path.write_text(f"{KEY_B}\n{KEY_A}\n")
    assert load_key_ring(keys_file=str(path)).current_id == "b"


def test_a_missing_or_bad_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(KeyRingError, match=r"cannot read the sealing keys file .*missing"):
        load_key_ring(keys_file=str(tmp_path / "missing"))
    path = tmp_path / "keys"
    path.write_text("a:short")
    with pytest.raises(KeyRingError, match=re.escape(f"{path}, line 1")):
        load_key_ring(keys_file=str(path))


def test_both_a_file_and_the_variable_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "keys"
    path.write_text(KEY_A)
    with pytest.raises(KeyRingError, match="not both"):
        load_key_ring(keys_text=KEY_B, keys_file=str(path))


def test_without_configuration_a_fresh_key_is_generated_and_flagged() -> None:
    first, second = load_key_ring(), load_key_ring(keys_text="  \n")
    assert first.generated and second.generated
    assert first.current_id != second.current_id
    assert first.current_id.startswith("ephemeral-")
    token = seal(first, STATE, BINDING)
    assert unseal(first, token).state_bytes == STATE
    # Another process's generated key (another replica, or after a restart) cannot open it.
    with pytest.raises(KeyUnknown):
        unseal(second, token)


def test_a_ring_holding_the_published_example_key_says_so() -> None:
    (example,) = EXAMPLE_KEYS
    ring = parse_key_ring(f"{KEY_A}\nexample:{base64.b64encode(example).decode()}")
    assert ring.uses_example_key
    assert not parse_key_ring(KEY_A).uses_example_key
    assert not KeyRing.generate().uses_example_key


def test_a_ring_built_directly_is_checked_too() -> None:
    with pytest.raises(KeyRingError, match="current key"):
        KeyRing(current_id="x", keys={"a": bytes(32)})
    with pytest.raises(KeyRingError, match="is 16 bytes"):
        KeyRing(current_id="a", keys={"a": bytes(16)})
    with pytest.raises(KeyRingError, match="both listed and retired"):
        KeyRing(current_id="a", keys={"a": bytes(32)}, retired=frozenset({"a"}))
