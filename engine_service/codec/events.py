"""Events between the core's records and ``splendor.v1.Event``: one table, built from the registry.

Each event record converts by field name (``records.py``) to the ``Event`` oneof
field named like it in snake case (``CardPurchased`` <-> ``card_purchased``).
Core -> proto runs on every ApplyAction; proto -> core only for GetPlayerView,
whose events are redacted by the core's ``events_for``. Malformed input is
INVALID_STATE naming the field; writing an event the contract has no field for
fails loudly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from splendor.v1 import events_pb2

from engine_service.rules import (
    CardPurchased,
    CardReserved,
    CardRevealed,
    DecisionRequired,
    Event,
    FinalRoundTriggered,
    GameEnded,
    GameStarted,
    GemsReturned,
    GemsTaken,
    GoldReceived,
    MarketSlotEmptied,
    NobleVisited,
    Passed,
    Reason,
    RuleViolation,
    TurnEnded,
    registered_modules,
)

from .common import invalid_state
from .records import OneofTable, message_descriptor

BASE_EVENTS: Final = (
    GameStarted,
    GemsTaken,
    GemsReturned,
    CardReserved,
    GoldReceived,
    CardPurchased,
    CardRevealed,
    MarketSlotEmptied,
    NobleVisited,
    DecisionRequired,
    Passed,
    FinalRoundTriggered,
    TurnEnded,
    GameEnded,
)
_ONEOF: Final = message_descriptor(events_pb2.Event).oneofs_by_name["kind"]


def _bad_color(value: int, field: str) -> RuleViolation:
    return invalid_state(field, f"{value} is not a colour")


_TABLE: Final = OneofTable(
    _ONEOF, lambda: BASE_EVENTS + tuple(r for module in registered_modules() for r in module.events), _bad_color
)


def fill_events(out: RepeatedCompositeFieldContainer[events_pb2.Event], events: Iterable[Event]) -> None:
    """Append the proto form of each event."""
    by_type = _TABLE.by_type
    for event in events:
        entry = by_type.get(type(event))
        if entry is None:
            raise TypeError(f"the contract has no Event field for {type(event).__name__}")
        name, codec = entry
        codec.write(getattr(out.add(), name), event)


def event_from_proto(msg: events_pb2.Event, field: str) -> Event:
    """The core event; malformed input raises INVALID_STATE naming ``field``."""
    kind = msg.WhichOneof("kind")
    entry = _TABLE.by_field.get(kind) if kind is not None else None
    if kind is None or entry is None:
        raise RuleViolation(Reason.INVALID_STATE, "the event is empty: set one kind of event", field=field)
    event: Event = entry[0].read(getattr(msg, kind), f"{field}.{entry[1]}")
    return event


def events_from_proto(msgs: Iterable[events_pb2.Event], field: str = "events") -> tuple[Event, ...]:
    return tuple([event_from_proto(msg, f"{field}[{index}]") for index, msg in enumerate(msgs)])
