"""The memo of states already checked (engine_service/api/state_memo.py).

Rule: remembering a check never changes an answer. A game played with the memo gets, call for call,
the responses it gets with every state and token checked in full; what is remembered reads back
as remembered; only exact bytes that passed every check are remembered, under the ring that
opened them; the memo stays within its bounds, whatever threads share it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Generator
from typing import Any

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import config_pb2, engine_service_pb2, state_pb2

from engine_service.api import ApiConfig, ApiError, sealed, source
from engine_service.api.state_memo import MAX_KEY_BYTES, OpenedToken, Remembered, StateMemo
from engine_service.codec import state_from_proto, wire
from engine_service.runtime.settings import Settings, defaults_from_env
from engine_service.sealing import Binding, issue_seat_keys, new_game_secret, seal, unseal
from tests.sealing.api import call
from tests.sealing.rings import key_line, ring

RING = ring(key_line("memo-key", 3))
MODULES: tuple[tuple[int, ...], ...] = (
    (),
    (config_pb2.MODULE_CITIES,),
    (config_pb2.MODULE_TRADING_POSTS,),
    (config_pb2.MODULE_STRONGHOLDS,),
    (config_pb2.MODULE_ORIENT,),
)
GAMES = [(players, modules) for modules in MODULES for players in (2, 3, 4)]


def _configs() -> tuple[ApiConfig, ApiConfig]:
    """The same ring with a memo, and without one (every call checks its game in full)."""
    return ApiConfig(RING, memo=StateMemo(64)), ApiConfig(RING, memo=StateMemo(0))


@pytest.fixture
def full_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the full checks of a state (``state_from_proto``) a handler runs on a request's game."""
    count = [0]

    def counted(msg: state_pb2.GameState) -> Any:
        count[0] += 1
        return state_from_proto(msg)

    monkeypatch.setattr(source, "state_from_proto", counted)
    monkeypatch.setattr(sealed, "state_from_proto", counted)
    return count


def _play(
    players: int, modules: tuple[int, ...], *, sealed_game: bool, seed: int, moves: int = 40
) -> Generator[tuple[str, Message], Any, None]:
    """The requests of a random game as a client sends them, each carrying the game the previous call returned
    (as ``call``'s ``memo_on`` config answered it): (method, request), then the response is read back."""
    rng = random.Random(seed)
    config = config_pb2.GameConfig(num_players=players, modules=modules, seed=0 if sealed_game else seed + 1)
    created = yield "CreateGame", engine_service_pb2.CreateGameRequest(config=config, sealed=sealed_game)
    keys = list(created.seat_keys)
    source_field: dict[str, Any] = {"sealed_state": created.sealed_state} if sealed_game else {"state": created.state}
    for _ in range(moves):
        listed = yield "ListLegalActions", engine_service_pb2.ListLegalActionsRequest(**source_field)
        if not listed.actions:
            return
        seat = listed.seat
        access: dict[str, Any] = {"seat": seat, "seat_key": keys[seat]} if sealed_game else {}
        yield "GetPlayerView", engine_service_pb2.GetPlayerViewRequest(**source_field, **access)
        action = rng.choice(list(listed.actions)).action
        request = engine_service_pb2.ApplyActionRequest(
            action=action, include_legal_actions=True, include_observation=True, **source_field, **access
        )
        applied = yield "ApplyAction", request
        source_field = {"sealed_state": applied.sealed_state} if sealed_game else {"state": applied.state}


def _without_token(response: Message) -> Message:
    """The response with its token cleared (a token's nonce is random: two sealings of a state differ)."""
    copy = type(response)()
    copy.CopyFrom(response)
    if "sealed_state" in copy.DESCRIPTOR.fields_by_name:
        copy.ClearField("sealed_state")  # type: ignore[arg-type]
    return copy


def _same_token_content(left: bytes, right: bytes) -> None:
    if left or right:
        assert unseal(RING, left).state_bytes == unseal(RING, right).state_bytes
        assert unseal(RING, left).binding == unseal(RING, right).binding


