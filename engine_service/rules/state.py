"""The complete game state: immutable tuples, shared between successive states.

Every transition builds a new ``GameState`` and reuses the parts it did not
change, so keeping an old state (undo, tree search, replay checks) costs nothing.
Derived figures (``bonuses``, ``prestige``) are kept beside the facts they come
from because every legality check reads them; ``validate_state`` checks that
they agree. Modules keep their own state in ``module_states``, one slot each;
the core never looks inside.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from .config import GameConfig
from .decisions import DecisionKind


class EndReason(Enum):
    """Why a game ended."""

    FINAL_ROUND_COMPLETED = "FINAL_ROUND_COMPLETED"  # someone reached the goal and the round was finished
    ALL_PLAYERS_PASSED = "ALL_PLAYERS_PASSED"  # a whole round of passes: nobody can move
    TURN_LIMIT_REACHED = "TURN_LIMIT_REACHED"  # the configured turn limit


class PendingDecision(NamedTuple):
    """A choice the game waits for before the turn can go on.

    ``amount`` is the number of tokens to return (RETURN_TOKENS); ``options`` the
    ids to choose from (the qualifying nobles for CHOOSE_NOBLE).
    """

    kind: DecisionKind
    seat: int
    amount: int = 0
    options: tuple[int, ...] = ()


class PlayerState(NamedTuple):
    """One seat's holdings."""

    tokens: tuple[int, ...]  # six counts: five gems, then gold
    bonuses: tuple[int, ...]  # five counts, from purchased cards
    prestige: int  # cards + nobles
    purchased: tuple[int, ...]  # card ids in purchase order
    reserved: tuple[int, ...]  # card ids in reservation order
    reserved_blind: tuple[bool, ...]  # parallel to ``reserved``: True if drawn from a deck unseen
    nobles: tuple[int, ...]  # noble ids in visit order


class Standing(NamedTuple):
    """One seat's place in the final ranking; tied seats share a place."""

    seat: int
    place: int  # 1 = winner
    prestige: int
    purchased_cards: int


class GameState(NamedTuple):
    """The whole game, hidden information included."""

    config: GameConfig
    bank: tuple[int, ...]  # six counts
    decks: tuple[tuple[int, ...], ...]  # per deck, index 0 is the top card
    market: tuple[tuple[int | None, ...], ...]  # per deck, the face-up slots (None: empty)
    nobles: tuple[int, ...]  # noble ids still on the table
    players: tuple[PlayerState, ...]
    first_seat: int
    seat: int  # the seat whose turn it is
    turn: int  # turns completed, all seats together
    pending: PendingDecision | None
    final_round: bool
    passes_in_a_row: int
    end_reason: EndReason | None
    ranking: tuple[Standing, ...]  # best first; empty until the game ends
    # The modules' states, by the slot each module owns (``module_state.ModuleStateSlot``); None for a
    # module not in play, and no trailing None, so a base game has none at all.
    module_states: tuple[object, ...] = ()

    @property
    def round(self) -> int:
        """Rounds completed (a round is one turn of every seat, from the first seat)."""
        return self.turn // self.config.num_players

    @property
    def is_over(self) -> bool:
        return self.end_reason is not None

    @property
    def acting_seat(self) -> int:
        """The seat that must send the next action: the decider if a decision is pending."""
        return self.pending.seat if self.pending is not None else self.seat

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(standing.seat for standing in self.ranking if standing.place == 1)


def with_player(players: tuple[PlayerState, ...], seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    """``players`` with one seat's holdings replaced."""
    return players[:seat] + (player,) + players[seat + 1 :]


def add_tokens(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Six token counts added (unrolled: called on every move)."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def sub_tokens(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Six token counts subtracted (unrolled: called on every move)."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5])


def new_pending_decision(*, kind: DecisionKind, seat: int, amount: int, options: tuple[int, ...]) -> PendingDecision:
    """A ``PendingDecision`` (see ``records.py``, "Building records")."""
    return tuple.__new__(PendingDecision, (kind, seat, amount, options))


def new_player_state(
    *,
    tokens: tuple[int, ...],
    bonuses: tuple[int, ...],
    prestige: int,
    purchased: tuple[int, ...],
    reserved: tuple[int, ...],
    reserved_blind: tuple[bool, ...],
    nobles: tuple[int, ...],
) -> PlayerState:
    """A ``PlayerState`` (see ``records.py``, "Building records")."""
    return tuple.__new__(PlayerState, (tokens, bonuses, prestige, purchased, reserved, reserved_blind, nobles))


# The transitions of every move, spelt out field by field (see ``records.py``, "Building records"; each equals
# ``_replace``, tests/rules/test_records.py). The state is unpacked at once rather than read field by field: one
# step instead of fifteen attribute reads.


def with_table(
    state: GameState,
    bank: tuple[int, ...],
    market: tuple[tuple[int | None, ...], ...],
    decks: tuple[tuple[int, ...], ...],
    players: tuple[PlayerState, ...],
) -> GameState:
    """``state`` with the bank, market, decks and players replaced (what the actions move)."""
    (config, _bank, _decks, _market, nobles, _players, first_seat, seat, turn, pending,
     final_round, passes_in_a_row, end_reason, ranking, module_states) = state  # fmt: skip
    return tuple.__new__(GameState, (
        config, bank, decks, market, nobles, players, first_seat, seat, turn, pending,
        final_round, passes_in_a_row, end_reason, ranking, module_states,
    ))  # fmt: skip


def with_turn(state: GameState, seat: int, turn: int, final_round: bool) -> GameState:
    """``state`` with the turn passed on to ``seat``."""
    (config, bank, decks, market, nobles, players, first_seat, _seat, _turn, pending,
     _final_round, passes_in_a_row, end_reason, ranking, module_states) = state  # fmt: skip
    return tuple.__new__(GameState, (
        config, bank, decks, market, nobles, players, first_seat, seat, turn, pending,
        final_round, passes_in_a_row, end_reason, ranking, module_states,
    ))  # fmt: skip


def with_pending(state: GameState, pending: PendingDecision | None) -> GameState:
    """``state`` with a decision left pending, or with none."""
    return with_module_states(state, state.module_states, pending)


def with_module_states(
    state: GameState, module_states: tuple[object, ...], pending: PendingDecision | None
) -> GameState:
    """``state`` with the modules' slots and the pending decision replaced."""
    (config, bank, decks, market, nobles, players, first_seat, seat, turn, _pending,
     final_round, passes_in_a_row, end_reason, ranking, _module_states) = state  # fmt: skip
    return tuple.__new__(GameState, (
        config, bank, decks, market, nobles, players, first_seat, seat, turn, pending,
        final_round, passes_in_a_row, end_reason, ranking, module_states,
    ))  # fmt: skip


def with_tokens(player: PlayerState, tokens: tuple[int, ...]) -> PlayerState:
    """``player`` holding ``tokens`` instead."""
    _tokens, bonuses, prestige, purchased, reserved, reserved_blind, nobles = player
    return tuple.__new__(PlayerState, (tokens, bonuses, prestige, purchased, reserved, reserved_blind, nobles))
