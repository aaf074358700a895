"""The table as a few short lines, from one seat's view (or a spectator's): what ``splendor-play`` shows.

Colours are one letter (``w`` white, ``u`` blue, ``g`` green, ``r`` red, ``k`` black, ``*``
gold, said once at the top); each market row is one line of cards, each player one or two lines:

>>> from splendor_client import connect
>>> from splendor_client.describe import Describer
>>> with connect("127.0.0.1:50051") as client:
...     describer = Describer(client.get_catalog())
...     view = client.view(client.new_game(num_players=2, seed=7).state, seat=0).view
>>> print("\\n".join(compact_board_lines(view, describer)))
== Turn 1, round 1: Player 2 to play ==
Bank 4w 4u 4g 4r 4k 5*   (w white, u blue, g green, r red, k black, * gold)
Nobles  3pt 4w 4u | 3pt 4r 4k | 3pt 4u 4g
L3 (16 left)  79: g 4pt [7u] | 77: u 5pt [7w 3u] | 85: r 5pt [7g 3r] | 78: g 3pt [5w 3u 3r 3k]
L2 (26 left)  49: u 2pt [2w 1r 4k] | 64: k 1pt [3w 3g 2k] | 61: r 2pt [1w 4u 2g] | 48: u 2pt [5u]
L1 (36 left)  30: r [3w] | 26: r [1w 1u 1g 1k] | 1: w [1u 1g 1r 1k] | 25: r [1w 1r 3k]
Player 1 (you)  0pt  tokens 0/10: -  bonuses -  0 cards
Player 2  0pt  tokens 0/10: -  bonuses -  0 cards

A seat's reserved cards follow on a line of their own (``reserved 45: u 1pt [3g 2r]; a
face-down level 2``).

Cards keep their ids (``57:``), as the moves list names them. It takes a ``GameView``, never the
full state, so it cannot show a deck's order or another seat's blind reservation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from splendor.v1 import catalog_pb2, state_pb2, view_pb2

from .board import SeatNamer, acting_seat, default_names
from .colors import TOKEN_NAMES, CountsLike, color_name, counts_dict
from .describe import BASE_DECK_COUNT, Describer, deck_name, plural

LETTERS: Mapping[str, str] = {"white": "w", "blue": "u", "green": "g", "red": "r", "black": "k", "gold": "*"}
LEGEND = "(w white, u blue, g green, r red, k black, * gold)"
_ORIENT_MARKS: Mapping[int, str] = {
    catalog_pb2.CARD_KIND_GOLD_X2: "2 gold once",
    catalog_pb2.CARD_KIND_PAIRED: "pairs",
    catalog_pb2.CARD_KIND_PAIRED_TAKE_LEVEL1: "pairs + free L1",
    catalog_pb2.CARD_KIND_DOUBLE_BONUS: "double",
    catalog_pb2.CARD_KIND_RESERVE_NOBLE: "reserves a noble",
    catalog_pb2.CARD_KIND_TAKE_LEVEL2: "free L2",
}


def short_counts(counts: CountsLike, *, empty: str = "-") -> str:
    """``"3w 2u 1*"``: counts in colour order, zeros left out (``empty`` when all are zero)."""
    values = counts if isinstance(counts, Mapping) else counts_dict(counts)
    parts = [f"{values[name]}{LETTERS[name]}" for name in TOKEN_NAMES if values.get(name, 0)]
    return " ".join(parts) if parts else empty


def short_card(describer: Describer, card_id: int) -> str:
    """``"57: r 2pt [3w 2u]"``: id, bonus colour, points, cost (and an Orient ability)."""
    info = describer.cards.get(card_id)
    if info is None:
        return f"{card_id}: ?"
    if info.kind == catalog_pb2.CARD_KIND_SACRIFICE:
        bonus = f"gives up {info.sacrifice_count}{LETTERS[color_name(info.sacrifice_color)]}"
    elif info.bonus_count == 0 and info.kind not in (catalog_pb2.CARD_KIND_UNSPECIFIED, catalog_pb2.CARD_KIND_STANDARD):
        bonus = "-"
    else:
        bonus = LETTERS[color_name(info.bonus)] * max(1, info.bonus_count)
    ability = _ORIENT_MARKS.get(info.kind, "")
    points = f" {info.points}pt" if info.points else ""
    return f"{card_id}: {bonus}{points} [{short_counts(info.cost)}]{f' {ability}' if ability else ''}"


def compact_board_lines(view: view_pb2.GameView, describer: Describer, names: SeatNamer | None = None) -> list[str]:
    """The whole table in short lines: header, bank, tiles, one line a market row, a line or two a player."""
    name = names or default_names(view)
    lines = [_header(view, name), f"Bank {short_counts(view.bank, empty='empty')}   {LEGEND}"]
    lines.append(_tiles_line(view, describer))
    if view.HasField("trading_posts"):
        lines.append(_posts_line(view, describer, name))
    lines += _market_lines(view, describer, name)
    for seat, player in enumerate(view.players):
        lines += _player_lines(view, seat, player, describer, name)
    return lines


def _header(view: view_pb2.GameView, name: SeatNamer) -> str:
    if view.end_reason != state_pb2.END_REASON_UNSPECIFIED:
        return f"== Final table after {plural(view.turn, 'turn')} =="
    final = " (final round)" if view.final_round else ""
    return f"== Turn {view.turn + 1}, round {view.round + 1}{final}: {name(acting_seat(view))} to play =="


def _tiles_line(view: view_pb2.GameView, describer: Describer) -> str:
    if view.HasField("cities"):
        cities = []
        for city_id in view.cities.available_city_ids:
            info = describer.cities.get(city_id)
            if info is None:
                cities.append(f"city {city_id}")
                continue
            needs = short_counts(info.requirement, empty="")
            if info.same_color_count:
                other = "other " if info.same_color_excludes_listed else ""
                needs = f"{needs} +{info.same_color_count} of one {other}colour".strip()
            cities.append(f"{info.prestige}pt {needs}".strip())
        return "Cities  " + (" | ".join(cities) or "none left")
    nobles = [
        f"{noble.points}pt {short_counts(noble.requirement)}" if (noble := describer.nobles.get(noble_id)) else "?"
        for noble_id in view.noble_ids
    ]
    return "Nobles  " + (" | ".join(nobles) or "none left")


def _posts_line(view: view_pb2.GameView, describer: Describer, name: SeatNamer) -> str:
    posts = []
    for post_id, post in sorted(describer.posts.items()):
        shields_of = enumerate(view.trading_posts.shields)
        holders = [str(seat + 1) for seat, shields in shields_of if post_id in shields.post_ids]
        nobles = f" +{post.nobles_required} noble" if post.nobles_required else ""
        shields = f" shields P{',P'.join(holders)}" if holders else ""
        posts.append(f"{post_id + 1} [{short_counts(post.requirement)}{nobles}]{shields}")
    return "Posts   " + " | ".join(posts)


def _market_lines(view: view_pb2.GameView, describer: Describer, name: SeatNamer) -> list[str]:
    towers: dict[int, list[str]] = {}
    if view.HasField("strongholds"):
        for seat, placed in enumerate(view.strongholds.placed):
            for card_id, count in Counter(placed.card_ids).items():
                towers.setdefault(card_id, []).append(f"P{seat + 1}x{count}")
    order = [deck for deck in reversed(range(len(view.market))) if deck < BASE_DECK_COUNT]
    order += [deck for deck in reversed(range(len(view.market))) if deck >= BASE_DECK_COUNT]
    lines = []
    for deck in order:
        size = view.deck_sizes[deck] if deck < len(view.deck_sizes) else 0
        level = f"{'O' if deck >= BASE_DECK_COUNT else 'L'}{deck % BASE_DECK_COUNT + 1}"
        cards = [
            short_card(describer, slot.card_id)
            + (f" {{strongholds {' '.join(towers[slot.card_id])}}}" if slot.card_id in towers else "")
            if slot.HasField("card_id")
            else "(empty)"
            for slot in view.market[deck].slots
        ]
        lines.append(f"{level} ({size} left)  " + " | ".join(cards))
    return lines


def _player_lines(
    view: view_pb2.GameView, seat: int, player: state_pb2.PlayerState, describer: Describer, name: SeatNamer
) -> list[str]:
    held = sum(counts_dict(player.tokens).values())
    first = (
        f"{name(seat).capitalize()}  {player.prestige}pt  tokens {held}/10: {short_counts(player.tokens)}"
        f"  bonuses {short_counts(player.bonuses)}  {plural(len(player.purchased_card_ids), 'card')}"
    )
    more = []
    if player.reserved:
        reserved = [
            short_card(describer, card.card_id) if card.HasField("card_id") else f"a face-down {deck_name(card.deck)}"
            for card in player.reserved
        ]
        more.append("reserved " + "; ".join(reserved))
    if player.noble_ids:
        more.append(f"{plural(len(player.noble_ids), 'noble')}")
    more += _module_facts(view, seat, describer)
    return [first] + ([f"  {', '.join(more)}"] if more else [])


def _module_facts(view: view_pb2.GameView, seat: int, describer: Describer) -> list[str]:
    facts: list[str] = []
    if view.HasField("cities") and seat < len(view.cities.held) and view.cities.held[seat].city_ids:
        count = len(view.cities.held[seat].city_ids)
        facts.append(f"{count} {'city' if count == 1 else 'cities'}")
    if view.HasField("trading_posts") and seat < len(view.trading_posts.shields):
        posts = view.trading_posts.shields[seat].post_ids
        facts.append("shields on " + (", ".join(str(post_id + 1) for post_id in posts) if posts else "no post"))
    if view.HasField("strongholds") and seat < len(view.strongholds.placed):
        facts.append(f"strongholds in supply: {3 - len(view.strongholds.placed[seat].card_ids)}")
    if view.HasField("orient"):
        orient = view.orient
        if seat < len(orient.pairs) and orient.pairs[seat].pairs:
            facts.append(f"{plural(len(orient.pairs[seat].pairs), 'paired card')}")
        if seat < len(orient.reserved_nobles) and orient.reserved_nobles[seat].noble_ids:
            facts.append(f"{plural(len(orient.reserved_nobles[seat].noble_ids), 'reserved noble')}")
        if seat < len(orient.discarded) and orient.discarded[seat].card_ids:
            facts.append(f"{plural(len(orient.discarded[seat].card_ids), 'card')} given up")
    return facts