@pytest.mark.parametrize(("players", "modules"), GAMES)
@pytest.mark.parametrize("sealed_game", [False, True], ids=["plain", "sealed"])
@pytest.mark.parametrize("with_bytes", [True, False], ids=["grpc", "http"])
def test_a_game_played_with_the_memo_gets_the_answers_of_full_checks(
    players: int, modules: tuple[int, ...], sealed_game: bool, with_bytes: bool, full_checks: list[int]
) -> None:
    """``with_bytes``: each request comes with the bytes it was received in (gRPC: a plain state's key read from
    them), or without (HTTP: the key serialized)."""
    memo_on, memo_off = _configs()
    game = _play(players, modules, sealed_game=sealed_game, seed=players * 10 + len(modules))
    method, request = next(game)
    calls = 0
    checks_on = 0
    try:
        while True:
            before = full_checks[0]
            remembered = call(method, request, memo_on, received=None if with_bytes else b"")
            checks_on += full_checks[0] - before
            if method == "CreateGame":  # a sealed deal, its game id and keys are new each time
                method, request = game.send(remembered)
                continue
            checked = call(method, request, memo_off)
            calls += 1
            assert _without_token(remembered).SerializeToString(deterministic=True) == _without_token(
                checked
            ).SerializeToString(deterministic=True), method
            _same_token_content(getattr(remembered, "sealed_state", b""), getattr(checked, "sealed_state", b""))
            method, request = game.send(remembered)
    except StopIteration:
        pass
    assert calls > 20
    # With the memo, each game state is checked in full at most once: the first plain state (CreateGame
    # does not remember it), then every state comes back as this process wrote it.
    assert checks_on <= 1


def test_a_remembered_state_or_token_reads_back_as_what_was_remembered() -> None:
    memo_on, _ = _configs()
    for sealed_game in (False, True):
        for players, modules in GAMES[::2]:
            game = _play(players, modules, sealed_game=sealed_game, seed=players, moves=25)
            method, request = next(game)
            try:
                while True:
                    method, request = game.send(call(method, request, memo_on))
            except StopIteration:
                pass
    memo = memo_on.memo
    # A plain move's new state takes its old state's place: one entry a plain game; a token is kept until evicted.
    assert len(memo.plain) == len(GAMES[::2])
    assert len(memo.tokens) == 64
    for key, state in memo.plain.items():
        assert state_from_proto(state_pb2.GameState.FromString(key)) == state
    for token, opened in memo.tokens.items():
        content = unseal(RING, token)
        assert opened.binding == content.binding
        assert opened.state_bytes == content.state_bytes
        assert state_from_proto(state_pb2.GameState.FromString(content.state_bytes)) == opened.state
        assert opened.ring is RING


def _sealed_game(config: ApiConfig) -> engine_service_pb2.CreateGameResponse:
    request = engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=3), sealed=True)
    response: engine_service_pb2.CreateGameResponse = call("CreateGame", request, config)
    return response


def test_an_altered_token_is_checked_in_full_and_refused() -> None:
    memo_on, _ = _configs()
    token = _sealed_game(memo_on).sealed_state
    assert memo_on.memo.token(token, RING) is not None
    for position in (len(token) - 1, len(token) - 20, 3 + len("memo-key") + 16):
        altered = bytearray(token)
        altered[position] ^= 0x01
        with pytest.raises(ApiError) as refused:
            call("GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=bytes(altered)), memo_on)
        assert refused.value.reason == "SEALED_STATE_INVALID"
        assert memo_on.memo.token(bytes(altered), RING) is None


def test_a_state_that_fails_its_checks_is_never_remembered() -> None:
    memo_on, memo_off = _configs()
    created = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2)))
    state = created.state
    state.bank.white += 1  # one gem too many: the conservation check fails
    request = engine_service_pb2.ListLegalActionsRequest(state=state)
    refusals = []
    for config in (memo_on, memo_on, memo_off):
        with pytest.raises(ApiError) as refused:
            call("ListLegalActions", request, config)
        refusals.append((refused.value.code, refused.value.reason, refused.value.message))
    assert refusals[0] == refusals[1] == refusals[2]
    assert len(memo_on.memo.plain) == 0


