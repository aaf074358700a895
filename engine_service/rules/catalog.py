"""The printed components: development cards and nobles, loaded once from ``data/``.

Card ids are the row order of ``data/base_cards.csv`` (0-89: level 1 ids 0-39,
level 2 ids 40-69, level 3 ids 70-89, each level sorted by bonus colour white,
blue, green, red, black). Noble ids are the row order of ``data/nobles.csv``
(0-9). Ids never change; new components get new ids after the existing ones.
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import Final, NamedTuple

from .colors import COLOR_NAMES, GEM_COLORS, color_by_name

# Deck ids: the three base levels. Module decks (the Orient) take the ids after these.
BASE_DECKS: Final[tuple[int, ...]] = (0, 1, 2)
CARD_ID_SPACE: Final = 120  # 90 base cards + 30 Orient cards; fixes the action-id layout
NOBLE_ID_SPACE: Final = 10
CITY_ID_SPACE: Final = 14  # the seven double-sided tiles of the Cities module


class Card(NamedTuple):
    """A development card as printed."""

    id: int
    level: int  # 1, 2 or 3
    deck: int  # the deck (and market row) it belongs to
    bonus: int  # the gem colour of its permanent bonus
    points: int
    cost: tuple[int, ...]  # five gem counts


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


def _load_nobles() -> tuple[Noble, ...]:
    nobles = []
    for expected_id, row in enumerate(_read_csv("nobles.csv")):
        noble_id = int(row["id"])
        if noble_id != expected_id:
            raise ValueError(f"nobles.csv: ids must be consecutive, got {noble_id} at row {expected_id}")
        nobles.append(Noble(id=noble_id, points=int(row["points"]), requirement=_cost(row)))
    return tuple(nobles)


CARDS: Final[tuple[Card, ...]] = _load_cards()
NOBLES: Final[tuple[Noble, ...]] = _load_nobles()
CARDS_BY_DECK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(card.id for card in CARDS if card.deck == deck) for deck in BASE_DECKS
)


def is_known_card(card_id: int) -> bool:
    return 0 <= card_id < len(CARDS)


def is_known_noble(noble_id: int) -> bool:
    return 0 <= noble_id < len(NOBLES)
