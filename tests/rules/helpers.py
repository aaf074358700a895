"""Builders for rule tests: consistent positions made from a dealt game.

Every position starts from ``new_game`` and is rearranged with ``_replace``:
tokens given to players come out of the bank, and cards given to players or
laid in the market come out of the decks, so ``validate_state`` passes on
everything ``position`` returns (it checks that before returning).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum

import pytest

from engine_service.rules import (
    CARDS,
    NOBLES,
    Action,
    Event,
    GameConfig,
    GameState,
    PlayerState,
    Reason,
    RuleViolation,
    apply,
    legal_actions,
    new_game,
    state_digest,
    validate_state,
)

WHITE, BLUE, GREEN, RED, BLACK, GOLD = range(6)
GEMS_PER_COLOR = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
NONE = (0, 0, 0, 0, 0, 0)


def tokens(*, white: int = 0, blue: int = 0, green: int = 0, red: int = 0, black: int = 0, gold: int = 0) -> tuple:
    """A six-count token tuple by colour name."""
    return (white, blue, green, red, black, gold)


def full_bank(num_players: int) -> tuple[int, ...]:
    gems = GEMS_PER_COLOR[num_players]
    return (gems,) * 5 + (GOLD_TOKENS,)


def card_ids(level: int | None = None, bonus: int | None = None, points: int | None = None) -> list[int]:
    """Ids of the printed cards matching every given attribute, in id order."""
    return [
        card.id
        for card in CARDS
        if (level is None or card.level == level)
        and (bonus is None or card.bonus == bonus)
        and (points is None or card.points == points)
    ]


def can_pay(cost: Sequence[int], held: Sequence[int], bonuses: Sequence[int] = (0, 0, 0, 0, 0)) -> bool:
    """Independent affordability check: coloured shortfall covered by gold."""
    missing = sum(max(0, c - b - t) for c, b, t in zip(cost, bonuses, held[:5]))
    return missing <= held[5]


def position(
    num_players: int = 2,
    seed: int = 1,
    *,
    first_seat: int = 0,
    seat: int | None = None,
    turn: int = 0,
    turn_limit: int = 0,
    held: Mapping[int, Sequence[int]] | None = None,
    purchased: Mapping[int, Iterable[int]] | None = None,
    reserved: Mapping[int, Iterable[int]] | None = None,
    blind: Mapping[int, Iterable[int]] | None = None,
    market: Mapping[int, Sequence[int | None]] | None = None,
    deck_tops: Mapping[int, Sequence[int]] | None = None,
    empty_decks: Iterable[int] = (),
    dump_seat: int | None = None,
    table_nobles: Sequence[int] | None = None,
    player_nobles: Mapping[int, Iterable[int]] | None = None,
    final_round: bool = False,
) -> GameState:
    """A consistent mid-game position.

    ``held``: tokens per seat (taken from the bank). ``purchased``/``reserved``:
    card ids per seat (``blind``: the reserved ones that were drawn unseen).
    ``market``: the face-up cards of a deck (missing slots are filled from the
    deck in its dealt order). ``deck_tops``: cards put on top of a deck, first
    on top. ``empty_decks``: decks whose remaining pile is
    handed to ``dump_seat`` as purchased cards (default: the seat after
    ``seat``), so the deck is empty without losing cards. Bonuses and prestige
    are recomputed from the purchased cards and nobles.
    """
    state, _ = new_game(GameConfig(num_players, seed, first_seat=first_seat, turn_limit=turn_limit))
    seat = first_seat if seat is None else seat
    held = held or {}
    purchased = {s: list(ids) for s, ids in (purchased or {}).items()}
    reserved = {s: list(ids) for s, ids in (reserved or {}).items()}
    blind = {s: set(ids) for s, ids in (blind or {}).items()}
    market = dict(market or {})
    deck_tops = {d: list(ids) for d, ids in (deck_tops or {}).items()}
    player_nobles = {s: list(ids) for s, ids in (player_nobles or {}).items()}

    placed = [card for ids in purchased.values() for card in ids]
    placed += [card for ids in reserved.values() for card in ids]
    placed += [card for row in market.values() for card in row if card is not None]
    placed += [card for ids in deck_tops.values() for card in ids]
    assert len(placed) == len(set(placed)), "a card placed twice"
    for s, ids in blind.items():
        assert ids <= set(reserved.get(s, ())), "blind cards must be reserved"

    rows = []
    piles = []
    for deck in range(len(state.decks)):
        pool = [c for c in state.market[deck] + state.decks[deck] if c not in placed]
        if deck in market:
            row = list(market[deck]) + [None] * (4 - len(market[deck]))
            for slot, card in enumerate(row):
                if card is None and pool and deck not in set(empty_decks):
                    row[slot] = pool.pop(0)
            for card in row:
                assert card is None or CARDS[card].deck == deck, f"card {card} is not of deck {deck}"
        else:
            row = [pool.pop(0) if pool else None for _ in range(4)]
        rows.append(tuple(row))
        for card in deck_tops.get(deck, ()):
            assert CARDS[card].deck == deck, f"card {card} is not of deck {deck}"
        piles.append(deck_tops.get(deck, []) + pool)
    dump = (seat + 1) % num_players if dump_seat is None else dump_seat
    for deck in empty_decks:
        purchased.setdefault(dump, []).extend(piles[deck])
        piles[deck] = []

    players = []
    bank = list(full_bank(num_players))
    for s in range(num_players):
        own = tuple(held.get(s, NONE))
        assert len(own) == 6
        bank = [b - t for b, t in zip(bank, own)]
        bought = tuple(purchased.get(s, ()))
        bonuses = [0] * 5
        for card in bought:
            bonuses[CARDS[card].bonus] += 1
        nobles = tuple(player_nobles.get(s, ()))
        prestige = sum(CARDS[c].points for c in bought) + sum(NOBLES[n].points for n in nobles)
        hand = tuple(reserved.get(s, ()))
        players.append(
            PlayerState(
                tokens=own,
                bonuses=tuple(bonuses),
                prestige=prestige,
                purchased=bought,
                reserved=hand,
                reserved_blind=tuple(c in blind.get(s, set()) for c in hand),
                nobles=nobles,
            )
        )
    assert all(count >= 0 for count in bank), f"more tokens given than the bank holds: {bank}"
    taken_nobles = {n for ids in player_nobles.values() for n in ids}
    if table_nobles is None:
        table_nobles = tuple(n for n in state.nobles if n not in taken_nobles)
    state = state._replace(
        bank=tuple(bank),
        decks=tuple(tuple(pile) for pile in piles),
        market=tuple(rows),
        nobles=tuple(table_nobles),
        players=tuple(players),
        seat=seat,
        turn=turn,
        final_round=final_round,
    )
    validate_state(state)
    return state


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    """Apply actions in turn; return the last state and every event."""
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def of_type(events: Iterable[Event], kind: type) -> list:
    return [event for event in events if isinstance(event, kind)]


def refused(state: GameState, action: Action, reason: Reason, seat: int | None = None) -> RuleViolation:
    """Assert that ``action`` is refused for ``reason`` and that ``state`` is left as it was."""
    before = state_digest(state)
    with pytest.raises(RuleViolation) as caught:
        apply(state, action, seat)
    assert caught.value.reason is reason, f"{caught.value.reason}: {caught.value.message}"
    assert caught.value.message
    assert state_digest(state) == before
    return caught.value


def has_action(actions: Iterable[Action], action: Action) -> bool:
    """Membership by kind and value: NamedTuple actions of different kinds can compare equal as tuples."""
    return any(type(candidate) is type(action) and candidate == action for candidate in actions)


def legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` (of its own kind) is in the legal-action list."""
    return has_action(legal_actions(state), action)


