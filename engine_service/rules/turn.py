"""The end of a turn as a pipeline of steps, some of which wait for a player's choice.

After a main action the ruleset's steps run in order. A step that needs a choice
leaves a ``PendingDecision`` in the state and the pipeline stops; the answering
action is handed to that step's ``resolve`` and the pipeline goes on with the
next step. The last stage, ``close_turn``, checks the end of the game and passes
the turn on.

Base steps, in order: refill the market, one noble visit, return tokens above
ten. Modules insert their own steps at named points (see ``ruleset.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, Protocol

from .actions import Action, ChooseNoble, ReturnTokens
from .catalog import NOBLES
from .colors import TOKEN_KINDS, format_tokens
from .decisions import DecisionKind
from .errors import Reason, RuleViolation
from .events import DecisionRequired, Event, GemsReturned, NobleVisited
from .market import refill_market
from .state import (
    GameState,
    PendingDecision,
    add_tokens,
    sub_tokens,
    with_pending,
    with_player,
    with_table,
    with_tokens,
)

TOKEN_LIMIT: Final = 10


class TurnStep(Protocol):
    """One step of the end of a turn."""

    @property
    def decisions(self) -> tuple[DecisionKind, ...]:
        """The kinds of choice this step may ask for (each kind belongs to one step)."""
        ...

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        """Run the step; set ``pending`` if a player must choose."""
        ...

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        """Apply the answer to this step's pending decision (raises if it is not a valid answer)."""
        ...

    def choices(self, state: GameState) -> list[Action]:
        """Every valid answer to this step's pending decision."""
        ...


def ask(state: GameState, decision: PendingDecision, events: list[Event]) -> GameState:
    """Leave a decision pending and announce it."""
    events.append(DecisionRequired(decision.seat, decision.kind, decision.amount, decision.options))
    return with_pending(state, decision)


class RefillMarket:
    """Turn up new cards into the slots emptied this turn, once the purchase is fully resolved."""

    decisions = ()

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        return refill_market(state, events)

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        raise AssertionError("refilling the market asks no decision")

    def choices(self, state: GameState) -> list[Action]:
        return []


class ReturnExcessTokens:
    """A player holding more than ten tokens returns the excess, of their choice."""

    def __init__(self) -> None:
        self.decisions = (DecisionKind.RETURN_TOKENS,)

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        seat = state.seat
        tokens = state.players[seat].tokens
        excess = sum(tokens) - TOKEN_LIMIT
        if excess <= 0:
            return state
        held = [color for color in range(TOKEN_KINDS) if tokens[color]]
        if len(held) == 1:  # only one way to do it: the engine returns them itself
            returned = [0] * TOKEN_KINDS
            returned[held[0]] = excess
            return _return_tokens(state, seat, tuple(returned), events)
        return ask(state, PendingDecision(DecisionKind.RETURN_TOKENS, seat, amount=excess), events)

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        assert state.pending is not None
        if not isinstance(action, ReturnTokens):
            raise wrong_answer(state.pending)
        returned = tuple(action.tokens)
        amount = state.pending.amount
        if len(returned) != TOKEN_KINDS or any(count < 0 for count in returned) or sum(returned) != amount:
            raise RuleViolation(
                Reason.RETURN_WRONG_AMOUNT,
                f"return exactly {amount} token(s), as six non-negative counts",
                amount=str(amount),
            )
        held = state.players[state.pending.seat].tokens
        if any(r > h for r, h in zip(returned, held)):
            raise RuleViolation(
                Reason.RETURN_NOT_HELD,
                f"cannot return {format_tokens(returned)} while holding {format_tokens(held)}",
            )
        return _return_tokens(with_pending(state, None), state.pending.seat, returned, events)

    def choices(self, state: GameState) -> list[Action]:
        assert state.pending is not None
        amount = state.pending.amount
        held = state.players[state.pending.seat].tokens
        # The answers depend only on the amount and on each count capped at it: cache them.
        return list(_return_choices(tuple(h if h < amount else amount for h in held), amount))


