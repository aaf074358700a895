"""The Orient module in the contract: ``OrientState`` (its cards are in the catalog's ``cards``)."""

from __future__ import annotations

from typing import Final

from splendor.v1 import orient_pb2

from engine_service.rules.modules.orient import OrientState

from .adapter import ModuleAdapter


def read(msg: orient_pb2.OrientState) -> OrientState:
    return OrientState(
        tuple([tuple([(pair.card_id, pair.partner_card_id) for pair in seat.pairs]) for seat in msg.pairs]),
        tuple([tuple(seat.noble_ids) for seat in msg.reserved_nobles]),
        tuple([tuple(seat.card_ids) for seat in msg.discarded]),
    )


def write(out: orient_pb2.OrientState, orient: OrientState) -> None:
    for pairs in orient.pairs:
        out_pairs = out.pairs.add().pairs
        for card_id, partner in pairs:
            out_pairs.add(card_id=card_id, partner_card_id=partner)
    for nobles in orient.reserved_nobles:
        out.reserved_nobles.add().noble_ids.extend(nobles)
    for discarded in orient.discarded:
        out.discarded.add().card_ids.extend(discarded)


ADAPTER: Final[ModuleAdapter] = ModuleAdapter(read, write)
