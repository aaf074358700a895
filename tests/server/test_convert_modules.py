"""The Trading Posts, Strongholds and Orient modules through the contract.

Round trips core -> proto -> core of every action, event, decision kind and module
state the modules added; whole random games of each module (states, incremental
updates, events, views); malformed module states refused with their field path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from google.protobuf.message import Message
from splendor.v1 import (
    actions_pb2,
    common_pb2,
    engine_service_pb2,
    events_pb2,
    orient_pb2,
    state_pb2,
    strongholds_pb2,
    trading_posts_pb2,
    view_pb2,
)

from engine_service.codec import (
    action_from_proto,
    action_to_proto,
    event_from_proto,
    events_from_proto,
    fill_events,
    fill_pending,
    fill_view,
    state_from_proto,
    state_to_proto,
    update_state,
)
from engine_service.codec import state as convert
from engine_service.codec.modules import orient as orient_adapter
from engine_service.codec.modules import strongholds as strongholds_adapter
from engine_service.codec.modules import trading_posts as trading_posts_adapter
from engine_service.rules import (
    DecisionKind,
    DecisionRequired,
    Decline,
    Event,
    GameConfig,
    GameState,
    PendingDecision,
    PurchaseCard,
    Reason,
    RuleViolation,
    apply,
    events_for,
    module_named,
    new_game,
    view_for,
)
from engine_service.rules.modules.orient import (
    CardPaired,
    CardsDiscarded,
    FreeCardTaken,
    NobleReserved,
    OrientState,
    PairCard,
    ReserveNoble,
    TakeFreeCard,
)
from engine_service.rules.modules.strongholds import STATE as STRONGHOLDS_STATE
from engine_service.rules.modules.strongholds import (
    CardConquered,
    PlaceStronghold,
    RemoveStronghold,
    StrongholdPlaced,
    StrongholdRemoved,
    StrongholdsReturned,
    StrongholdsState,
)
from engine_service.rules.modules.trading_posts import PowerGemTaken, ShieldPlaced, TakeGem, TradingPostsState
from tests.rulesets import MODULE_NAMES
from tests.server.positions import random_game

# The GameState (and GameView) fields of the module states, named like the modules.
MODULE_STATE_FIELDS = MODULE_NAMES
PLAYER_COUNTS = (2, 3, 4)
MODULES = ("trading_posts", "strongholds", "orient")
# The events and decisions only each module causes: random games must have converted them all.
MODULE_EVENTS: dict[str, set[str]] = {
    "trading_posts": {"ShieldPlaced", "PowerGemTaken", "DecisionRequired:TAKE_GEM"},
    "strongholds": {
        "StrongholdPlaced",
        "StrongholdRemoved",
        "StrongholdsReturned",
        "DecisionRequired:PLACE_STRONGHOLD",
    },
    "orient": {
        "CardPaired",
        "CardsDiscarded",
        "FreeCardTaken",
        "NobleReserved",
        "DecisionRequired:PAIR_CARD",
        "DecisionRequired:TAKE_FREE_CARD",
        "DecisionRequired:RESERVE_NOBLE",
    },
}


def _wire(state: GameState) -> state_pb2.GameState:
    """The state as a client would send it back: serialized and parsed again."""
    return state_pb2.GameState.FromString(state_to_proto(state).SerializeToString())


def _bytes(message: state_pb2.GameState) -> bytes:
    return message.SerializeToString(deterministic=True)


def _dealt(module: str, num_players: int = 3, seed: int = 5) -> GameState:
    return new_game(GameConfig(num_players, seed, modules=frozenset({module})))[0]


def _first_decision(module: str, kind: DecisionKind) -> GameState:
    """The first state of random games of the module (seeds in order) waiting for a ``kind`` decision."""
    for seed in range(100):
        for _, _, after, _ in random_game(2 + seed % 3, seed, frozenset({module})):
            if after.pending is not None and after.pending.kind is kind:
                return after
    raise AssertionError(f"no {kind.name} decision in 100 random {module} games")


# --- whole random games ---------------------------------------------------------------------------


def _event_names(events: tuple[Event, ...]) -> list[str]:
    return [
        f"DecisionRequired:{event.kind.name}" if isinstance(event, DecisionRequired) else type(event).__name__
        for event in events
    ]


def _round_trip_game(module: str, num_players: int) -> list[str]:
    """Check that every state, action, incremental update and event of a random game converts both ways exactly;
    the names of its events."""
    config = GameConfig(num_players, 300 + num_players, modules=frozenset({module}))
    state, dealt_events = new_game(config)
    events = list(dealt_events)
    for before, action, after, step in random_game(num_players, config.seed, config.modules):
        message = _wire(after)
        assert state_from_proto(message) == after
        assert action_from_proto(action_to_proto(action)) == action
        patched = _wire(before)
        update_state(patched, state_from_proto(patched), after)  # as ApplyAction does
        assert _bytes(patched) == _bytes(message)
        events.extend(step)
        state = after
    assert state.is_over and module_named(module).state.find(state) is not None
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, events)
    assert events_from_proto(response.events) == tuple(events)
    final = state_to_proto(state)
    for viewer in (None, *range(num_players)):
        assert events_for(tuple(events), viewer) == events_for(events_from_proto(response.events), viewer)
        view = view_pb2.GameView()
        fill_view(view, view_for(state, viewer))
        for name in MODULE_STATE_FIELDS:  # the module's state is public; the others stay absent
            assert view.HasField(name) == (name == module)
        assert getattr(view, module) == getattr(final, module)
    return _event_names(tuple(events))


@pytest.mark.parametrize("module", MODULES)
def test_random_module_games_round_trip_and_convert_every_event_the_module_causes(module: str) -> None:
    seen: Counter[str] = Counter()
    for num_players in PLAYER_COUNTS:
        seen.update(_round_trip_game(module, num_players))
    assert MODULE_EVENTS[module] <= set(seen), seen


def test_orient_market_rows_of_two_slots_read_on_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full rows of any length up to four take the wire-form path; the slot-by-slot path agrees."""
    state = _dealt("orient")
    message = _wire(state)
    assert [len(row.slots) for row in message.market] == [4, 4, 4, 2, 2, 2]
    fast = [convert.row_from_proto(row) for row in message.market]
    with monkeypatch.context() as patch:
        patch.setattr(convert, "_ROW_PATTERNS", {})  # every row slot by slot
        assert [convert.row_from_proto(row) for row in message.market] == fast
    assert tuple(fast) == state.market
    for row in ([119], [90, 0], [None, 101], [5, 6, 7]):
        msg = state_pb2.MarketRow()
        for card_id in row:
            msg.slots.add() if card_id is None else msg.slots.add(card_id=card_id)
        assert convert.row_from_proto(msg) == tuple(row)