@cache
def _return_choices(held: tuple[int, ...], amount: int) -> tuple[ReturnTokens, ...]:
    held_colors = [color for color in range(TOKEN_KINDS) if held[color]]
    answers = []
    for combo in combinations_with_replacement(held_colors, amount):
        returned = [0] * TOKEN_KINDS
        for color in combo:
            returned[color] += 1
        if all(r <= h for r, h in zip(returned, held)):
            answers.append(ReturnTokens(tuple(returned)))
    return tuple(answers)


def _return_tokens(state: GameState, seat: int, returned: tuple[int, ...], events: list[Event]) -> GameState:
    player = state.players[seat]
    events.append(GemsReturned(seat, returned))
    players = with_player(state.players, seat, with_tokens(player, sub_tokens(player.tokens, returned)))
    return with_table(state, add_tokens(state.bank, returned), state.market, state.decks, players)


class AwardOne:
    """A step that gives the seat one of the items it qualifies for (a noble, a city).

    None qualifying: nothing happens. One: it is awarded at once (its event still
    tells). Several: the player chooses, through a pending decision answered with
    ``answer(item_id)``.
    """

    def __init__(
        self,
        decision: DecisionKind,
        *,
        answer: Callable[[int], Action],
        qualifying: Callable[[GameState, int], tuple[int, ...]],
        award: Callable[[GameState, int, int, list[Event]], GameState],
        refused: Reason,
        noun: str,
    ) -> None:
        self.decision = decision
        self.decisions = (decision,)
        self._answer = answer
        self._answer_type = type(answer(0))
        self.qualifying = qualifying
        self._award = award
        self._refused = refused
        self._noun = noun

    def begin(self, state: GameState, events: list[Event]) -> GameState:
        seat = state.seat
        qualifying = self.qualifying(state, seat)
        if not qualifying:
            return state
        if len(qualifying) == 1:
            return self._award(state, seat, qualifying[0], events)
        return ask(state, PendingDecision(self.decision, seat, options=qualifying), events)

    def resolve(self, state: GameState, action: Action, events: list[Event]) -> GameState:
        pending = state.pending
        assert pending is not None
        if type(action) is not self._answer_type:
            raise wrong_answer(pending)
        chosen: int = getattr(action, f"{self._noun}_id")  # ChooseNoble.noble_id, ChooseCity.city_id
        if chosen not in pending.options:
            noun = self._noun
            raise RuleViolation(
                self._refused,
                f"{noun} {chosen} is not one of the qualifying {noun}s {list(pending.options)}",
                **{f"{noun}_id": str(chosen)},
            )
        return self._award(with_pending(state, None), pending.seat, chosen, events)

    def choices(self, state: GameState) -> list[Action]:
        assert state.pending is not None
        return [self._answer(option) for option in state.pending.options]


def qualifying_nobles(state: GameState, seat: int) -> tuple[int, ...]:
    b0, b1, b2, b3, b4 = state.players[seat].bonuses
    qualifying = []
    for noble_id in state.nobles:
        r0, r1, r2, r3, r4 = _REQUIREMENTS[noble_id]
        if b0 >= r0 and b1 >= r1 and b2 >= r2 and b3 >= r3 and b4 >= r4:
            qualifying.append(noble_id)
    return tuple(qualifying)


_REQUIREMENTS = tuple(noble.requirement for noble in NOBLES)


def visit(state: GameState, seat: int, noble_id: int, events: list[Event]) -> GameState:
    player = state.players[seat]
    player = player._replace(prestige=player.prestige + NOBLES[noble_id].points, nobles=player.nobles + (noble_id,))
    events.append(NobleVisited(seat, noble_id))
    return state._replace(
        nobles=tuple(n for n in state.nobles if n != noble_id),
        players=with_player(state.players, seat, player),
    )


# At most one noble visits; the player chooses when several qualify. Bonuses count, tokens don't.
VISIT_NOBLE: Final = AwardOne(
    DecisionKind.CHOOSE_NOBLE,
    answer=ChooseNoble,
    qualifying=qualifying_nobles,
    award=visit,
    refused=Reason.NOBLE_NOT_AVAILABLE,
    noun="noble",
)


def wrong_answer(pending: PendingDecision) -> RuleViolation:
    return RuleViolation(
        Reason.DECISION_PENDING,
        f"seat {pending.seat} must first answer the pending {pending.kind.name} decision",
        decision=pending.kind.name,
    )
