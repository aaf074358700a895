"""Rule: a module registered from outside the engine plugs into the core without any edit to it.

The Beacons, a module that exists only in this file: after every reservation the
player lights one of two beacons (a decision of its own, answered with an action
of its own that has its own action ids), which an event announces and the
module's own piece of state counts; each seat sees only its own beacons. Seeded
random games play it in-process: legal actions, apply, views, validation and
replay from action ids.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final, NamedTuple

import pytest

from engine_service.rules import (
    ACTION_ID_COUNT,
    Action,
    DecisionKind,
    Event,
    GameConfig,
    GameState,
    MainAction,
    Module,
    ModuleStateSlot,
    PendingDecision,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    ask,
    decision_kind,
    distinct_kind,
    id_layout,
    id_range,
    known_modules,
    legal_actions,
    new_game,
    registered,
    state_digest,
    validate_state,
    view_for,
    wrong_answer,
)


class BeaconsState(NamedTuple):
    lit: tuple[tuple[int, ...], ...]  # per seat, the beacons lit, in order


@distinct_kind
class LightBeacon(NamedTuple):
    beacon: int  # 0 or 1


@distinct_kind
class BeaconLit(NamedTuple):
    seat: int
    beacon: int


NAME: Final = "beacons"
STATE: Final = ModuleStateSlot(7, BeaconsState, NAME, "a Beacons game must carry its beacons")
LIGHT_BEACON: Final = decision_kind(42, "LIGHT_BEACON")
BEACONS: Final = (0, 1)


class LightAfterReserving:
    """After a reservation, before the market refills: the player lights a beacon of their choice."""

    decisions = (LIGHT_BEACON,)

    def follow(self, state: GameState, action: MainAction, events: list[Event]) -> GameState:
        if not isinstance(action, (ReserveCard, ReserveFromDeck)):
            return state
        return ask(state, PendingDecision(LIGHT_BEACON, state.seat, options=BEACONS), events)

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        return state

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        pending = state.pending
        assert pending is not None
        if type(action) is not LightBeacon:
            raise wrong_answer(pending)
        if action.beacon not in pending.options:
            raise RuleViolation(Reason.UNKNOWN_ACTION, f"there is no beacon {action.beacon}")
        lit = STATE.of(state).lit
        lit = lit[: pending.seat] + (lit[pending.seat] + (action.beacon,),) + lit[pending.seat + 1 :]
        events.append(BeaconLit(pending.seat, action.beacon))
        return STATE.put(state._replace(pending=None), BeaconsState(lit))

    def choices(self, state: GameState) -> list[Action]:
        assert state.pending is not None
        return [LightBeacon(beacon) for beacon in state.pending.options]


def setup(state: GameState) -> GameState:
    return STATE.put(state, BeaconsState(((),) * state.config.num_players))


def validate(state: GameState) -> None:
    beacons = STATE.of(state)
    if len(beacons.lit) != state.config.num_players or any(b not in BEACONS for lit in beacons.lit for b in lit):
        raise RuleViolation(Reason.INVALID_STATE, "one list of beacons 0-1 per seat", field="beacons")
    pending = state.pending
    if pending is not None and pending.kind is LIGHT_BEACON and pending.options != BEACONS:
        raise RuleViolation(Reason.INVALID_STATE, "the beacon options are both beacons", field="pending.options")


def only_own_beacons(beacons: BeaconsState, viewer: int | None) -> BeaconsState:
    return BeaconsState(tuple(lit if seat == viewer else () for seat, lit in enumerate(beacons.lit)))


BEACONS_MODULE: Final = Module(
    name=NAME,
    state=STATE,
    decisions=(LIGHT_BEACON,),
    actions=(LightBeacon,),
    action_ids=(id_range(ACTION_ID_COUNT, LightBeacon, len(BEACONS), "beacon", "the beacon (the Beacons, a test)"),),
    events=(BeaconLit,),
    view=only_own_beacons,
    setup=setup,
    after_main_action=LightAfterReserving(),
    validate=validate,
)
ON: Final = frozenset({NAME})


@pytest.fixture
def beacons() -> Iterator[Module]:
    with registered(BEACONS_MODULE) as module:
        yield module


def random_game(players: int, seed: int) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    chooser = random.Random(seed)
    state, _ = new_game(GameConfig(players, seed, modules=ON))
    while not state.is_over:
        action = chooser.choice(legal_actions(state))
        after, events = apply(state, action)
        yield state, action, after, events
        state = after


@pytest.mark.usefixtures("beacons")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_test_module_plays_random_games_with_its_decision_action_event_and_state(players: int) -> None:
    lit_events = 0
    for seed in range(3):
        log: list[int] = []
        digests: list[str] = []
        final: GameState | None = None
        for before, action, after, events in random_game(players, seed):
            validate_state(after)
            log.append(action_id(action))
            digests.append(state_digest(after))
            if before.pending is not None and before.pending.kind is LIGHT_BEACON:
                assert legal_actions(before) == [LightBeacon(0), LightBeacon(1)]
                assert all(
                    ACTION_ID_COUNT <= action_id(answer) < ACTION_ID_COUNT + 2 for answer in legal_actions(before)
                )
                assert BeaconLit(before.pending.seat, action.beacon) in events
                lit_events += 1
            for viewer in range(players):
                shown = STATE.find(view_for(after, viewer))
                assert shown is not None and shown.lit[viewer] == STATE.of(after).lit[viewer]
                assert all(not lit for seat, lit in enumerate(shown.lit) if seat != viewer)
            final = after
        assert final is not None and final.is_over
        assert sum(len(lit) for lit in STATE.of(final).lit) > 0
        replayed, _ = new_game(GameConfig(players, seed, modules=ON))
        for value, digest in zip(log, digests):
            replayed, _ = apply(replayed, action_from_id(value))
            assert state_digest(replayed) == digest
    assert lit_events > 0


@pytest.mark.usefixtures("beacons")
def test_a_test_module_extends_the_registry_while_registered() -> None:
    assert NAME in known_modules()
    assert DecisionKind.LIGHT_BEACON is LIGHT_BEACON
    assert id_layout().count == ACTION_ID_COUNT + 2
    assert action_from_id(ACTION_ID_COUNT + 1) == LightBeacon(1)


@pytest.mark.usefixtures("beacons")
def test_a_test_module_refuses_a_state_without_its_piece_and_an_answer_out_of_turn() -> None:
    state, _ = new_game(GameConfig(2, 5, modules=ON))
    with pytest.raises(RuleViolation) as caught:
        validate_state(STATE.put(state, None))
    assert caught.value.reason is Reason.INVALID_STATE and caught.value.details["field"] == NAME
    with pytest.raises(RuleViolation) as answered:
        apply(state, LightBeacon(0))
    assert answered.value.reason is Reason.NO_DECISION_PENDING


def test_a_test_module_leaves_no_trace_once_unregistered() -> None:
    with registered(BEACONS_MODULE):
        pass
    assert NAME not in known_modules()
    assert id_layout().count == ACTION_ID_COUNT
    with pytest.raises(AttributeError):
        _ = DecisionKind.LIGHT_BEACON
    with pytest.raises(RuleViolation) as caught:
        new_game(GameConfig(2, 1, modules=ON))
    assert caught.value.reason is Reason.UNKNOWN_MODULE
