"""``apply``: the whole game as a pure reducer ``state + action -> new state + events``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import registry
from .actions import (
    Action,
    Pass,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    TakeGems,
    TakeTwoGems,
)
from .errors import Reason, RuleViolation
from .events import Event, FinalRoundTriggered, GameEnded, Passed, new_turn_ended
from .gems import take_gems, take_two_gems
from .legal import main_actions
from .purchase import purchase_card
from .reserve import reserve_card, reserve_from_deck
from .ruleset import RULESETS, Ruleset, ruleset_for
from .state import EndReason, GameState, with_turn


def apply(state: GameState, action: object, seat: int | None = None) -> tuple[GameState, tuple[Event, ...]]:
    """Apply one action by the acting seat and return the new state and what happened.

    ``seat`` is the sender; when given it must be the acting seat. Raises
    ``RuleViolation`` for an illegal action, leaving ``state`` untouched (states
    are immutable, so nothing can be half-applied). ``action`` may be anything:
    what is not an action record of this game is refused (UNKNOWN_ACTION).
    """
    if state.end_reason is not None:
        raise RuleViolation(Reason.GAME_OVER, f"the game is over ({state.end_reason.value})")
    if seat is not None and seat != state.acting_seat:
        acting = state.acting_seat
        raise RuleViolation(
            Reason.NOT_YOUR_TURN, f"seat {acting} must act, not seat {seat}", acting_seat=str(acting), seat=str(seat)
        )
    if not isinstance(action, tuple):  # every action is a record (a NamedTuple)
        raise RuleViolation(Reason.UNKNOWN_ACTION, f"{type(action).__name__} is not an action of this game")
    ruleset = RULESETS.get(state.config.modules) or ruleset_for(state)
    events: list[Event] = []
    if state.pending is not None:
        state = _resolve_decision(state, action, ruleset, events)
    else:
        state = _main_action(state, action, ruleset, events)
    return state, tuple(events)


def pass_turn(state: GameState, action: Pass, events: list[Event]) -> GameState:
    _check_pass(state)
    events.append(Passed(state.seat))
    return state._replace(passes_in_a_row=state.passes_in_a_row + 1)


# One handler per main action kind; each validates, then applies. Purchases, whose payment a module may
# change, are handed the ruleset's payment rules in ``_main_action``.
_MAIN_ACTIONS: Final[dict[type, Callable[[GameState, Any, list[Event]], GameState]]] = {
    TakeGems: take_gems,
    TakeTwoGems: take_two_gems,
    PurchaseCard: purchase_card,
    ReserveCard: reserve_card,
    ReserveFromDeck: reserve_from_deck,
    Pass: pass_turn,
}


def _main_action(state: GameState, action: Action, ruleset: Ruleset, events: list[Event]) -> GameState:
    handler = _MAIN_ACTIONS.get(type(action))
    if handler is None:
        if registry.is_answer(action):
            raise RuleViolation(Reason.NO_DECISION_PENDING, "no decision is pending: send a main action")
        raise RuleViolation(Reason.UNKNOWN_ACTION, f"{type(action).__name__} is not an action of this game")
    for check in ruleset.main_action_checks:
        check(state, action)  # type: ignore[arg-type]
    if state.passes_in_a_row and type(action) is not Pass:
        state = state._replace(passes_in_a_row=0)
    if type(action) is PurchaseCard:
        state = purchase_card(state, action, events, ruleset.payment)
    else:
        state = handler(state, action, events)
    for follow in ruleset.follows:
        state = follow(state, action, events)  # type: ignore[arg-type]
        if state.pending is not None:
            return state
    return _run_steps(state, ruleset, ruleset.refill_step, events)


def _check_pass(state: GameState) -> None:
    if main_actions(state, ruleset_for(state), stop_at_first=True):
        raise RuleViolation(Reason.PASS_NOT_ALLOWED, "passing is allowed only when no other action is legal")


def _resolve_decision(state: GameState, action: Action, ruleset: Ruleset, events: list[Event]) -> GameState:
    pending = state.pending
    assert pending is not None
    index = ruleset.decision_steps[pending.kind]
    state = ruleset.resolvers[index](state, action, events)
    if state.pending is not None:  # the step asks a further question
        return state
    return _run_steps(state, ruleset, index + 1, events)


def _run_steps(state: GameState, ruleset: Ruleset, start: int, events: list[Event]) -> GameState:
    begins = ruleset.begins
    for index in range(start, len(begins)):
        state = begins[index](state, events)
        if state.pending is not None:
            return state
    return _close_turn(state, ruleset, events)


def _close_turn(state: GameState, ruleset: Ruleset, events: list[Event]) -> GameState:
    """End-of-game check, then the turn passes to the next seat."""
    seat = state.seat
    num_players = state.config.num_players
    final_round = state.final_round
    if not final_round and ruleset.triggers_final_round(state, seat):
        final_round = True
        events.append(FinalRoundTriggered(seat, state.players[seat].prestige))
    turn = state.turn + 1
    next_seat = (seat + 1) % num_players
    events.append(new_turn_ended(seat=seat, next_seat=next_seat, turn=turn))
    end_reason = None
    if final_round and next_seat == state.first_seat:
        end_reason = EndReason.FINAL_ROUND_COMPLETED
    elif state.passes_in_a_row >= num_players:
        end_reason = EndReason.ALL_PLAYERS_PASSED
    elif state.config.turn_limit and turn >= state.config.turn_limit:
        end_reason = EndReason.TURN_LIMIT_REACHED
    state = with_turn(state, next_seat, turn, final_round)
    if end_reason is None:
        return state
    ranking = ruleset.rank(state)
    state = state._replace(end_reason=end_reason, ranking=ranking)
    events.append(GameEnded(end_reason, ranking, state.winners))
    return state