# --- hand-built values ---------------------------------------------------------------------------

NEW_ACTIONS = [
    TakeGem(0),
    TakeGem(4),
    PlaceStronghold(12),
    PlaceStronghold(0, 33),
    PlaceStronghold(33, 0),
    RemoveStronghold(89),
    Decline(),
    PairCard(0),
    PairCard(117),
    TakeFreeCard(95),
    ReserveNoble(0),
    ReserveNoble(9),
    PurchaseCard(97, None, ()),
    PurchaseCard(97, None, (90, 91)),
    PurchaseCard(115, (0, 1, 0, 2, 0, 1), (12, 0)),
]


@pytest.mark.parametrize("action", NEW_ACTIONS, ids=repr)
def test_module_actions_round_trip(action: object) -> None:
    message = action_to_proto(action)  # type: ignore[arg-type]
    assert action_from_proto(actions_pb2.Action.FromString(message.SerializeToString())) == action


def test_cards_spent_presence_tells_none_from_empty() -> None:
    assert not action_to_proto(PurchaseCard(97)).purchase_card.HasField("cards_spent")
    assert action_to_proto(PurchaseCard(97, None, ())).purchase_card.HasField("cards_spent")
    assert action_from_proto(action_to_proto(PurchaseCard(97))) == PurchaseCard(97, None, None)
    spent = actions_pb2.Action(purchase_card=actions_pb2.PurchaseCard(card_id=3, cards_spent=actions_pb2.SpentCards()))
    assert action_from_proto(spent) == PurchaseCard(3, None, ())


