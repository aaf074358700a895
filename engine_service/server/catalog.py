"""The static GetCatalog answer: cards, nobles, module components and the action-id layout, built once."""

from __future__ import annotations

from functools import cache
from typing import Final

from splendor.v1 import catalog_pb2, trading_posts_pb2

from engine_service.rules import ACTION_ID_COUNT, CARDS, NOBLES
from engine_service.rules import action_ids as ids
from engine_service.rules.catalog import CardKind
from engine_service.rules.modules.cities import CITIES
from engine_service.rules.modules.trading_posts import POSTS

from .convert import color_to_proto, fill_gems

_COLORS: Final = "colour indices 0 white, 1 blue, 2 green, 3 red, 4 black, 5 gold (proto Color value - 1)"

# (Action field, offset, index rule), in id order; each range ends where the next begins.
_RANGES: Final[tuple[tuple[str, int, str], ...]] = (
    (
        "take_gems",
        ids.TAKE_GEMS,
        "0-9: three colours, the rank of the sorted colour set in itertools.combinations(range(5), 3); "
        "10-19: two colours, the same for combinations(range(5), 2); 20-24: one colour, its index; " + _COLORS,
    ),
    ("take_two_gems", ids.TAKE_TWO, "the colour index; " + _COLORS),
    ("reserve_card", ids.RESERVE_CARD, "the card id"),
    ("reserve_from_deck", ids.RESERVE_DECK, "the deck id (0-2: levels 1-3; 3-5: Orient levels 1-3)"),
    ("purchase_card", ids.PURCHASE, "the card id (a purchase by id uses the default payment)"),
    ("pass", ids.PASS, "always 0"),
    (
        "return_tokens",
        ids.RETURN_TOKENS,
        "the rank of the returned tokens as a sorted multiset of colour indices: all multisets of 1 token, "
        "then of 2, then of 3, each size in the order of itertools.combinations_with_replacement(range(6), size); "
        + _COLORS,
    ),
    ("choose_noble", ids.CHOOSE_NOBLE, "the noble id"),
    ("choose_city", ids.CHOOSE_CITY, "the city id (the Cities module)"),
    ("take_gem", ids.TAKE_GEM, "the colour index (the Trading Posts); " + _COLORS),
    ("decline", ids.DECLINE, "always 0 (the Strongholds' conquest)"),
    (
        "place_stronghold",
        ids.PLACE_STRONGHOLD,
        "placing from the supply (from_card_id absent): the card id (a base card, 0-89; the Strongholds)",
    ),
    ("remove_stronghold", ids.REMOVE_STRONGHOLD, "the card id (a base card, 0-89; the Strongholds)"),
    ("pair_card", ids.PAIR_CARD, "the card id of the partner (the Orient)"),
    ("take_free_card", ids.TAKE_FREE_CARD, "the card id (the Orient)"),
    ("reserve_noble", ids.RESERVE_NOBLE, "the noble id (the Orient)"),
    (
        "place_stronghold",
        ids.MOVE_STRONGHOLD,
        "moving from another card: 90 * from_card_id + card_id (both base cards, 0-89; the Strongholds)",
    ),
)

_CARD_KINDS: Final[dict[CardKind, catalog_pb2.CardKind.ValueType]] = {
    kind: catalog_pb2.CardKind.Value(f"CARD_KIND_{kind.name}") for kind in CardKind
}


@cache
def catalog() -> catalog_pb2.Catalog:
    """The catalog message (shared: never mutate it)."""
    out = catalog_pb2.Catalog(action_id_count=ACTION_ID_COUNT)
    for card in CARDS:
        msg = out.cards.add(id=card.id, level=card.level, deck=card.deck, points=card.points)
        if card.bonus is not None:  # gold and paired Orient cards have none: COLOR_UNSPECIFIED
            msg.bonus = color_to_proto(card.bonus)
        fill_gems(msg.cost, card.cost)
        msg.kind = _CARD_KINDS[card.kind]
        msg.bonus_count = card.bonus_count
        if card.sacrifice_color is not None:
            msg.sacrifice_color = color_to_proto(card.sacrifice_color)
        msg.sacrifice_count = card.sacrifice_count
    for noble in NOBLES:
        fill_gems(out.nobles.add(id=noble.id, points=noble.points).requirement, noble.requirement)
    for city in CITIES:
        msg_city = out.cities.add(id=city.id, tile=city.tile, side=city.side, prestige=city.prestige)
        fill_gems(msg_city.requirement, city.requirement)
        msg_city.same_color_count = city.same_color
        msg_city.same_color_excludes_listed = city.same_color_excludes_listed
    for post in POSTS:
        power = trading_posts_pb2.TradingPostPower.Value(f"TRADING_POST_POWER_{post.power.upper()}")
        msg_post = out.trading_posts.add(id=post.id, power=power, nobles_required=post.nobles)
        fill_gems(msg_post.requirement, post.requirement)
    ends = [offset for _, offset, _ in _RANGES[1:]] + [ACTION_ID_COUNT]
    for (kind, offset, rule), end in zip(_RANGES, ends):
        out.action_id_ranges.add(kind=kind, offset=offset, count=end - offset, index_rule=rule)
    return out
