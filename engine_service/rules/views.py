"""What one seat, or a spectator, may see. The only place secrets are stripped.

Hidden from everyone: the order and contents of the decks (only their sizes are
shown) and the seed. Hidden from everyone but their owner: cards reserved
unseen from a deck (only their deck is shown). A module's state is public
unless the module's ``view`` hides part of it. Everything else is public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action, PurchaseCard
from .catalog import CARDS
from .events import CardReserved, Event
from .module_state import with_slot
from .ruleset import ruleset_for
from .state import EndReason, GameState, PendingDecision, Standing

SPECTATOR = None


class ReservedCardView(NamedTuple):
    card_id: int | None  # None: reserved unseen by another seat
    deck: int
    blind: bool


class PlayerView(NamedTuple):
    tokens: tuple[int, ...]
    bonuses: tuple[int, ...]
    prestige: int
    purchased: tuple[int, ...]
    reserved: tuple[ReservedCardView, ...]
    nobles: tuple[int, ...]


class GameView(NamedTuple):
    viewer: int | None  # the seat this view is for; None for a spectator
    num_players: int
    modules: frozenset[str]
    turn_limit: int
    bank: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    market: tuple[tuple[int | None, ...], ...]
    nobles: tuple[int, ...]
    players: tuple[PlayerView, ...]
    first_seat: int
    seat: int
    turn: int
    pending: PendingDecision | None
    final_round: bool
    passes_in_a_row: int
    end_reason: EndReason | None
    ranking: tuple[Standing, ...]
    module_states: tuple[object, ...] = ()  # by slot, as each module shows its state to the viewer


def view_for(state: GameState, viewer: int | None) -> GameView:
    """The state as ``viewer`` (a seat, or ``SPECTATOR``) may see it."""
    players = []
    for seat, player in enumerate(state.players):
        reserved = tuple(
            ReservedCardView(card_id if (seat == viewer or not blind) else None, CARDS[card_id].deck, blind)
            for card_id, blind in zip(player.reserved, player.reserved_blind)
        )
        players.append(
            PlayerView(player.tokens, player.bonuses, player.prestige, player.purchased, reserved, player.nobles)
        )
    config = state.config
    return GameView(
        viewer=viewer,
        num_players=config.num_players,
        modules=config.modules,
        turn_limit=config.turn_limit,
        bank=state.bank,
        deck_sizes=tuple(len(pile) for pile in state.decks),
        market=state.market,
        nobles=state.nobles,
        players=tuple(players),
        first_seat=state.first_seat,
        seat=state.seat,
        turn=state.turn,
        pending=state.pending,
        final_round=state.final_round,
        passes_in_a_row=state.passes_in_a_row,
        end_reason=state.end_reason,
        ranking=state.ranking,
        module_states=_module_views(state, viewer),
    )


def _module_views(state: GameState, viewer: int | None) -> tuple[object, ...]:
    """Each module's state as the viewer may see it (public unless the module redacts it)."""
    shown = state.module_states
    for module in ruleset_for(state).modules:
        if module.view is not None and module.state is not None:
            own = module.state.find(state)
            if own is not None:
                shown = with_slot(shown, module.state.index, module.view(own, viewer))
    return shown


def events_for(events: tuple[Event, ...], viewer: int | None) -> tuple[Event, ...]:
    """The events as ``viewer`` may see them: another seat's unseen reservation loses its card id."""
    return tuple(
        event._replace(card_id=None)
        if isinstance(event, CardReserved) and event.blind and event.seat != viewer
        else event
        for event in events
    )


def actions_seen_by(legal: Sequence[Action], state: GameState, viewer: int | None) -> Sequence[Action]:
    """The acting seat's legal actions as ``viewer`` may see them.

    Buying a card the acting seat reserved blind names that card, so another seat (or a
    spectator) sees the list without those purchases.
    """
    if viewer == state.acting_seat:
        return legal
    player = state.players[state.acting_seat]
    blind = {card for card, unseen in zip(player.reserved, player.reserved_blind) if unseen}
    if not blind:
        return legal
    return [action for action in legal if not (isinstance(action, PurchaseCard) and action.card_id in blind)]