def test_module_action_fields_in_proto_form() -> None:
    assert action_to_proto(TakeGem(3)).take_gem.color == common_pb2.COLOR_RED
    moved = action_to_proto(PlaceStronghold(5, 0)).place_stronghold
    assert moved.card_id == 5 and moved.HasField("from_card_id") and moved.from_card_id == 0
    assert not action_to_proto(PlaceStronghold(5)).place_stronghold.HasField("from_card_id")
    assert action_to_proto(Decline()).WhichOneof("kind") == "decline"


@pytest.mark.parametrize(
    ("action", "reason", "field"),
    [
        (actions_pb2.Action(take_gem=actions_pb2.TakeGem()), Reason.INVALID_COLOR, "take_gem.color"),
        (actions_pb2.Action(take_gem=actions_pb2.TakeGem(color=9)), Reason.INVALID_COLOR, "take_gem.color"),  # type: ignore[arg-type]
    ],
)
def test_malformed_module_actions_are_refused(action: actions_pb2.Action, reason: Reason, field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        action_from_proto(action)
    assert caught.value.reason is reason and caught.value.details["field"] == field


def test_gold_is_a_colour_on_the_wire_and_left_to_the_rules() -> None:
    """A gold TakeGem converts; the Trading Posts refuse it (never one of the offered colours)."""
    gold = actions_pb2.Action(take_gem=actions_pb2.TakeGem(color=common_pb2.COLOR_GOLD))
    assert action_from_proto(gold) == TakeGem(5)
    pending = _first_decision("trading_posts", DecisionKind.TAKE_GEM)
    with pytest.raises(RuleViolation) as caught:
        apply(pending, action_from_proto(gold))
    assert caught.value.reason is Reason.GEM_NOT_AVAILABLE


NEW_EVENTS: list[Event] = [
    PowerGemTaken(1, 4, 0),
    PowerGemTaken(0, 0, 1),
    ShieldPlaced(2, 3, 5),
    ShieldPlaced(0, 0, 0),
    StrongholdPlaced(1, 12, None),
    StrongholdPlaced(1, 0, 12),
    StrongholdRemoved(0, 44, 3),
    StrongholdsReturned(2, 7, 3),
    CardConquered(3, 0),
    CardPaired(0, 95, 12, 2),
    FreeCardTaken(1, 0, 0, 3),
    FreeCardTaken(2, 101, 4, 1),
    NobleReserved(0, 9),
    CardsDiscarded(1, (90,)),
    CardsDiscarded(2, (12, 0, 13)),
]


@pytest.mark.parametrize("event", NEW_EVENTS, ids=repr)
def test_module_events_round_trip(event: Event) -> None:
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, [event])
    parsed = engine_service_pb2.ApplyActionResponse.FromString(response.SerializeToString())
    assert events_from_proto(parsed.events) == (event,)


def test_every_event_kind_of_the_contract_is_converted() -> None:
    """Each Event oneof field maps to a core event (a proto-only event could never be redacted)."""
    kinds = {field.name for field in events_pb2.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, NEW_EVENTS)
    converted = {event.WhichOneof("kind") for event in response.events}
    module_kinds = {
        "power_gem_taken",
        "shield_placed",
        "stronghold_placed",
        "stronghold_removed",
        "strongholds_returned",
        "card_conquered",
        "card_paired",
        "free_card_taken",
        "noble_reserved",
        "cards_discarded",
    }
    assert converted == module_kinds <= kinds


def test_event_colours_are_color_values() -> None:
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, [PowerGemTaken(1, 4, 0), CardPaired(0, 95, 12, 0)])
    assert response.events[0].power_gem_taken.color == common_pb2.COLOR_BLACK
    assert response.events[1].card_paired.color == common_pb2.COLOR_WHITE
    bad = events_pb2.Event(power_gem_taken=events_pb2.PowerGemTaken(seat=0, post_id=0))
    with pytest.raises(RuleViolation) as caught:
        event_from_proto(bad, "events[4]")
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"] == "events[4].power_gem_taken.color"


