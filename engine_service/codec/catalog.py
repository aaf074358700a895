"""The static GetCatalog answer: cards, nobles, each module's components, the action-id and observation layouts
and the server-side bot policies (given by the caller: conversion imports no bots)."""

from __future__ import annotations

from functools import cache
from typing import Final, Protocol

from splendor.v1 import catalog_pb2

from engine_service.rules import (
    ACTION_ID_COUNT,
    CARDS,
    NOBLES,
    CardKind,
    id_layout,
    modules_using,
    observation_layouts,
    registered_modules,
)

from .common import color_to_proto, fill_gems, modules_to_proto
from .modules import adapter_for
from .observation import fill_observation_layout

_CARD_KINDS: Final[dict[CardKind, catalog_pb2.CardKind.ValueType]] = {
    kind: catalog_pb2.CardKind.Value(f"CARD_KIND_{kind.name}") for kind in CardKind
}


class BotPolicy(Protocol):
    """What the catalog says of a server-side bot policy (``engine_service.bots.PolicySpec`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def searches(self) -> bool: ...


@cache
def catalog(bot_policies: tuple[BotPolicy, ...] = ()) -> catalog_pb2.Catalog:
    """The catalog message of the registered rules and ``bot_policies`` (shared: never mutate it); the API and the
    in-process door pass ``engine_service.bots.policy_specs()``."""
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
    for module in registered_modules():
        adapter = adapter_for(module)
        if adapter is not None and adapter.fill_catalog is not None:
            adapter.fill_catalog(out)
    for item in id_layout().ranges:
        if item.offset + item.size <= ACTION_ID_COUNT:
            modules = modules_to_proto(modules_using(item))
            out.action_id_ranges.add(
                kind=item.kind, offset=item.offset, count=item.size, index_rule=item.rule, modules=modules
            )
    for layout in observation_layouts():
        fill_observation_layout(out.observation_layouts.add(), layout)
    out.bot_policies.extend(policy.name for policy in bot_policies)
    out.search_policies.extend(policy.name for policy in bot_policies if policy.searches)
    return out
