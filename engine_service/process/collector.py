"""The cyclic garbage collector of a serving process, set for a server's allocations.

A call allocates thousands of objects that live until its answer is sent (a batch of 64 items:
each item's states, events, messages), and the memo keeps each move's new state. With Python's
default first threshold (700 allocations) the collector runs many times within each such call and
finds those objects alive every time, promoting them to the older generations, whose collections
then walk the memo's states. A first threshold of ``FIRST_GENERATION_THRESHOLD`` lets a call's
objects be freed by their reference counts before the collector looks at them (the engine makes no
reference cycles on a call's path: ``tests/server/test_batch_apply.py``), and the
collector still runs, for any cycle a library makes, after that many net allocations: a few MB
at most.
"""

from __future__ import annotations

import gc
from typing import Final

# benchmarks/bot_loop_bench.py, 64-game batches, against 700 (two servers side by side, interleaved, 6 rounds of
# 10,000 moves, load 3.0): 0.927 (0.877-1.000) of the server's CPU a move.
FIRST_GENERATION_THRESHOLD: Final = 20_000


def tune_collector() -> None:
    """Set the first generation's threshold of this process's collector; the older generations' stay Python's."""
    _, second, third = gc.get_threshold()
    gc.set_threshold(FIRST_GENERATION_THRESHOLD, second, third)
