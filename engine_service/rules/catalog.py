"""The printed components: development cards and nobles, loaded once from ``data/``.

Card ids are the row order of ``data/base_cards.csv`` (0-89: level 1 ids 0-39,
level 2 ids 40-69, level 3 ids 70-89, each level sorted by bonus colour white,
blue, green, red, black), then of ``data/orient_cards.csv`` (90-119, the
Orient module's cards, decks 3-5). Noble ids are the row order of ``data/nobles.csv``
(0-9). Ids never change; new components get new ids after the existing ones.
"""

from __future__ import annotations

import csv
import io
from enum import Enum
from importlib import resources
from typing import Final, NamedTuple

from .colors import COLOR_NAMES, GEM_COLORS, color_by_name

# Deck ids: the three base levels, then the Orient's three (decks 3-5, levels 1-3).
BASE_DECKS: Final[tuple[int, ...]] = (0, 1, 2)
ORIENT_DECKS: Final[tuple[int, ...]] = (3, 4, 5)
CARD_ID_SPACE: Final = 120  # 90 base cards + 30 Orient cards; fixes the action-id layout
NOBLE_ID_SPACE: Final = 10


class CardKind(Enum):
    """What a card does besides its bonus and points: the base cards, and the Orient's six kinds."""

    STANDARD = "standard"  # a base card: one bonus of its colour
    GOLD_X2 = "gold_x2"  # worth two gold for one purchase, then discarded; no bonus
    PAIRED = "paired"  # attaches to an owned card: one bonus of that card's colour
    PAIRED_TAKE_LEVEL1 = "paired_take_level1"  # paired, then a free face-up level-1 card
    DOUBLE_BONUS = "double_bonus"  # two bonuses of its colour
    RESERVE_NOBLE = "reserve_noble"  # reserve a noble on the table for yourself
    TAKE_LEVEL2 = "take_level2"  # a free face-up level-2 card
    SACRIFICE = "sacrifice"  # bought by discarding two bonuses of another colour


class Card(NamedTuple):
    """A development card as printed."""

    id: int
    level: int  # 1, 2 or 3
    deck: int  # the deck (and market row) it belongs to
    bonus: int | None  # the gem colour of its printed bonus (None: gold and paired Orient cards)
    points: int
    cost: tuple[int, ...]  # five gem counts
    kind: CardKind = CardKind.STANDARD
    bonus_count: int = 1  # bonuses of ``bonus`` it gives (2 for a double bonus, 0 without a printed bonus)
    sacrifice_color: int | None = None  # SACRIFICE: the colour of the bonuses to discard
    sacrifice_count: int = 0  # SACRIFICE: how many bonuses of that colour


class Noble(NamedTuple):
    """A noble tile as printed."""

    id: int
    points: int
    requirement: tuple[int, ...]  # five bonus counts


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _cost(row: dict[str, str]) -> tuple[int, ...]:
    return tuple(int(row[COLOR_NAMES[color]]) for color in GEM_COLORS)


def _load_cards() -> tuple[Card, ...]:
    cards = []
    for expected_id, row in enumerate(_read_csv("base_cards.csv")):
        card_id = int(row["id"])
        if card_id != expected_id:
            raise ValueError(f"base_cards.csv: ids must be consecutive, got {card_id} at row {expected_id}")
        level = int(row["level"])
        cards.append(
            Card(
                id=card_id,
                level=level,
                deck=level - 1,
                bonus=color_by_name(row["bonus"]),
                points=int(row["points"]),
                cost=_cost(row),
            )
        )
    return tuple(cards)


def _load_orient_cards(first_id: int) -> tuple[Card, ...]:
    cards = []
    for offset, row in enumerate(_read_csv("orient_cards.csv")):
        card_id = int(row["id"])
        if card_id != first_id + offset:
            raise ValueError(f"orient_cards.csv: ids must follow the base cards, got {card_id}")
        level = int(row["level"])
        printed = row["bonus"] != "none"
        sacrifice = row["sacrifice_color"] != "none"
        cards.append(
            Card(
                id=card_id,
                level=level,
                deck=ORIENT_DECKS[level - 1],
                bonus=color_by_name(row["bonus"]) if printed else None,
                points=int(row["points"]),
                cost=_cost(row),
                kind=CardKind(row["kind"]),
                bonus_count=int(row["bonus_count"]) if printed else 0,
                sacrifice_color=color_by_name(row["sacrifice_color"]) if sacrifice else None,
                sacrifice_count=int(row["sacrifice_count"]),
            )
        )
    return tuple(cards)


def _load_nobles() -> tuple[Noble, ...]:
    nobles = []
    for expected_id, row in enumerate(_read_csv("nobles.csv")):
        noble_id = int(row["id"])
        if noble_id != expected_id:
            raise ValueError(f"nobles.csv: ids must be consecutive, got {noble_id} at row {expected_id}")
        nobles.append(Noble(id=noble_id, points=int(row["points"]), requirement=_cost(row)))
    return tuple(nobles)


BASE_CARDS: Final[tuple[Card, ...]] = _load_cards()
CARDS: Final[tuple[Card, ...]] = BASE_CARDS + _load_orient_cards(len(BASE_CARDS))
NOBLES: Final[tuple[Noble, ...]] = _load_nobles()
CARDS_BY_DECK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(card.id for card in CARDS if card.deck == deck) for deck in BASE_DECKS + ORIENT_DECKS
)
if len(CARDS) != CARD_ID_SPACE:
    raise ValueError(f"the catalog has {len(CARDS)} cards; the action-id layout expects {CARD_ID_SPACE}")


def is_known_card(card_id: int) -> bool:
    return 0 <= card_id < len(CARDS)


def is_known_noble(noble_id: int) -> bool:
    return 0 <= noble_id < len(NOBLES)
