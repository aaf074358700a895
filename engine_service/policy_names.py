"""The names of the engine's bot policies: the one list the bots, the catalog and in-process clients read.

A module of its own, importing nothing, so conversion (``engine_service.codec.catalog``)
can name the policies without importing the bots that play them. ``ismcts`` also takes a
number of iterations per move (``ismcts:300``); ``engine_service.bots.make_policy`` parses
that spelling.
"""

from typing import Final

POLICY_NAMES: Final = ("random", "greedy", "ismcts")