DECISIONS = [
    PendingDecision(DecisionKind.RETURN_TOKENS, 1, amount=2),
    PendingDecision(DecisionKind.CHOOSE_NOBLE, 0, options=(3, 5)),
    PendingDecision(DecisionKind.CHOOSE_CITY, 2, options=(1, 12)),
    PendingDecision(DecisionKind.TAKE_GEM, 1, options=(0, 2, 4)),
    PendingDecision(DecisionKind.PLACE_STRONGHOLD, 0, options=(3, 44, 45)),
    PendingDecision(DecisionKind.CONQUER, 3, options=(44,)),
    PendingDecision(DecisionKind.PAIR_CARD, 0, options=(0, 41)),
    PendingDecision(DecisionKind.TAKE_FREE_CARD, 1, options=(2, 93)),
    PendingDecision(DecisionKind.RESERVE_NOBLE, 2, options=(4, 7)),
]


def test_every_decision_kind_has_a_case() -> None:
    assert {decision.kind for decision in DECISIONS} == set(DecisionKind)


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda decision: decision.kind.name)
def test_decisions_round_trip_as_pending_decision_and_event(decision: PendingDecision) -> None:
    message = state_pb2.PendingDecision()
    fill_pending(message, decision)
    assert message.kind == state_pb2.DecisionKind.Value(f"DECISION_KIND_{decision.kind.name}")
    assert convert.pending_from_proto(state_pb2.PendingDecision.FromString(message.SerializeToString())) == decision
    event = DecisionRequired(decision.seat, decision.kind, decision.amount, decision.options)
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, [event])
    assert events_from_proto(response.events) == (event,)


def test_gem_choices_carry_their_colours_as_color_values() -> None:
    decision = PendingDecision(DecisionKind.TAKE_GEM, 1, options=(0, 2, 4))
    message = state_pb2.PendingDecision()
    fill_pending(message, decision)
    assert list(message.colors) == [common_pb2.COLOR_WHITE, common_pb2.COLOR_GREEN, common_pb2.COLOR_BLACK]
    assert not message.options
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, [DecisionRequired(1, DecisionKind.TAKE_GEM, 0, (1, 3))])
    required = response.events[0].decision_required
    assert list(required.colors) == [common_pb2.COLOR_BLUE, common_pb2.COLOR_RED] and not required.options


MODULE_STATES: list[tuple[Callable[[Any], object], Callable[[Any, Any], None], type[Message], object]] = [
    (
        trading_posts_adapter.read,
        trading_posts_adapter.write,
        trading_posts_pb2.TradingPostsState,
        TradingPostsState(((0, 3), (), (4, 1, 2))),
    ),
    (
        strongholds_adapter.read,
        strongholds_adapter.write,
        strongholds_pb2.StrongholdsState,
        StrongholdsState(((12, 12, 5), (), (7,))),
    ),
    (
        orient_adapter.read,
        orient_adapter.write,
        orient_pb2.OrientState,
        OrientState(
            pairs=(((95, 12), (96, 14)), (), ((97, 0),)),
            reserved_nobles=((3,), (), (1, 8)),
            discarded=((), (90, 91), (0,)),
        ),
    ),
]


@pytest.mark.parametrize(
    ("read", "fill", "message_type", "value"), MODULE_STATES, ids=[type(value).__name__ for *_, value in MODULE_STATES]
)
def test_module_states_round_trip(
    read: Callable[[Any], object], fill: Callable[[Any, Any], None], message_type: type[Message], value: object
) -> None:
    message = message_type()
    fill(message, value)
    assert read(message_type.FromString(message.SerializeToString())) == value


def test_module_state_proto_layout() -> None:
    message = state_pb2.GameState()
    orient_adapter.write(message.orient, MODULE_STATES[2][3])  # type: ignore[arg-type]
    assert [(pair.card_id, pair.partner_card_id) for pair in message.orient.pairs[0].pairs] == [(95, 12), (96, 14)]
    assert list(message.orient.reserved_nobles[2].noble_ids) == [1, 8]
    assert list(message.orient.discarded[1].card_ids) == [90, 91]
    strongholds_adapter.write(message.strongholds, StrongholdsState(((12, 12, 5), ())))
    assert list(message.strongholds.placed[0].card_ids) == [12, 12, 5] and not message.strongholds.placed[1].card_ids
    trading_posts_adapter.write(message.trading_posts, TradingPostsState(((), (4, 0))))
    assert list(message.trading_posts.shields[1].post_ids) == [4, 0]