def test_a_token_remembered_under_one_ring_opens_under_no_other() -> None:
    shared = StateMemo(16)
    first = ApiConfig(RING, memo=shared)
    other = ApiConfig(ring(key_line("other-key", 4)), memo=shared)
    token = _sealed_game(first).sealed_state
    assert shared.token(token, RING) is not None
    with pytest.raises(ApiError) as refused:
        call("GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=token), other)
    assert refused.value.reason == "SEALED_STATE_KEY_UNKNOWN"


def test_a_seat_key_is_remembered_for_its_game_and_seat_only() -> None:
    memo_on, _ = _configs()
    created = _sealed_game(memo_on)
    other_game = _sealed_game(memo_on)
    keys = list(created.seat_keys)
    token = created.sealed_state

    def view(seat: int, key: str, game_token: bytes = token) -> engine_service_pb2.GetPlayerViewResponse:
        request = engine_service_pb2.GetPlayerViewRequest(sealed_state=game_token, seat=seat, seat_key=key)
        response: engine_service_pb2.GetPlayerViewResponse = call("GetPlayerView", request, memo_on)
        return response

    assert view(0, keys[0]).view.viewer_seat == 0  # issued by CreateGame, remembered
    # The last character of a key is one of four (the MAC's last 2 bits): change it to another one.
    altered = keys[0][:-1] + ("Q" if keys[0].endswith("A") else "A")
    wrong = [(1, keys[0], token), (0, keys[1], token), (0, altered, token)]
    wrong.append((0, keys[0], other_game.sealed_state))
    for seat, key, game_token in wrong * 2:  # refused, and still refused: a failed check is not remembered
        with pytest.raises(ApiError) as refused:
            view(seat, key, game_token)
        assert refused.value.reason == "SEAT_KEY_INVALID"
    fresh = StateMemo(16)  # a key checked by its MAC is remembered too
    checked_config = ApiConfig(RING, memo=fresh)
    request = engine_service_pb2.GetPlayerViewRequest(sealed_state=token, seat=2, seat_key=keys[2])
    call("GetPlayerView", request, checked_config)
    opened = unseal(RING, token)
    game_id, secret = opened.game_id, opened.game_secret
    assert fresh.seat_key_known(RING, game_id, secret, 2, keys[2])
    assert not fresh.seat_key_known(RING, game_id, secret, 1, keys[2])
    assert not fresh.seat_key_known(RING, game_id, b"", 2, keys[2])  # a game without a secret: the ring's keys
    assert fresh.seat_key_known(ring(key_line("other-key", 4)), game_id, secret, 2, keys[2])  # no ring in it


def test_a_seat_key_remembered_for_a_game_answers_only_for_the_secret_it_was_checked_under() -> None:
    """A key holder may seal a second game under the same game id with another secret: the first game's keys,
    remembered, must not open it, nor its keys the first game."""
    memo_on, _ = _configs()
    created = _sealed_game(memo_on)
    opened = unseal(RING, created.sealed_state)
    impostor = seal(RING, opened.state_bytes, opened.binding, new_game_secret())
    impostor_keys = issue_seat_keys(unseal(RING, impostor).game_secret, opened.game_id, 3)
    for token, key in ((impostor, created.seat_keys[0]), (created.sealed_state, impostor_keys[0])):
        for _ in range(2):
            request = engine_service_pb2.GetPlayerViewRequest(sealed_state=token, seat=0, seat_key=key)
            with pytest.raises(ApiError) as refused:
                call("GetPlayerView", request, memo_on)
            assert refused.value.reason == "SEAT_KEY_INVALID"
    request = engine_service_pb2.GetPlayerViewRequest(sealed_state=impostor, seat=0, seat_key=impostor_keys[0])
    assert call("GetPlayerView", request, memo_on).view.viewer_seat == 0


# Field 2000 (unknown to this version) as a varint, at the top level and inside ``bank`` (field 2, merged into it).
UNKNOWN_FIELDS = b"\x80\x7d\x07" + b"\x12\x03\x80\x7d\x01"


def test_fields_a_token_carries_that_this_version_does_not_know_are_dropped_when_it_opens() -> None:
    """A key holder (or a newer replica) may seal fields this version does not know: they reach no view and no
    new token, and the memo remembers the state without them, so a remembered token's message needs no sweep."""
    memo_on, memo_off = _configs()
    created = _sealed_game(memo_on)
    clean = created.sealed_state
    content = unseal(RING, clean)
    padded = content.state_bytes + UNKNOWN_FIELDS
    assert state_pb2.GameState.FromString(padded).SerializeToString() != content.state_bytes  # they travel
    forged = seal(RING, padded, content.binding, content.game_secret)
    seat = state_from_proto(state_pb2.GameState.FromString(content.state_bytes)).acting_seat
    listed = call("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(sealed_state=clean), memo_off)
    key = created.seat_keys[seat]
    action = listed.actions[0].action

    def answers(token: bytes, config: ApiConfig) -> tuple[bytes, bytes, bytes]:
        view_request = engine_service_pb2.GetPlayerViewRequest(sealed_state=token)
        view = call("GetPlayerView", view_request, config).view.SerializeToString(deterministic=True)
        request = engine_service_pb2.ApplyActionRequest(
            sealed_state=token, action=action, seat=seat, seat_key=key, include_legal_actions=True
        )
        applied = call("ApplyAction", request, config)
        new_content = unseal(RING, applied.sealed_state).state_bytes
        return view, _without_token(applied).SerializeToString(deterministic=True), new_content

    expected = answers(clean, memo_off)
    assert answers(forged, memo_off) == expected
    assert answers(forged, memo_on) == expected  # opened in full, then remembered
    assert answers(forged, memo_on) == expected  # from the memo
    remembered = memo_on.memo.token(forged, RING)
    assert remembered is not None and remembered.state_bytes == content.state_bytes


def test_a_plain_state_with_fields_this_version_does_not_know_is_remembered_without_them() -> None:
    """Sent with unknown fields, a plain state gets the answer of its clean bytes, with the memo or without, and the
    memo holds only the clean bytes: every state read from it has no unknown field to drop (``update_state``)."""
    memo_on, memo_off = _configs()
    state = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2))).state
    clean = state.SerializeToString(deterministic=True)
    padded = state_pb2.GameState.FromString(clean + UNKNOWN_FIELDS)
    action = call("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=state), memo_off).actions[0]

    def answer(sent: state_pb2.GameState, config: ApiConfig) -> bytes:
        request = engine_service_pb2.ApplyActionRequest(state=sent, action=action.action, include_legal_actions=True)
        return call("ApplyAction", request, config).SerializeToString(deterministic=True)  # type: ignore[no-any-return]

    expected = answer(state, memo_off)
    assert answer(padded, memo_off) == expected
    assert answer(padded, memo_on) == expected  # checked in full
    assert answer(padded, memo_on) == expected  # checked in full again: its bytes are no key
    padded_key = padded.SerializeToString(deterministic=True)
    assert memo_on.memo.plain.get(padded_key) is None
    # What it holds: the state the move made (in the clean state's place, remembered after its check), clean.
    made = engine_service_pb2.ApplyActionResponse.FromString(expected).state
    assert [key for key, _ in memo_on.memo.plain.items()] == [made.SerializeToString(deterministic=True)]
    for key, _ in memo_on.memo.plain.items():
        read = state_pb2.GameState.FromString(key)
        read.DiscardUnknownFields()
        assert read.SerializeToString(deterministic=True) == key


def test_the_memo_keeps_the_most_recently_used_entries_up_to_its_bound() -> None:
    memo: Remembered[int] = Remembered(2)
    memo.put(b"a", 1)
    memo.put(b"b", 2)
    assert memo.get(b"a") == 1  # a is now the most recently used
    memo.put(b"c", 3)
    assert (memo.get(b"a"), memo.get(b"b"), memo.get(b"c")) == (1, None, 3)
    memo.put(b"x" * (MAX_KEY_BYTES + 1), 4)
    assert memo.get(b"x" * (MAX_KEY_BYTES + 1)) is None
    assert len(memo) == 2
    off: Remembered[int] = Remembered(0)
    off.put(b"a", 1)
    assert off.get(b"a") is None
    assert len(off) == 0
    with pytest.raises(ValueError, match="at least 0"):
        Remembered(-1)
    assert not StateMemo(0).enabled


def test_threads_sharing_the_memo_keep_it_within_its_bound() -> None:
    memo: Remembered[int] = Remembered(50)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(20_000):
                key = rng.randrange(200).to_bytes(2, "big")
                if rng.random() < 0.5:
                    memo.put(key, seed)
                else:
                    memo.get(key)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(memo) == 50


def test_the_state_memo_size_is_a_setting() -> None:
    assert Settings().state_memo_entries == 4096
    assert defaults_from_env({"SPLENDOR_STATE_MEMO_ENTRIES": "0"}).state_memo_entries == 0
    with pytest.raises(ValueError, match="state_memo_entries"):
        Settings(state_memo_entries=-1)
    shared = StateMemo(8)
    settings = Settings(state_memo_entries=8)
    assert settings.api_config(RING, shared).memo is shared  # the process's, shared by its transports
    assert settings.api_config(RING).memo.entries == 8


def test_remembered_tokens_name_their_ring() -> None:
    created = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2)))
    entry = OpenedToken(b"", state_from_proto(created.state), Binding("0" * 32, 0, 0), RING)
    memo = StateMemo(4)
    memo.tokens.put(b"token", entry)
    assert memo.token(b"token", RING) is entry
    assert memo.token(b"token", ring(key_line("memo-key", 3))) is None  # an equal ring, but not this one


