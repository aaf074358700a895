"""A serving process's cyclic collector (engine_service/process/collector.py).

Rule: the first generation waits for FIRST_GENERATION_THRESHOLD net allocations (a call's objects are freed by
their reference counts first), the older generations keep Python's thresholds.
"""

from __future__ import annotations

import gc

from engine_service.process.collector import FIRST_GENERATION_THRESHOLD, tune_collector


def test_a_serving_process_collects_its_first_generation_less_often_and_the_others_as_python_does() -> None:
    before = gc.get_threshold()  # a server started in this process by an earlier test may have tuned it already
    try:
        gc.set_threshold(700, 11, 12)  # Python's first threshold; the others made distinct, to see them kept
        tune_collector()
        assert gc.get_threshold() == (FIRST_GENERATION_THRESHOLD, 11, 12)
        assert FIRST_GENERATION_THRESHOLD > 700
    finally:
        gc.set_threshold(*before)
