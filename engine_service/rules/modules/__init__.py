"""The Cities of Splendor modules, each a package of its own, registered here one line each.

The publisher intends them to be played one at a time; ``config.validate_config``
refuses a combination.
"""

from __future__ import annotations

from .. import registry
from . import cities, orient, strongholds, trading_posts

registry.register(cities.MODULE)
registry.register(trading_posts.MODULE)
registry.register(strongholds.MODULE)
registry.register(orient.MODULE)