# --- a plain state's key read from the bytes received (source.received_state), and a move's state replacing its
# old one (encoding.encoded) ------------------------------------------------------------------------------------


def _moved(config: ApiConfig) -> tuple[state_pb2.GameState, engine_service_pb2.ApplyActionRequest, Message]:
    """A plain game's state after one move (remembered by ``config``'s memo), the next move's request, its answer."""
    created = call("CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2)))
    first = call("ApplyAction", _first_move(created.state), config).state
    request = _first_move(first)
    return first, request, call("ApplyAction", request, config)


def _first_move(state: state_pb2.GameState) -> engine_service_pb2.ApplyActionRequest:
    listed = call("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=state))
    request = engine_service_pb2.ApplyActionRequest(state=state, include_legal_actions=True)
    request.action.action_id = listed.actions[0].action_id
    return request


def test_a_move_s_new_state_takes_its_old_state_s_place_and_a_retry_is_checked_in_full(full_checks: list[int]) -> None:
    memo_on, memo_off = _configs()
    before, request, answered = _moved(memo_on)
    keys = [key for key, _ in memo_on.memo.plain.items()]
    assert keys == [answered.state.SerializeToString(deterministic=True)]  # the state the game is at, alone
    assert before.SerializeToString(deterministic=True) not in keys
    checks = full_checks[0]
    retried = call("ApplyAction", request, memo_on)  # the old state again (a retry): checked, same answer
    assert full_checks[0] == checks + 1
    assert retried == answered == call("ApplyAction", request, memo_off)


def test_a_state_whose_bytes_are_in_another_order_is_found_under_its_serialized_bytes(full_checks: list[int]) -> None:
    memo_on, memo_off = _configs()
    answered = _moved(memo_on)[2]
    state = answered.state
    # The same state, its fields written last to first (a parser reads any order): not the bytes remembered.
    reordered = b"".join(
        type(state)(**{field.name: value}).SerializeToString() for field, value in reversed(state.ListFields())
    )
    assert reordered != state.SerializeToString() and type(state).FromString(reordered) == state
    next_request = _first_move(state)
    received = bytes(next_request.SerializeToString().replace(state.SerializeToString(), reordered))
    checks = full_checks[0]
    found = call("ApplyAction", next_request, memo_on, received=received)
    assert full_checks[0] == checks  # found under the bytes serialized again: not checked
    assert found == call("ApplyAction", next_request, memo_off)


def test_a_state_sent_twice_in_one_request_is_read_as_the_parser_merges_it() -> None:
    """A request carrying ``state`` twice: the parser merges the two, so the first occurrence's bytes (a state the
    memo holds) are not the request's state; the answer is the merged state's, as a memo never consulted gives."""
    memo_on, memo_off = _configs()
    _, _, answered = _moved(memo_on)
    request = _first_move(answered.state)
    extra = engine_service_pb2.ApplyActionRequest(state=state_pb2.GameState(turn=answered.state.turn + 7))
    received = request.SerializeToString() + extra.SerializeToString()
    merged = engine_service_pb2.ApplyActionRequest.FromString(received)
    assert merged.state.turn == answered.state.turn + 7 and merged.state != answered.state

    def outcome(config: ApiConfig, data: bytes | None) -> Any:
        try:
            return call("ApplyAction", merged, config, received=data)
        except ApiError as refused:
            return refused.code, refused.reason, refused.message

    assert outcome(memo_on, received) == outcome(memo_off, b"")
    assert source.received_state(received) == b""  # twice: not read from the bytes


def test_a_batch_item_s_state_is_found_under_its_bytes_and_its_new_state_remembered(full_checks: list[int]) -> None:
    memo_on, memo_off = _configs()
    states = [_moved(memo_on)[2].state for _ in range(3)]
    batch = engine_service_pb2.BatchApplyActionsRequest(requests=[_first_move(state) for state in states])
    checks = full_checks[0]
    answered = call("BatchApplyActions", batch, memo_on)
    assert full_checks[0] == checks  # every item's state found, none checked
    assert answered == call("BatchApplyActions", batch, memo_off)
    remembered = {key for key, _ in memo_on.memo.plain.items()}
    assert remembered == {result.response.state.SerializeToString() for result in answered.results}


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=64), number=st.integers(1, 20))
def test_reading_field_spans_never_fails_on_any_bytes(data: bytes, number: int) -> None:
    spans = wire.field_spans(data, number)
    if spans is not None:
        assert all(0 <= start <= end <= len(data) for start, end in spans)


_ITEMS = st.lists(
    st.builds(
        engine_service_pb2.ApplyActionRequest,
        state=st.builds(state_pb2.GameState, turn=st.integers(0, 300), seat=st.integers(0, 3)) | st.none(),
        sealed_state=st.binary(max_size=40) | st.none(),
        seat_key=st.text(max_size=8),
        include_legal_action_ids=st.booleans(),
        reply_seeds=st.lists(st.integers(0, 2**64 - 1), max_size=3),
    ),
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(items=_ITEMS)
def test_field_spans_find_each_batch_item_and_its_state_as_the_parser_reads_them(
    items: list[engine_service_pb2.ApplyActionRequest],
) -> None:
    data = engine_service_pb2.BatchApplyActionsRequest(requests=items).SerializeToString()
    spans = wire.field_spans(data, 1)
    assert spans is not None
    assert [engine_service_pb2.ApplyActionRequest.FromString(data[start:end]) for start, end in spans] == items
    for item, (start, end) in zip(items, spans, strict=True):
        state = wire.single_field(data, 1, start, end)
        if item.WhichOneof("state_source") == "state":
            assert state is not None and data[state[0] : state[1]] == item.state.SerializeToString()
        else:
            assert state is None
