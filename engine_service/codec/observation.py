"""Observations and their layouts as protobuf (``splendor.v1.Observation``, ``ObservationLayout``).

An observation's two vectors are written as their packed wire bytes and merged in one parse
(``wire.py``): set value by value, the mask alone has one flag per action id (8,920). Packed is
how proto3 encodes every repeated number, so the message is the one the field-by-field writes of
the core's ``observe`` would build (``tests/server/test_observation_codec.py``).

The values of a ruleset without slices of its module's own are written from the core's
``state_features`` (the card and noble slots as row numbers, the other values as numbers) with
each row's float32 bytes packed once per process, as the environments' ``ObservationWriter``
writes them into an array: no view is built (building it and encoding it took ~25 µs of a
~30 µs observation). ``state_features`` hides what the seat's view hides, so the bytes are those
of ``encode_view(view_for(state, seat))``; a ruleset with a module's slices is encoded from its view.
"""

from __future__ import annotations

import struct
from functools import cache
from operator import itemgetter
from typing import Final

from splendor.v1 import config_pb2, observation_pb2

from engine_service.rules import (
    GameState,
    ObservationLayout,
    id_layout,
    legal_action_ids,
    observation_layout,
    observation_values,
)
from engine_service.rules.observation import (
    CARD_FEATURES,
    CARD_VALUES,
    DECISION_KIND_SLOTS,
    NOBLE_FEATURES,
    NOBLE_VALUES,
    RESERVED_FEATURES,
    market_shape,
    state_features,
)
from engine_service.rules.reserve import RESERVE_LIMIT

from .common import MODULE_VALUES
from .wire import entry, packed_varints, tag

_VALUES: Final = tag(observation_pb2.Observation, "values")
_MASK: Final = tag(observation_pb2.Observation, "legal_action_mask")
_IDS: Final = tag(observation_pb2.Observation, "legal_action_ids")


def fill_observation(out: observation_pb2.Observation, state: GameState, seat: int, *, ids: bool = False) -> None:
    """``seat``'s observation of ``state`` into ``out``: its legal actions as the mask's flags, or with ``ids`` as
    their ids (``legal_action_ids``, the mask left empty)."""
    config = state.config
    plan = _plan(config.modules, config.num_players)
    out.seat = seat
    out.layout = plan.name
    values = _values_entry(plan, state, seat)
    legal = legal_action_ids(state, seat)
    if ids:
        tail = entry(_IDS, packed_varints(legal)) if legal else b""
    else:
        mask = bytearray(id_layout().count)
        for value in legal:
            mask[value] = 1
        tail = entry(_MASK, mask)
    out.MergeFromString(values + tail)


class _Plan:
    """How a ruleset's values are put together: its layout's name, and for a ruleset without slices of its own,
    where each piece goes. The pieces are the runs of ``state_features``' scalars that lie between two rows
    (``bounds``, in bytes once packed) followed by the rows, in the order ``state_features`` lists them;
    ``order`` lists them in the layout's order."""

    def __init__(self, modules: frozenset[str], num_players: int) -> None:
        layout = observation_layout(modules, num_players)
        self.name = layout.name
        last = next(piece for piece in layout.slices if piece.name == f"seat{num_players - 1}.reserved")
        self.from_features = layout.length == last.offset + last.length  # no module's slices after the seats
        market = sum(market_shape(layout.module))
        head = next(piece.offset for piece in layout.slices if piece.name == "market")  # bank, deck sizes
        middle = 1 + 3 + 2 * num_players + DECISION_KIND_SLOTS + 1  # turn, flags, turn and acting seat, pending
        runs = [head, middle]
        for _ in range(num_players):
            runs += [_SEAT_SCALARS] + [_SLOT_SCALARS] * RESERVE_LIMIT
        self.bounds = [(4 * sum(runs[:index]), 4 * sum(runs[: index + 1])) for index in range(len(runs))]
        first_row = len(runs)  # the rows' pieces: market, each seat's reserved slots, nobles
        reserved = first_row + market
        nobles = reserved + num_players * RESERVE_LIMIT
        order = [0, *range(first_row, reserved), *range(nobles, nobles + num_players + 1), 1]
        for seat in range(num_players):
            seat_run = 2 + seat * (1 + RESERVE_LIMIT)
            order.append(seat_run)
            for slot in range(RESERVE_LIMIT):
                order += [reserved + seat * RESERVE_LIMIT + slot, seat_run + 1 + slot]
        self.gather = itemgetter(*order)


@cache
def _plan(modules: frozenset[str], num_players: int) -> _Plan:
    return _Plan(modules, num_players)


def _row_bytes() -> tuple[bytes, ...]:
    """Each row ``state_features`` numbers as float32 bytes: every card, an empty card slot, every noble, an empty
    noble slot (a noble's row is its NOBLE_FEATURES values: the noble slots are that wide)."""
    cards = [struct.pack(f"<{CARD_FEATURES}f", *values) for values in CARD_VALUES]
    nobles = [struct.pack(f"<{NOBLE_FEATURES}f", *values) for values in NOBLE_VALUES]
    return (*cards, bytes(4 * CARD_FEATURES), *nobles, bytes(4 * NOBLE_FEATURES))


_ROWS: Final = _row_bytes()
_SEAT_SCALARS: Final = 6 + 5 + 3  # tokens, bonuses, counts
_SLOT_SCALARS: Final = RESERVED_FEATURES - CARD_FEATURES  # hidden flag, deck one-hot


def _values_entry(plan: _Plan, state: GameState, seat: int) -> bytes:
    """The ``values`` field of ``seat``'s observation, key included."""
    if not plan.from_features:
        values = observation_values(state, seat)[1]
        return entry(_VALUES, struct.pack(f"<{len(values)}f", *values))
    rows, scalars = state_features(state, seat)
    packed = struct.pack(f"<{len(scalars)}f", *scalars)
    pieces = [packed[start:end] for start, end in plan.bounds]
    pieces += map(_ROWS.__getitem__, rows)
    return entry(_VALUES, b"".join(plan.gather(pieces)))


def fill_observation_layout(out: observation_pb2.ObservationLayout, layout: ObservationLayout) -> None:
    out.name = layout.name
    out.num_players = layout.num_players
    out.length = layout.length
    if layout.module is not None:
        out.module = config_pb2.Module.ValueType(MODULE_VALUES[layout.module])
    for item in layout.slices:
        out.slices.add(name=item.name, offset=item.offset, length=item.length, meaning=item.meaning)