@pytest.mark.parametrize("module", MODULES)
def test_dealt_module_game_carries_its_state_and_no_other(module: str) -> None:
    message = _wire(_dealt(module))
    assert [name for name in MODULE_STATE_FIELDS if message.HasField(name)] == [module]
    assert state_from_proto(message) == _dealt(module)


# --- malformed module states ----------------------------------------------------------------------


def _pop_shields(msg: state_pb2.GameState) -> None:
    msg.trading_posts.shields.pop()


def _unknown_post(msg: state_pb2.GameState) -> None:
    msg.trading_posts.shields[1].post_ids.append(9)


def _pop_placed(msg: state_pb2.GameState) -> None:
    msg.strongholds.placed.pop()


def _stronghold_in_a_deck(msg: state_pb2.GameState) -> None:
    msg.strongholds.placed[0].card_ids.append(msg.decks[0].card_ids[0])


def _four_strongholds(msg: state_pb2.GameState) -> None:
    msg.strongholds.placed[2].card_ids.extend([msg.market[1].slots[0].card_id] * 4)


def _pop_pairs(msg: state_pb2.GameState) -> None:
    msg.orient.pairs.pop()


def _pop_reserved_nobles(msg: state_pb2.GameState) -> None:
    msg.orient.reserved_nobles.pop()


def _pop_discarded(msg: state_pb2.GameState) -> None:
    msg.orient.discarded.pop()


def _unknown_reserved_noble(msg: state_pb2.GameState) -> None:
    msg.orient.reserved_nobles[0].noble_ids.append(99)


def _three_orient_slots(msg: state_pb2.GameState) -> None:
    msg.market[3].slots.add(card_id=msg.decks[3].card_ids.pop())


def _one_orient_slot(msg: state_pb2.GameState) -> None:
    msg.decks[5].card_ids.append(msg.market[5].slots.pop().card_id)


def _without(name: str) -> Callable[[state_pb2.GameState], None]:
    def clear(msg: state_pb2.GameState) -> None:
        msg.ClearField(name)  # type: ignore[arg-type]

    return clear


