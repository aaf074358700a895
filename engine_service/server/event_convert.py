"""Events between the core's NamedTuples and ``splendor.v1.Event`` messages.

Core -> proto runs on every ApplyAction; proto -> core only for GetPlayerView,
whose events are redacted by the core's ``events_for`` (the one place that
decides what a viewer may see).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from splendor.v1 import events_pb2

from engine_service.rules import DecisionKind, EndReason, Event, Reason, RuleViolation, Standing
from engine_service.rules.events import (
    CardConquered,
    CardPaired,
    CardPurchased,
    CardReserved,
    CardRevealed,
    CardsDiscarded,
    CardSource,
    CityClaimed,
    DecisionRequired,
    FinalRoundTriggered,
    FreeCardTaken,
    GameEnded,
    GameStarted,
    GemsReturned,
    GemsTaken,
    GoldReceived,
    MarketSlotEmptied,
    NobleReserved,
    NobleVisited,
    Passed,
    PowerGemTaken,
    ShieldPlaced,
    StrongholdPlaced,
    StrongholdRemoved,
    StrongholdsReturned,
    TurnEnded,
)

from .convert import (
    DECISION_KINDS,
    DECISION_VALUES,
    END_REASONS,
    color_to_proto,
    end_reason_to_proto,
    fill_standings,
    fill_tokens,
    tokens_from_proto,
)

# Proto Color value -> core colour index, for colours inside events (a bad one is INVALID_STATE).
_CORE_COLORS: Final[dict[int, int]] = {value: value - 1 for value in range(1, 7)}

_SOURCES: Final[dict[int, CardSource]] = {
    events_pb2.CardSource.Value(f"CARD_SOURCE_{source.name}"): source for source in CardSource
}
_SOURCE_VALUES: Final[dict[CardSource, int]] = {source: value for value, source in _SOURCES.items()}

# --- core -> proto ------------------------------------------------------------------------------


def _game_started(out: events_pb2.Event, event: GameStarted) -> None:
    msg = out.game_started
    msg.first_seat = event.first_seat
    msg.num_players = event.num_players


def _gems_taken(out: events_pb2.Event, event: GemsTaken) -> None:
    msg = out.gems_taken
    msg.seat = event.seat
    fill_tokens(msg.tokens, event.tokens)


def _gems_returned(out: events_pb2.Event, event: GemsReturned) -> None:
    msg = out.gems_returned
    msg.seat = event.seat
    fill_tokens(msg.tokens, event.tokens)


def _card_reserved(out: events_pb2.Event, event: CardReserved) -> None:
    msg = out.card_reserved
    msg.seat = event.seat
    if event.card_id is not None:
        msg.card_id = event.card_id
    msg.deck = event.deck
    msg.blind = event.blind
    if event.slot is not None:
        msg.slot = event.slot


def _gold_received(out: events_pb2.Event, event: GoldReceived) -> None:
    msg = out.gold_received
    msg.seat = event.seat
    msg.amount = event.amount


def _card_purchased(out: events_pb2.Event, event: CardPurchased) -> None:
    msg = out.card_purchased
    msg.seat = event.seat
    msg.card_id = event.card_id
    msg.source = events_pb2.CardSource.ValueType(_SOURCE_VALUES[event.source])
    if event.slot is not None:
        msg.slot = event.slot
    fill_tokens(msg.payment, event.payment)


def _card_revealed(out: events_pb2.Event, event: CardRevealed) -> None:
    msg = out.card_revealed
    msg.deck = event.deck
    msg.slot = event.slot
    msg.card_id = event.card_id


def _market_slot_emptied(out: events_pb2.Event, event: MarketSlotEmptied) -> None:
    msg = out.market_slot_emptied
    msg.deck = event.deck
    msg.slot = event.slot


def _noble_visited(out: events_pb2.Event, event: NobleVisited) -> None:
    msg = out.noble_visited
    msg.seat = event.seat
    msg.noble_id = event.noble_id


def _decision_required(out: events_pb2.Event, event: DecisionRequired) -> None:
    msg = out.decision_required
    msg.seat = event.seat
    msg.kind = DECISION_VALUES[event.kind]
    msg.amount = event.amount
    if event.kind is DecisionKind.TAKE_GEM:  # colours travel as Color values (see PendingDecision)
        msg.colors.extend([color_to_proto(color) for color in event.options])
    else:
        msg.options.extend(event.options)


def _passed(out: events_pb2.Event, event: Passed) -> None:
    out.passed.seat = event.seat


def _final_round_triggered(out: events_pb2.Event, event: FinalRoundTriggered) -> None:
    msg = out.final_round_triggered
    msg.seat = event.seat
    msg.prestige = event.prestige


def _turn_ended(out: events_pb2.Event, event: TurnEnded) -> None:
    msg = out.turn_ended
    msg.seat = event.seat
    msg.next_seat = event.next_seat
    msg.turn = event.turn


def _game_ended(out: events_pb2.Event, event: GameEnded) -> None:
    msg = out.game_ended
    msg.reason = end_reason_to_proto(event.reason)
    fill_standings(msg.ranking, event.ranking)
    msg.winners.extend(event.winners)


def _city_claimed(out: events_pb2.Event, event: CityClaimed) -> None:
    msg = out.city_claimed
    msg.seat = event.seat
    msg.city_id = event.city_id


def _power_gem_taken(out: events_pb2.Event, event: PowerGemTaken) -> None:
    msg = out.power_gem_taken
    msg.seat = event.seat
    msg.color = color_to_proto(event.color)
    msg.post_id = event.post


def _shield_placed(out: events_pb2.Event, event: ShieldPlaced) -> None:
    msg = out.shield_placed
    msg.seat = event.seat
    msg.post_id = event.post
    msg.prestige_gained = event.prestige_gained


def _stronghold_placed(out: events_pb2.Event, event: StrongholdPlaced) -> None:
    msg = out.stronghold_placed
    msg.seat = event.seat
    msg.card_id = event.card_id
    if event.from_card_id is not None:
        msg.from_card_id = event.from_card_id


def _stronghold_removed(out: events_pb2.Event, event: StrongholdRemoved) -> None:
    msg = out.stronghold_removed
    msg.seat = event.seat
    msg.card_id = event.card_id
    msg.owner = event.owner


def _strongholds_returned(out: events_pb2.Event, event: StrongholdsReturned) -> None:
    msg = out.strongholds_returned
    msg.owner = event.owner
    msg.card_id = event.card_id
    msg.count = event.returned


def _card_conquered(out: events_pb2.Event, event: CardConquered) -> None:
    msg = out.card_conquered
    msg.seat = event.seat
    msg.card_id = event.card_id


def _card_paired(out: events_pb2.Event, event: CardPaired) -> None:
    msg = out.card_paired
    msg.seat = event.seat
    msg.card_id = event.card_id
    msg.partner_card_id = event.partner_card_id
    msg.color = color_to_proto(event.color)


def _free_card_taken(out: events_pb2.Event, event: FreeCardTaken) -> None:
    msg = out.free_card_taken
    msg.seat = event.seat
    msg.card_id = event.card_id
    msg.deck = event.deck
    msg.slot = event.slot


def _noble_reserved(out: events_pb2.Event, event: NobleReserved) -> None:
    msg = out.noble_reserved
    msg.seat = event.seat
    msg.noble_id = event.noble_id


def _cards_discarded(out: events_pb2.Event, event: CardsDiscarded) -> None:
    msg = out.cards_discarded
    msg.seat = event.seat
    msg.card_ids.extend(event.card_ids)


_WRITERS: Final[dict[type, Callable[[events_pb2.Event, Any], None]]] = {
    GameStarted: _game_started,
    GemsTaken: _gems_taken,
    GemsReturned: _gems_returned,
    CardReserved: _card_reserved,
    GoldReceived: _gold_received,
    CardPurchased: _card_purchased,
    CardRevealed: _card_revealed,
    MarketSlotEmptied: _market_slot_emptied,
    NobleVisited: _noble_visited,
    DecisionRequired: _decision_required,
    Passed: _passed,
    FinalRoundTriggered: _final_round_triggered,
    TurnEnded: _turn_ended,
    GameEnded: _game_ended,
    CityClaimed: _city_claimed,
    PowerGemTaken: _power_gem_taken,
    ShieldPlaced: _shield_placed,
    StrongholdPlaced: _stronghold_placed,
    StrongholdRemoved: _stronghold_removed,
    StrongholdsReturned: _strongholds_returned,
    CardConquered: _card_conquered,
    CardPaired: _card_paired,
    FreeCardTaken: _free_card_taken,
    NobleReserved: _noble_reserved,
    CardsDiscarded: _cards_discarded,
}


def fill_events(out: RepeatedCompositeFieldContainer[events_pb2.Event], events: Iterable[Event]) -> None:
    """Append the proto form of each event."""
    for event in events:
        _WRITERS[type(event)](out.add(), event)


# --- proto -> core ------------------------------------------------------------------------------


def _enum(table: dict[int, Any], value: int, field: str) -> Any:
    member = table.get(value)
    if member is None:
        raise RuleViolation(Reason.INVALID_STATE, f"unknown enum value {value}", field=field)
    return member


def _optional(msg: Any, name: str) -> int | None:
    return getattr(msg, name) if msg.HasField(name) else None


def _color(value: int, field: str) -> int:
    color = _CORE_COLORS.get(value)
    if color is None:
        raise RuleViolation(Reason.INVALID_STATE, f"{value} is not a colour", field=field)
    return color


def event_from_proto(msg: events_pb2.Event, field: str) -> Event:
    """The core event; malformed input raises INVALID_STATE naming ``field``."""
    kind = msg.WhichOneof("kind")
    if kind == "game_started":
        return GameStarted(msg.game_started.first_seat, msg.game_started.num_players)
    if kind == "gems_taken":
        return GemsTaken(msg.gems_taken.seat, tokens_from_proto(msg.gems_taken.tokens))
    if kind == "gems_returned":
        return GemsReturned(msg.gems_returned.seat, tokens_from_proto(msg.gems_returned.tokens))
    if kind == "card_reserved":
        m = msg.card_reserved
        return CardReserved(m.seat, _optional(m, "card_id"), m.deck, m.blind, _optional(m, "slot"))
    if kind == "gold_received":
        return GoldReceived(msg.gold_received.seat, msg.gold_received.amount)
    if kind == "card_purchased":
        p = msg.card_purchased
        source: CardSource = _enum(_SOURCES, p.source, f"{field}.card_purchased.source")
        return CardPurchased(p.seat, p.card_id, source, _optional(p, "slot"), tokens_from_proto(p.payment))
    if kind == "card_revealed":
        r = msg.card_revealed
        return CardRevealed(r.deck, r.slot, r.card_id)
    if kind == "market_slot_emptied":
        return MarketSlotEmptied(msg.market_slot_emptied.deck, msg.market_slot_emptied.slot)
    if kind == "noble_visited":
        return NobleVisited(msg.noble_visited.seat, msg.noble_visited.noble_id)
    if kind == "decision_required":
        d = msg.decision_required
        decision: DecisionKind = _enum(DECISION_KINDS, d.kind, f"{field}.decision_required.kind")
        if decision is DecisionKind.TAKE_GEM:
            path = f"{field}.decision_required.colors"
            colors = tuple([_color(value, f"{path}[{index}]") for index, value in enumerate(d.colors)])
            return DecisionRequired(d.seat, decision, d.amount, colors)
        return DecisionRequired(d.seat, decision, d.amount, tuple(d.options))
    if kind == "passed":
        return Passed(msg.passed.seat)
    if kind == "final_round_triggered":
        return FinalRoundTriggered(msg.final_round_triggered.seat, msg.final_round_triggered.prestige)
    if kind == "turn_ended":
        t = msg.turn_ended
        return TurnEnded(t.seat, t.next_seat, t.turn)
    if kind == "game_ended":
        g = msg.game_ended
        reason: EndReason = _enum(END_REASONS, g.reason, f"{field}.game_ended.reason")
        ranking = tuple([Standing(s.seat, s.place, s.prestige, s.purchased_cards) for s in g.ranking])
        return GameEnded(reason, ranking, tuple(g.winners))
    if kind == "city_claimed":
        return CityClaimed(msg.city_claimed.seat, msg.city_claimed.city_id)
    if kind == "power_gem_taken":
        gem = msg.power_gem_taken
        return PowerGemTaken(gem.seat, _color(gem.color, f"{field}.power_gem_taken.color"), gem.post_id)
    if kind == "shield_placed":
        return ShieldPlaced(msg.shield_placed.seat, msg.shield_placed.post_id, msg.shield_placed.prestige_gained)
    if kind == "stronghold_placed":
        sp = msg.stronghold_placed
        return StrongholdPlaced(sp.seat, sp.card_id, _optional(sp, "from_card_id"))
    if kind == "stronghold_removed":
        sr = msg.stronghold_removed
        return StrongholdRemoved(sr.seat, sr.card_id, sr.owner)
    if kind == "strongholds_returned":
        st = msg.strongholds_returned
        return StrongholdsReturned(st.owner, st.card_id, st.count)
    if kind == "card_conquered":
        return CardConquered(msg.card_conquered.seat, msg.card_conquered.card_id)
    if kind == "card_paired":
        cp = msg.card_paired
        return CardPaired(cp.seat, cp.card_id, cp.partner_card_id, _color(cp.color, f"{field}.card_paired.color"))
    if kind == "free_card_taken":
        f = msg.free_card_taken
        return FreeCardTaken(f.seat, f.card_id, f.deck, f.slot)
    if kind == "noble_reserved":
        return NobleReserved(msg.noble_reserved.seat, msg.noble_reserved.noble_id)
    if kind == "cards_discarded":
        return CardsDiscarded(msg.cards_discarded.seat, tuple(msg.cards_discarded.card_ids))
    raise RuleViolation(Reason.INVALID_STATE, "the event is empty: set one kind of event", field=field)


def events_from_proto(msgs: Iterable[events_pb2.Event], field: str = "events") -> tuple[Event, ...]:
    return tuple([event_from_proto(msg, f"{field}[{index}]") for index, msg in enumerate(msgs)])
