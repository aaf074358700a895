"""The Trading Posts module in the contract: ``TradingPostsState`` and the catalog's ``trading_posts``."""

from __future__ import annotations

from typing import Final

from splendor.v1 import catalog_pb2, trading_posts_pb2

from engine_service.rules.modules.trading_posts import POSTS, TradingPostsState

from ..common import fill_gems
from .adapter import ModuleAdapter


def read(msg: trading_posts_pb2.TradingPostsState) -> TradingPostsState:
    return TradingPostsState(tuple([tuple(seat.post_ids) for seat in msg.shields]))


def write(out: trading_posts_pb2.TradingPostsState, posts: TradingPostsState) -> None:
    for shields in posts.shields:
        out.shields.add().post_ids.extend(shields)


def fill_catalog(out: catalog_pb2.Catalog) -> None:
    for post in POSTS:
        power = trading_posts_pb2.TradingPostPower.Value(f"TRADING_POST_POWER_{post.power.upper()}")
        msg = out.trading_posts.add(id=post.id, power=power, nobles_required=post.nobles)
        fill_gems(msg.requirement, post.requirement)


ADAPTER: Final[ModuleAdapter] = ModuleAdapter(read, write, fill_catalog)