MALFORMED: dict[str, tuple[str, Callable[[state_pb2.GameState], None], str]] = {
    "trading posts without their state": ("trading_posts", _without("trading_posts"), "trading_posts"),
    "shields for too few seats": ("trading_posts", _pop_shields, "trading_posts.shields"),
    "a shield on an unknown post": ("trading_posts", _unknown_post, "trading_posts.shields[1]"),
    "strongholds without their state": ("strongholds", _without("strongholds"), "strongholds"),
    "strongholds for too few seats": ("strongholds", _pop_placed, "strongholds.placed"),
    "a stronghold on a card in a deck": ("strongholds", _stronghold_in_a_deck, "strongholds.placed[0]"),
    "four strongholds": ("strongholds", _four_strongholds, "strongholds.placed[2]"),
    "the orient without its state": ("orient", _without("orient"), "orient"),
    "pairs for too few seats": ("orient", _pop_pairs, "orient.pairs"),
    "reserved nobles for too few seats": ("orient", _pop_reserved_nobles, "orient.reserved_nobles"),
    "discards for too few seats": ("orient", _pop_discarded, "orient.discarded"),
    "an unknown reserved noble": ("orient", _unknown_reserved_noble, "orient.reserved_nobles"),
    "three slots in an orient row": ("orient", _three_orient_slots, "market[3]"),
    "one slot in an orient row": ("orient", _one_orient_slot, "market[5]"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_module_state_is_refused_with_its_field(case: str) -> None:
    module, corrupt, field = MALFORMED[case]
    message = _wire(_dealt(module))
    corrupt(message)
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(state_pb2.GameState.FromString(message.SerializeToString()))
    assert caught.value.reason is Reason.INVALID_STATE, caught.value
    assert caught.value.details["field"] == field


@pytest.mark.parametrize(
    ("module", "name"),
    [(module, name) for module in (None, *MODULES) for name in MODULE_STATE_FIELDS if name != module],
)
def test_a_module_state_outside_its_module_is_refused(module: str | None, name: str) -> None:
    """The contract: a module's state is absent in other games (digests and replays depend on it)."""
    state = new_game(GameConfig(2, 8))[0] if module is None else _dealt(module, 2, 8)
    message = _wire(state)
    getattr(message, name).SetInParent()
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(message)
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"] == name


def _pending(kind: int, seat: int = 0, **fields: object) -> Callable[[state_pb2.GameState], None]:
    def set_pending(msg: state_pb2.GameState) -> None:
        msg.pending_decision.CopyFrom(state_pb2.PendingDecision(kind=kind, seat=seat, **fields))  # type: ignore[arg-type]

    return set_pending


RED, BLUE = common_pb2.COLOR_RED, common_pb2.COLOR_BLUE
MALFORMED_DECISIONS: dict[str, tuple[Callable[[state_pb2.GameState], None], str]] = {
    "gem colours sent as options": (
        _pending(state_pb2.DECISION_KIND_TAKE_GEM, options=[1, 3]),
        "pending_decision.options",
    ),
    "an unspecified gem colour": (
        _pending(state_pb2.DECISION_KIND_TAKE_GEM, colors=[RED, common_pb2.COLOR_UNSPECIFIED]),
        "pending_decision.colors[1]",
    ),
    "colours on a card choice": (_pending(state_pb2.DECISION_KIND_PAIR_CARD, colors=[RED]), "pending_decision.colors"),
    "an amount on a gem choice": (
        _pending(state_pb2.DECISION_KIND_TAKE_GEM, amount=1, colors=[RED, BLUE]),
        "pending_decision.amount",
    ),
    "an amount on a city choice": (
        _pending(state_pb2.DECISION_KIND_CHOOSE_CITY, amount=1, options=[1, 2]),
        "pending_decision.amount",
    ),
    "a module decision in a base game": (_pending(state_pb2.DECISION_KIND_CONQUER, options=[3]), "pending.kind"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED_DECISIONS))
def test_malformed_module_decision_is_refused_with_its_field(case: str) -> None:
    corrupt, field = MALFORMED_DECISIONS[case]
    message = _wire(new_game(GameConfig(2, 8))[0])
    corrupt(message)
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(message)
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"] == field


def test_gem_choice_the_rules_refuse_points_at_its_colours() -> None:
    """The core names a gem choice's colours ``options``; the contract's field is ``colors``."""
    pending = _first_decision("trading_posts", DecisionKind.TAKE_GEM)
    message = _wire(pending)
    assert state_from_proto(message) == pending
    del message.pending_decision.colors[0]
    message.pending_decision.colors.append(common_pb2.COLOR_GOLD)
    with pytest.raises(RuleViolation) as caught:
        state_from_proto(message)
    assert caught.value.reason is Reason.INVALID_STATE
    assert caught.value.details["field"] == "pending_decision.colors"


def test_update_state_rewrites_a_replaced_module_state_only() -> None:
    state = _dealt("strongholds", 2, 8)
    message = _wire(state)
    card = state.market[0][0]
    assert card is not None
    moved = STRONGHOLDS_STATE.put(state, StrongholdsState(((card,), ())))
    update_state(message, state, moved)
    assert list(message.strongholds.placed[0].card_ids) == [card]
    assert _bytes(message) == _bytes(state_to_proto(moved))
    update_state(message, moved, moved)
    assert _bytes(message) == _bytes(state_to_proto(moved))


@pytest.mark.parametrize("answer", ["purchase", "decline"])
def test_both_answers_to_a_conquest_convert_like_any_move(answer: str) -> None:
    """Random games rarely stack three strongholds: a found conquest is answered both ways through the contract."""
    state = _first_decision("strongholds", DecisionKind.CONQUER)
    message = _wire(state)
    assert message.pending_decision.kind == state_pb2.DECISION_KIND_CONQUER
    read = state_from_proto(message)
    assert read == state
    assert state.pending is not None
    seat, (card,) = state.pending.seat, state.pending.options
    move = PurchaseCard(card) if answer == "purchase" else Decline()
    after, events = apply(read, action_from_proto(action_to_proto(move)))
    update_state(message, read, after)
    assert _bytes(message) == _bytes(state_to_proto(after))
    assert state_from_proto(_wire(after)) == after
    response = engine_service_pb2.ApplyActionResponse()
    fill_events(response.events, events)
    assert events_from_proto(response.events) == events
    conquered = [event for event in events if isinstance(event, CardConquered)]
    assert conquered == ([CardConquered(seat, card)] if answer == "purchase" else [])
