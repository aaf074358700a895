"""The Trading Posts module's printed components: the five posts of the Route to the Orient, from
``data/trading_posts.csv`` (post ids are its row order)."""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import Final, NamedTuple

from ...colors import COLOR_NAMES, GEM_COLORS


class Post(NamedTuple):
    """One trading post as printed: what it takes to place a shield on it."""

    id: int
    power: str
    requirement: tuple[int, ...]  # five bonus counts
    nobles: int  # nobles the player must have


# The powers the code implements, by post id; the data file must list them in this order.
_POWERS: Final = (
    "gem_after_purchase",
    "extra_gem_with_two",
    "gold_worth_two",
    "five_prestige",
    "prestige_per_shield",
)


def _load() -> tuple[Post, ...]:
    text = resources.files("engine_service.rules").joinpath("data", "trading_posts.csv").read_text(encoding="utf-8")
    posts = []
    for expected_id, row in enumerate(csv.DictReader(io.StringIO(text))):
        if int(row["id"]) != expected_id:
            raise ValueError(f"trading_posts.csv: ids must be consecutive, got {row['id']} at row {expected_id}")
        if expected_id >= len(_POWERS) or row["power"] != _POWERS[expected_id]:
            raise ValueError(f"trading_posts.csv: post {expected_id} has power {row['power']!r}, expected in {_POWERS}")
        posts.append(
            Post(
                id=expected_id,
                power=row["power"],
                requirement=tuple(int(row[COLOR_NAMES[color]]) for color in GEM_COLORS),
                nobles=int(row["nobles"]),
            )
        )
    if len(posts) != len(_POWERS):
        raise ValueError(f"trading_posts.csv: {len(posts)} posts, expected {len(_POWERS)}")
    return tuple(posts)


POSTS: Final[tuple[Post, ...]] = _load()
GEM_AFTER_PURCHASE: Final = 0
EXTRA_GEM_WITH_TWO: Final = 1
GOLD_WORTH_TWO: Final = 2
FIVE_PRESTIGE: Final = 3
PRESTIGE_PER_SHIELD: Final = 4
FIVE_PRESTIGE_POINTS: Final = 5
