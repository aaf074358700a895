"""The Cities module in the contract: ``CitiesState`` and the catalog's ``cities``."""

from __future__ import annotations

from typing import Final

from splendor.v1 import catalog_pb2, cities_pb2

from engine_service.rules.modules.cities import CITIES, CitiesState

from ..common import fill_gems
from .adapter import ModuleAdapter


def read(msg: cities_pb2.CitiesState) -> CitiesState:
    return CitiesState(tuple(msg.available_city_ids), tuple([tuple(held.city_ids) for held in msg.held]))


def write(out: cities_pb2.CitiesState, cities: CitiesState) -> None:
    out.available_city_ids.extend(cities.available)
    for held in cities.held:
        out.held.add().city_ids.extend(held)


def fill_catalog(out: catalog_pb2.Catalog) -> None:
    for city in CITIES:
        msg = out.cities.add(id=city.id, tile=city.tile, side=city.side, prestige=city.prestige)
        fill_gems(msg.requirement, city.requirement)
        msg.same_color_count = city.same_color
        msg.same_color_excludes_listed = city.same_color_excludes_listed


ADAPTER: Final[ModuleAdapter] = ModuleAdapter(read, write, fill_catalog)
