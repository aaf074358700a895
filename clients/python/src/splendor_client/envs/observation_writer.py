"""The engine's observation (``encode_observation(state, seat)``), written into a numpy array from indices.

The engine builds the values as a Python tuple, one float at a time; an environment then
copies them into its array. Most of the vector is card and noble features (the market,
the reserved cards, the nobles): the engine's ``state_features`` names them as rows of one
table computed once (``ObservationTables``: card and noble values), which this writer
gathers into positions computed once per ruleset (one numpy gather and scatter); the few
remaining numbers (bank, decks, flags, seats, holdings) come as one short list, put in
place in one more. ``state_features`` reads the state directly, hiding what a seat's view
hides (other seats' blind reserves), so no view is built. A ruleset whose module adds
slices is written by the engine's encoder. All of it comes from the engine's in-process
API (``local_engine``). ``tests/envs/test_observation_writer.py`` checks the
result equals the core's for every ruleset, player count and seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..local_engine import local_engine


class ObservationWriter:
    """Writes a seat's observation of a state of one ruleset into an array of the layout's length."""

    def __init__(self, modules: frozenset[str], num_players: int) -> None:
        engine = local_engine()
        self._state_features = engine.state_features
        self._encode_observation = engine.encode_observation
        tables = engine.observation_tables(modules, num_players)
        layout = tables.layout
        self.length = layout.length
        self.players = num_players
        self.module = layout.module
        offsets = {piece.name: piece.offset for piece in layout.slices}
        lengths = {piece.name: piece.length for piece in layout.slices}
        features = tables.card_features
        noble_features = tables.noble_features
        reserved_features = tables.reserved_features
        reserve_limit = lengths["seat0.reserved"] // reserved_features
        # The table ``state_features`` numbers rows of, ``card_features`` wide: every card, the empty card slot (all
        # zero), every noble, the empty noble slot. A noble's row (and its slot's positions) repeat its last
        # feature to fill the width: the repeated writes put the same value in the same place.
        noble_count = len(tables.noble_values)
        nobles = np.zeros((noble_count + 1, noble_features), np.float32)
        nobles[:noble_count] = tables.noble_values
        table = np.zeros((tables.empty_noble_row + 1, features), np.float32)
        table[: len(tables.card_values)] = tables.card_values
        table[tables.first_noble_row :] = np.pad(nobles, ((0, 0), (0, features - noble_features)), mode="edge")
        self._table = table
        # Where each row goes, in the order ``state_features`` lists them: the market's slots row by row, each
        # seat's reserved slots (seat-relative), the noble slots.
        columns = np.arange(features)
        rows = [offsets["market"] + features * slot + columns for slot in range(tables.market_slots)]
        for index in range(num_players):
            start = offsets[f"seat{index}.reserved"]
            rows += [start + reserved_features * slot + columns for slot in range(reserve_limit)]
        noble_columns = np.minimum(columns, noble_features - 1)
        rows += [offsets["nobles"] + noble_features * slot + noble_columns for slot in range(num_players + 1)]
        self._positions = np.array(rows, np.int64)
        self.base_length = offsets[f"seat{num_players - 1}.reserved"] + lengths[f"seat{num_players - 1}.reserved"]
        gathered = np.zeros(self.length, np.bool_)
        gathered[self._positions.ravel()] = True
        gathered[self.base_length :] = True
        self._scalar_positions = np.flatnonzero(~gathered)

    def write(self, state: Any, seat: int, out: NDArray[np.float32]) -> None:
        """Write ``seat``'s observation of ``state`` into ``out``."""
        if self.length > self.base_length:  # a module's slices: the engine's encoder writes them from a view
            out[:] = self._encode_observation(state, seat)
            return
        rows, scalars = self._state_features(state, seat)
        out[self._positions] = self._table[rows]
        out[self._scalar_positions] = scalars
