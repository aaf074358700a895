"""The Cities of Splendor modules, by the name used in a game's configuration.

The publisher intends them to be played one at a time; ``config.validate_config``
refuses a combination.
"""

from __future__ import annotations

from typing import Final

from ..plugin import Module
from . import cities, orient, strongholds, trading_posts

MODULES: Final[dict[str, Module]] = {
    cities.NAME: cities.MODULE,
    trading_posts.NAME: trading_posts.MODULE,
    strongholds.NAME: strongholds.MODULE,
    orient.NAME: orient.MODULE,
}
