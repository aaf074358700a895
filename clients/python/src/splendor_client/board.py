"""The table as text, from one seat's view (or a spectator's): what ``splendor-play`` shows.

>>> from splendor_client import connect
>>> from splendor_client.describe import Describer
>>> with connect("127.0.0.1:50051") as client:
...     describer = Describer(client.get_catalog())
...     view = client.view(client.new_game(num_players=2, seed=7).state, seat=0).view
>>> print("\\n".join(board_lines(view, describer)))
== Turn 1, round 1: Player 2 to play ==
Bank: 4 white, 4 blue, 4 green, 4 red, 4 black, 5 gold
Nobles: noble 0 (3 points) needs 4 white, 4 blue; ...
Level 3 row (16 cards left in the deck):
  card 79 (level 3, green bonus, 4 points): costs 7 blue
...

It takes a ``GameView``, never the full state, so it cannot show a deck's order or another
seat's blind reservation: those are not in a view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from splendor.v1 import state_pb2, view_pb2

from .colors import format_counts
from .describe import BASE_DECK_COUNT, Describer, deck_name, player_name, plural

SeatNamer = Callable[[int], str]


def default_names(view: view_pb2.GameView) -> SeatNamer:
    """``"Player 2"`` for seat 1, and ``"Player 2 (you)"`` for the viewer."""
    viewer = view.viewer_seat if view.HasField("viewer_seat") else None
    return lambda seat: f"{player_name(seat)} (you)" if seat == viewer else player_name(seat)


def acting_seat(view: view_pb2.GameView) -> int:
    """The seat that must act: the deciding seat while a decision is pending."""
    if view.pending_decision.kind != state_pb2.DECISION_KIND_UNSPECIFIED:
        return view.pending_decision.seat
    return view.seat


def board_lines(view: view_pb2.GameView, describer: Describer, names: SeatNamer | None = None) -> list[str]:
    """The whole table, a few short lines per part: header, bank, nobles or cities, market, players."""
    name = names or default_names(view)
    lines = [_header(view, name)]
    lines.append(f"Bank: {format_counts(view.bank, empty='empty')}")
    if view.HasField("cities"):
        cities = "; ".join(describer.city_requirement(city_id) for city_id in view.cities.available_city_ids)
        lines.append(f"Cities: {cities or 'none left'}")
    else:
        nobles = "; ".join(describer.noble_requirement(noble_id) for noble_id in view.noble_ids)
        lines.append(f"Nobles: {nobles or 'none left'}")
    if view.HasField("trading_posts"):
        lines += _posts_lines(view, describer, name)
    lines += _market_lines(view, describer, name)
    for seat, player in enumerate(view.players):
        lines += _player_lines(view, seat, player, describer, name)
    return lines


def _header(view: view_pb2.GameView, name: SeatNamer) -> str:
    where = f"Turn {view.turn + 1}, round {view.round + 1}"
    if view.end_reason != state_pb2.END_REASON_UNSPECIFIED:
        return f"== Final table after {plural(view.turn, 'turn')} =="
    final = " (final round)" if view.final_round else ""
    return f"== {where}{final}: {name(acting_seat(view))} to play =="


def _posts_lines(view: view_pb2.GameView, describer: Describer, name: SeatNamer) -> list[str]:
    lines = ["Trading posts:"]
    for post_id, post in sorted(describer.posts.items()):
        holders = [name(seat) for seat, shields in enumerate(view.trading_posts.shields) if post_id in shields.post_ids]
        needs = format_counts(post.requirement, empty="nothing")
        if post.nobles_required:
            needs += f" and {plural(post.nobles_required, 'noble')}"
        shields = f"; shields: {', '.join(holders)}" if holders else ""
        lines.append(f"  {describer.post(post_id)}: needs {needs}{shields}")
    return lines


def _stronghold_notes(view: view_pb2.GameView, name: SeatNamer) -> dict[int, str]:
    notes: dict[int, list[str]] = {}
    if view.HasField("strongholds"):
        for seat, placed in enumerate(view.strongholds.placed):
            for card_id, count in Counter(placed.card_ids).items():
                notes.setdefault(card_id, []).append(f"{plural(count, 'stronghold')} of {name(seat)}")
    return {card_id: "; ".join(texts) for card_id, texts in notes.items()}


def _market_lines(view: view_pb2.GameView, describer: Describer, name: SeatNamer) -> list[str]:
    lines: list[str] = []
    notes = _stronghold_notes(view, name)
    order = [deck for deck in reversed(range(len(view.market))) if deck < BASE_DECK_COUNT]
    order += [deck for deck in reversed(range(len(view.market))) if deck >= BASE_DECK_COUNT]
    for deck in order:
        size = view.deck_sizes[deck] if deck < len(view.deck_sizes) else 0
        lines.append(f"{deck_name(deck).capitalize()} row ({plural(size, 'card')} left in the deck):")
        for slot in view.market[deck].slots:
            if not slot.HasField("card_id"):
                lines.append("  (empty)")
                continue
            note = f"  [{notes[slot.card_id]}]" if slot.card_id in notes else ""
            lines.append(f"  {describer.card_line(slot.card_id)}{note}")
    return lines


def _player_lines(
    view: view_pb2.GameView, seat: int, player: state_pb2.PlayerState, describer: Describer, name: SeatNamer
) -> list[str]:
    held = sum(getattr(player.tokens, color) for color in ("white", "blue", "green", "red", "black", "gold"))
    lines = [f"{name(seat).capitalize()}: {plural(player.prestige, 'prestige point')}"]
    lines.append(f"  tokens ({held}): {format_counts(player.tokens, empty='none')}")
    lines.append(f"  bonuses: {format_counts(player.bonuses, empty='none')}")
    reserved = [
        describer.card(card.card_id) if card.HasField("card_id") else f"a face-down {deck_name(card.deck)} card"
        for card in player.reserved
    ]
    if reserved:
        lines.append(f"  reserved: {'; '.join(reserved)}")
    if player.purchased_card_ids:
        lines.append(f"  {plural(len(player.purchased_card_ids), 'card')} bought: {_ids(player.purchased_card_ids)}")
    if player.noble_ids:
        lines.append(f"  nobles: {', '.join(describer.noble(noble_id) for noble_id in player.noble_ids)}")
    lines += [f"  {line}" for line in _module_lines(view, seat, describer)]
    return lines


def _module_lines(view: view_pb2.GameView, seat: int, describer: Describer) -> list[str]:
    lines: list[str] = []
    if view.HasField("cities") and seat < len(view.cities.held) and view.cities.held[seat].city_ids:
        lines.append("cities: " + ", ".join(describer.city(city_id) for city_id in view.cities.held[seat].city_ids))
    if view.HasField("trading_posts") and seat < len(view.trading_posts.shields):
        posts = view.trading_posts.shields[seat].post_ids
        lines.append("shields on: " + (", ".join(f"post {post_id}" for post_id in posts) or "none"))
    if view.HasField("strongholds") and seat < len(view.strongholds.placed):
        lines.append(f"strongholds in supply: {3 - len(view.strongholds.placed[seat].card_ids)}")
    if view.HasField("orient"):
        orient = view.orient
        if seat < len(orient.pairs) and orient.pairs[seat].pairs:
            pairs = ", ".join(f"{pair.card_id} with {pair.partner_card_id}" for pair in orient.pairs[seat].pairs)
            lines.append(f"paired cards: {pairs}")
        if seat < len(orient.reserved_nobles) and orient.reserved_nobles[seat].noble_ids:
            nobles = ", ".join(describer.noble(noble_id) for noble_id in orient.reserved_nobles[seat].noble_ids)
            lines.append(f"reserved nobles: {nobles}")
        if seat < len(orient.discarded) and orient.discarded[seat].card_ids:
            lines.append(f"given up: {_ids(orient.discarded[seat].card_ids)}")
    return lines


def _ids(card_ids: Sequence[int]) -> str:
    return ", ".join(str(card_id) for card_id in card_ids)