# Fields of a view that hold numbers other than card ids (counts, seats, noble ids, deck numbers).
NON_CARD_FIELDS = frozenset(
    {
        "viewer",
        "num_players",
        "modules",
        "turn_limit",
        "bank",
        "deck_sizes",
        "nobles",
        "first_seat",
        "seat",
        "turn",
        "pending",
        "final_round",
        "passes_in_a_row",
        "end_reason",
        "ranking",
        "tokens",
        "bonuses",
        "prestige",
        "deck",
        "blind",
        # event fields
        "slot",
        "count",
        "amount",
        "options",
        "next_seat",
        "kind",
        "source",
        "payment",
        "reason",
        "winners",
        "noble_id",
        # module fields that hold no card id: city, post and noble ids, colours, seats
        "available",
        "held",
        "city_id",
        "shields",
        "post",
        "post_id",
        "color",
        "colors",
        "reserved_nobles",
        "owner",
        "returned",
        "prestige_gained",
    }
)


def card_ids_shown(view: object) -> list[int]:
    """Every number a view (or event) shows outside the known non-card fields: the card ids it reveals.

    Unknown fields count as card fields, so a field added later that leaks cards is caught.
    """
    found: list[int] = []

    def walk(value: object) -> None:
        if value is None or isinstance(value, (bool, str, Enum)):
            return
        if isinstance(value, int):
            found.append(value)
            return
        if hasattr(value, "_fields"):
            for name in value._fields:
                if name not in NON_CARD_FIELDS:
                    walk(getattr(value, name))
            return
        if isinstance(value, (tuple, list, frozenset, set)):
            for item in value:
                walk(item)
            return
        raise AssertionError(f"unexpected value in a view: {value!r}")

    walk(view)
    return found


def hidden_from(state: GameState, viewer: int | None) -> set[int]:
    """The card ids ``viewer`` must not see: deck contents and other seats' blind reservations."""
    hidden = {card for pile in state.decks for card in pile}
    for seat, player in enumerate(state.players):
        if seat != viewer:
            hidden |= {card for card, blind in zip(player.reserved, player.reserved_blind) if blind}
    return hidden
