"""Protobuf <-> core conversion: exact round trips, and every malformed state refused as INVALID_STATE."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from google.protobuf.message import Message
from splendor.v1 import actions_pb2, common_pb2, config_pb2, engine_service_pb2, state_pb2

from engine_service.codec import (
    action_from_proto,
    action_to_proto,
    config_from_proto,
    events_from_proto,
    fill_events,
    fill_gems,
    fill_state,
    fill_tokens,
    gems_from_proto,
    state_from_proto,
    state_to_proto,
    tokens_from_proto,
    update_state,
)
from engine_service.codec import state as convert
from engine_service.rules import (
    ACTION_ID_COUNT,
    CARDS,
    DecisionKind,
    GameConfig,
    GameState,
    PendingDecision,
    PlayerState,
    Reason,
    RuleViolation,
    TakeGems,
    action_from_id,
    apply,
    events_for,
    new_game,
)
from engine_service.rules.turn import qualifying_nobles
from tests.server.positions import dealt, give_purchased, give_tokens, qualifying_for, random_game, random_states

PLAYER_COUNTS = (2, 3, 4)


def _wire(state: GameState) -> state_pb2.GameState:
    """The state as a client would send it back: serialized and parsed again."""
    return state_pb2.GameState.FromString(state_to_proto(state).SerializeToString())


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_round_trip_of_random_game_states(num_players: int) -> None:
    states = random_states(num_players, seed=100 + num_players, every=3)
    assert states[-1].is_over or states[-1].turn > 0
    for state in states:
        assert state_from_proto(_wire(state)) == state


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [200, 201, 202])
def test_update_state_writes_exactly_what_fill_state_writes(num_players: int, seed: int) -> None:
    for before, action, after, _ in random_game(num_players, seed=seed * 10 + num_players):
        read = state_from_proto(_wire(before))
        # As ApplyAction does (the new state shares the parts the move left alone), as
        # validate_only does, and from a state sharing nothing with the message read.
        for old, new in ((read, apply(read, action)[0]), (read, read), (read, after)):
            patched = _wire(before)
            update_state(patched, old, new)
            expected = state_to_proto(new)
            assert patched.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


def _with_unknown_fields(message: state_pb2.GameState) -> None:
    """Fields from a newer schema (number 31, unknown here) at every level the service reads."""
    unknown = b"\xf8\x01\x05"
    targets: list[Message] = [message, message.config, message.bank, message.decks[0], message.market[0]]
    targets += [message.market[0].slots[1], message.players[0], message.players[0].tokens]
    targets += [reserved for player in message.players for reserved in player.reserved]
    for target in targets:
        target.MergeFromString(unknown)


def test_unknown_fields_are_read_past_and_never_echoed() -> None:
    checked = 0
    for before, _, after, _ in random_game(3, seed=31):
        message = _wire(before)
        _with_unknown_fields(message)
        assert state_from_proto(message) == before
        update_state(message, before, after)
        assert message.SerializeToString(deterministic=True) == state_to_proto(after).SerializeToString(
            deterministic=True
        )
        checked += any(player.reserved for player in before.players)
    assert checked  # reserved cards carried unknown fields too


def test_market_rows_read_alike_on_both_paths() -> None:
    """Full rows of small ids are read from their wire form; any other row slot by slot."""
    message = _wire(dealt(2, seed=8))
    rows = [[5, 0, 17, 3], [5, None, 0, None], [None] * 4, [200, 1, 2, 3], [], [1, 2, 3, 4, 5]]
    for row in rows:
        msg = state_pb2.MarketRow()
        for card_id in row:
            msg.slots.add() if card_id is None else msg.slots.add(card_id=card_id)
        message.market[0].CopyFrom(msg)
        assert convert.row_from_proto(message.market[0]) == tuple(row)
    message.market[0].slots[2].MergeFromString(b"\xf8\x01\x05")
    assert convert.row_from_proto(message.market[0]) == (1, 2, 3, 4, 5)


def test_fast_records_have_every_field() -> None:
    """The reader builds records with ``tuple.__new__``: a field added to them must be read too."""
    state = state_from_proto(_wire(random_states(2, seed=3)[-1]))
    assert len(state.config) == len(GameConfig._fields)
    assert all(len(player) == len(PlayerState._fields) for player in state.players)


def test_derived_fields_are_ignored_on_input_and_filled_on_output() -> None:
    *_, (_, _, final, _) = random_game(3, seed=5)
    assert final.is_over
    message = _wire(final)
    assert list(message.winners) == list(final.winners) and message.round == final.round
    message.round = 999
    message.winners[:] = [2, 1, 0]
    assert state_from_proto(message) == final
    update_state(message, final, final)
    assert list(message.winners) == list(final.winners) and message.round == final.round


def test_colors_map_to_core_indices_plus_one() -> None:
    action = action_from_proto(
        actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=[common_pb2.COLOR_WHITE, common_pb2.COLOR_BLACK]))
    )
    assert action == TakeGems((0, 4))
    assert list(action_to_proto(TakeGems((1, 3))).take_gems.colors) == [common_pb2.COLOR_BLUE, common_pb2.COLOR_RED]


def test_every_action_id_round_trips_through_its_proto_form() -> None:
    for value in range(ACTION_ID_COUNT):
        action = action_from_id(value)
        assert action_from_proto(action_to_proto(action)) == action
        assert action_from_proto(actions_pb2.Action(action_id=value)) == action


@pytest.mark.parametrize(
    ("action", "reason", "field"),
    [
        (actions_pb2.Action(), Reason.UNKNOWN_ACTION, ""),
        (actions_pb2.Action(action_id=ACTION_ID_COUNT), Reason.UNKNOWN_ACTION, "action_id"),
        (
            actions_pb2.Action(take_two_gems=actions_pb2.TakeTwoGems(color=common_pb2.COLOR_UNSPECIFIED)),
            Reason.INVALID_COLOR,
            "take_two_gems.color",
        ),
        (
            actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=[common_pb2.COLOR_RED, 42])),  # type: ignore[list-item]
            Reason.INVALID_COLOR,
            "take_gems.colors[1]",
        ),
    ],
)
def test_malformed_actions_are_refused(action: actions_pb2.Action, reason: Reason, field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        action_from_proto(action)
    assert caught.value.reason is reason
    assert caught.value.details["field"] == field


def test_unspecified_module_is_refused_with_its_field() -> None:
    config = config_pb2.GameConfig(num_players=2, modules=[config_pb2.MODULE_UNSPECIFIED])
    with pytest.raises(RuleViolation) as caught:
        config_from_proto(config)
    assert caught.value.reason is Reason.UNKNOWN_MODULE
    assert caught.value.details["field"] == "config.modules[0]"


def test_first_seat_presence_survives_the_round_trip() -> None:
    assert config_from_proto(config_pb2.GameConfig(num_players=2, seed=3)).first_seat is None
    assert config_from_proto(config_pb2.GameConfig(num_players=2, seed=3, first_seat=0)).first_seat == 0


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_events_round_trip_and_redact(num_players: int) -> None:
    config = GameConfig(num_players, 9)
    events = list(new_game(config)[1])
    for _, _, _, step in random_game(num_players, seed=9):
        events.extend(step)
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, events)
    assert events_from_proto(response.events) == tuple(events)
    kinds = {event.WhichOneof("kind") for event in response.events}
    assert {"game_started", "card_revealed", "turn_ended", "game_ended"} <= kinds
    for viewer in (None, *range(num_players)):
        assert events_for(tuple(events), viewer) == events_for(events_from_proto(response.events), viewer)


# --- malformed states ---------------------------------------------------------------------------


def _base() -> state_pb2.GameState:
    state = give_tokens(dealt(3, seed=4), 1, (1, 1, 1, 0, 0, 0))
    state = give_purchased(state, 1, [CARDS[0].id, CARDS[45].id])
    return state_to_proto(state)


def _set_deck_card(msg: state_pb2.GameState) -> None:
    msg.decks[0].card_ids[0] = 5000


def _purchase_unknown(msg: state_pb2.GameState) -> None:
    msg.players[0].purchased_card_ids.append(4_294_967_295)


def _too_many_tokens(msg: state_pb2.GameState) -> None:
    msg.players[1].tokens.red = 1_000_000


def _bank_short(msg: state_pb2.GameState) -> None:
    msg.bank.white -= 1


def _card_twice(msg: state_pb2.GameState) -> None:
    msg.players[2].purchased_card_ids.append(msg.decks[1].card_ids[0])


def _seat_out_of_range(msg: state_pb2.GameState) -> None:
    msg.seat = 3


def _first_seat_out_of_range(msg: state_pb2.GameState) -> None:
    msg.first_seat = 7


def _wrong_bonuses(msg: state_pb2.GameState) -> None:
    msg.players[1].bonuses.green += 1


def _wrong_prestige(msg: state_pb2.GameState) -> None:
    msg.players[1].prestige += 3


def _two_decks(msg: state_pb2.GameState) -> None:
    del msg.decks[2]
    del msg.market[2]


def _row_without_deck(msg: state_pb2.GameState) -> None:
    msg.market.add()


def _five_slots(msg: state_pb2.GameState) -> None:
    msg.market[0].slots.add()


def _missing_player(msg: state_pb2.GameState) -> None:
    del msg.players[2]


def _reserved_without_id(msg: state_pb2.GameState) -> None:
    card = msg.decks[0].card_ids.pop()
    msg.players[0].reserved.add(deck=0)
    del card


def _reserved_wrong_deck(msg: state_pb2.GameState) -> None:
    card = msg.decks[0].card_ids.pop()
    msg.players[0].reserved.add(card_id=card, deck=2)


def _unknown_noble(msg: state_pb2.GameState) -> None:
    msg.noble_ids[0] = 77


def _unknown_end_reason(msg: state_pb2.GameState) -> None:
    msg.end_reason = 9  # type: ignore[assignment]


def _unknown_decision(msg: state_pb2.GameState) -> None:
    msg.pending_decision.kind = 42  # type: ignore[assignment]
    msg.pending_decision.seat = msg.seat


def _return_tokens_with_options(msg: state_pb2.GameState) -> None:
    msg.pending_decision.kind = state_pb2.DECISION_KIND_RETURN_TOKENS
    msg.pending_decision.amount = 1
    msg.pending_decision.options.append(1)


def _pending_without_excess(msg: state_pb2.GameState) -> None:
    msg.pending_decision.kind = state_pb2.DECISION_KIND_RETURN_TOKENS
    msg.pending_decision.seat = msg.seat
    msg.pending_decision.amount = 2


def _ranking_in_progress(msg: state_pb2.GameState) -> None:
    msg.ranking.add(seat=0, place=1)


def _module_unspecified(msg: state_pb2.GameState) -> None:
    msg.config.modules.append(config_pb2.MODULE_UNSPECIFIED)


MALFORMED: dict[str, tuple[Callable[[state_pb2.GameState], None], str]] = {
    "unknown card id in a deck": (_set_deck_card, "decks[0]"),
    "unknown purchased card id": (_purchase_unknown, "players[0]"),
    "too many tokens": (_too_many_tokens, "bank"),
    "tokens missing": (_bank_short, "bank"),
    "a card in two places": (_card_twice, "decks"),
    "seat out of range": (_seat_out_of_range, "seat"),
    "first seat out of range": (_first_seat_out_of_range, "first_seat"),
    "wrong bonuses": (_wrong_bonuses, "players[1].bonuses"),
    "wrong prestige": (_wrong_prestige, "players[1].prestige"),
    "two decks": (_two_decks, "decks"),
    "a market row without a deck": (_row_without_deck, "market"),
    "five market slots": (_five_slots, "market[0]"),
    "a missing player": (_missing_player, "players"),
    "reserved card without id": (_reserved_without_id, "players[0].reserved[0].card_id"),
    "reserved card of another deck": (_reserved_wrong_deck, "players[0].reserved[0].deck"),
    "unknown noble": (_unknown_noble, "nobles"),
    "unknown end reason": (_unknown_end_reason, "end_reason"),
    "unknown decision kind": (_unknown_decision, "pending_decision.kind"),
    "options on a token return": (_return_tokens_with_options, "pending_decision.options"),
    "a token return without excess": (_pending_without_excess, "pending.amount"),
    "a ranking while in progress": (_ranking_in_progress, "ranking"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_state_is_refused_as_invalid_state(case: str) -> None:
    corrupt, field = MALFORMED[case]
    message = _base()
    state_from_proto(message)  # the base itself is valid
    corrupt(message)
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(state_pb2.GameState.FromString(message.SerializeToString()))
    assert caught.value.reason is Reason.INVALID_STATE, caught.value
    assert caught.value.details["field"] == field


def test_a_config_fault_inside_a_state_keeps_its_config_reason() -> None:
    message = _base()
    _module_unspecified(message)
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(message)
    assert caught.value.reason is Reason.UNKNOWN_MODULE
    message = _base()
    message.config.num_players = 9
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(message)
    assert caught.value.reason is Reason.INVALID_PLAYER_COUNT


def test_negative_counts_cannot_even_be_encoded() -> None:
    # Token counts are uint32 on the wire, so a negative count never reaches the service.
    with pytest.raises(ValueError, match="out of range"):
        common_pb2.TokenCounts(white=-1)


def test_empty_pending_message_means_no_decision() -> None:
    message = _base()
    message.pending_decision.SetInParent()
    assert state_from_proto(message).pending is None


def test_a_real_noble_choice_round_trips() -> None:
    state = dealt(2, seed=3)
    nobles = state.nobles[:2]
    state = give_purchased(state, 0, qualifying_for(nobles))
    options = qualifying_nobles(state, 0)
    assert len(options) >= 2
    state = state._replace(pending=PendingDecision(DecisionKind.CHOOSE_NOBLE, 0, options=options))
    message = _wire(state)
    assert message.pending_decision.kind == state_pb2.DECISION_KIND_CHOOSE_NOBLE
    assert state_from_proto(message) == state
    fresh = state_pb2.GameState()
    fill_state(fresh, state)
    assert fresh == message


@pytest.mark.parametrize(
    "counts", [(0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 2), (3, 0, 0, 0, 1, 0), (1, 2, 3, 4, 5, 6)], ids=str
)
def test_counts_are_written_exactly_and_an_all_zero_message_is_still_present(counts: tuple[int, ...]) -> None:
    event = engine_service_pb2.ReplayGameResponse().events.add().gems_taken
    fill_tokens(event.tokens, counts)
    assert event.HasField("tokens") and tokens_from_proto(event.tokens) == counts
    card = state_pb2.PlayerState()
    fill_gems(card.bonuses, counts[:5])
    assert card.HasField("bonuses") and gems_from_proto(card.bonuses) == counts[:5]
