"""The checks every runner makes, on small examples: references, tampering, normalisation, presence."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st
from splendor_client.conformance.vectors import (
    VectorError,
    first_difference,
    flip_last_byte,
    missing,
    normalised,
    resolve,
    with_states,
)

ANSWER = {"sealedState": "AQID", "seatKeys": ["k0", "k1"], "sealedStateBinding": {"gameId": "ab", "step": "3"}}


def test_a_reference_takes_the_value_from_an_earlier_answer() -> None:
    request = {"sealedState": {"$from": [0, "sealedState"]}, "seatKey": {"$from": [0, "seatKeys", 1]}, "seat": 1}
    assert resolve(request, [ANSWER]) == {"sealedState": "AQID", "seatKey": "k1", "seat": 1}


@pytest.mark.parametrize(
    "reference",
    [[1, "sealedState"], [0, "nothing"], [0, "seatKeys", 5], ["0", "sealedState"]],
)
def test_a_reference_to_nothing_is_a_vector_error(reference: list[object]) -> None:
    with pytest.raises(VectorError):
        resolve({"x": {"$from": reference}}, [ANSWER])


def test_a_reference_to_a_refused_step_is_a_vector_error() -> None:
    with pytest.raises(VectorError, match="no response"):
        resolve({"$from": [0, "sealedState"]}, [None])


@given(st.binary(min_size=1, max_size=64))
def test_flipping_the_last_byte_changes_that_bit_only(data: bytes) -> None:
    for encoded in (base64.b64encode(data).decode(), base64.urlsafe_b64encode(data).decode().rstrip("=")):
        flipped = base64.b64decode(flip_last_byte(encoded))
        assert flipped[:-1] == data[:-1] and flipped[-1] == data[-1] ^ 1


def test_a_tampered_reference_flips_the_referenced_token() -> None:
    assert resolve({"$from": [0, "sealedState"], "$tamper": "flip-last-byte"}, [ANSWER]) == "AQIC"


def test_normalising_replaces_values_with_placeholders_and_keeps_list_lengths() -> None:
    paths = (("sealedState",), ("seatKeys", "*"), ("sealedStateBinding", "gameId"), ("absent", "field"))
    assert normalised(ANSWER, paths) == {
        "sealedState": "",
        "seatKeys": ["", ""],
        "sealedStateBinding": {"gameId": "", "step": "3"},
    }
    assert normalised({"events": [{"a": 1}], "view": {"b": True}}, (("events",), ("view",))) == {
        "events": [],
        "view": {},
    }


def test_a_normalised_value_the_expected_answer_has_must_be_in_the_actual_one() -> None:
    expected = normalised(ANSWER, (("sealedState",), ("seatKeys", "*")))
    assert missing(expected, ANSWER, (("sealedState",), ("seatKeys", "*"))) == []
    assert missing(expected, {"seatKeys": ["k"]}, (("sealedState",), ("seatKeys", "*"))) == ["sealedState"]
    assert missing({}, {}, (("sealedState",),)) == []


def test_states_are_shared_by_name() -> None:
    states = {"s1": {"turn": 4}}
    assert with_states({"state": {"$state": "s1"}, "seat": 0}, states) == {"state": {"turn": 4}, "seat": 0}
    with pytest.raises(VectorError, match="no state named"):
        with_states({"state": {"$state": "s2"}}, states)


def test_the_first_difference_names_its_place() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "a[1].b: expected 2, got 3"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "a: expected 1 items, got 2"
    assert first_difference({"a": 1}, {}) == "a: expected 1, got nothing"
    assert first_difference({"a": 1}, {"a": 1}) is None
