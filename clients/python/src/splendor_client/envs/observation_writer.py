"""The rules core's observation (``encode_view(view_for(state, seat))``), written into a numpy array from indices.

The core builds the values as a Python tuple, one float at a time; an environment then
copies them into its array. Most of the vector is card and noble features (the market,
the reserved cards, the nobles), which this writer gathers from tables computed once
(``CARD_VALUES``, ``NOBLE_VALUES``) into positions computed once per ruleset; the few
remaining numbers (bank, decks, flags, seats, holdings) go in as one short list. It
reads the state directly, hiding what ``view_for`` hides (other seats' blind reserves),
so it needs no view. A ruleset whose module adds slices is written by the core's encoder.
``tests/envs/test_observation_writer.py`` checks the result equals the core's for every
ruleset, player count and seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


class ObservationWriter:
    """Writes a seat's observation of a state of one ruleset into an array of the layout's length."""

    def __init__(self, modules: frozenset[str], num_players: int) -> None:
        from engine_service.rules import CARDS, NOBLES, observation  # noqa: PLC0415  (the core's tables)

        self._observation: Any = observation
        self._cards: Any = CARDS
        layout = observation.observation_layout(modules, num_players)
        self.length = layout.length
        self.players = num_players
        self.module = layout.module
        self._shape = observation.market_shape(layout.module)
        offsets = {piece.name: piece.offset for piece in layout.slices}
        features = observation.CARD_FEATURES
        # Row len(CARDS) (and len(NOBLES)) is the empty slot: all zero.
        self._card_table = np.zeros((len(CARDS) + 1, features), np.float32)
        self._card_table[: len(CARDS)] = observation.CARD_VALUES
        self._noble_table = np.zeros((len(NOBLES) + 1, observation.NOBLE_FEATURES), np.float32)
        self._noble_table[: len(NOBLES)] = observation.NOBLE_VALUES
        self._no_card, self._no_noble = len(CARDS), len(NOBLES)
        lengths = {piece.name: piece.length for piece in layout.slices}
        reserved_features = observation.RESERVED_FEATURES
        reserve_limit = self._reserve_limit = lengths["seat0.reserved"] // reserved_features
        # Where the gathered features go: the market and the nobles are contiguous runs, each seat's
        # reserved slots a run of rows whose first CARD_FEATURES columns are the card.
        self._market = slice(offsets["market"], offsets["market"] + features * sum(self._shape))
        self._nobles = slice(offsets["nobles"], offsets["nobles"] + observation.NOBLE_FEATURES * (num_players + 1))
        names = [f"seat{index}.reserved" for index in range(num_players)]
        self._reserved = [slice(offsets[name], offsets[name] + lengths[name]) for name in names]
        base_length = self._reserved[-1].stop
        self.base_length = base_length
        gathered = np.zeros(self.length, np.bool_)
        gathered[self._market] = True
        gathered[self._nobles] = True
        for run in self._reserved:
            gathered[run] = np.tile(np.arange(reserved_features) < features, reserve_limit)
        gathered[base_length:] = True
        self._scalar_positions = np.flatnonzero(~gathered)
        self._reserved_shape = (reserve_limit, reserved_features)

    def write(self, state: Any, seat: int, out: NDArray[np.float32]) -> None:
        """Write ``seat``'s observation of ``state`` into ``out``."""
        observation = self._observation
        if self.length > self.base_length:  # a module's slices: the core's encoder writes them from a view
            out[:] = observation.encode_view(observation.view_for(state, seat))
            return
        players = self.players
        order = [(seat + offset) % players for offset in range(players)]
        shape = self._shape
        no_card = self._no_card
        market_ids: list[int] = []
        for row, slots in enumerate(shape):
            cards = state.market[row] if row < len(state.market) else ()
            for slot in range(slots):
                card_id = cards[slot] if slot < len(cards) else None
                market_ids.append(no_card if card_id is None else card_id)
        sizes = [len(pile) for pile in state.decks] + [0] * len(shape)
        scalars: list[float] = [*state.bank, *sizes[: len(shape)]]
        over = state.end_reason is not None
        scalars += [state.turn, state.final_round, over, state.passes_in_a_row]
        relative = order.index
        turn_seat = [0.0] * players
        turn_seat[relative(state.seat)] = 1.0
        acting = [0.0] * players
        pending = state.pending
        if not over:
            acting[relative(pending.seat if pending is not None else state.seat)] = 1.0
        kinds = [0.0] * (observation.DECISION_KIND_SLOTS + 1)
        if pending is not None:
            if 1 <= pending.kind.value <= observation.DECISION_KIND_SLOTS:
                kinds[pending.kind.value - 1] = 1.0
            kinds[-1] = pending.amount
        scalars += turn_seat + acting + kinds
        decks = self._cards
        card_table = self._card_table
        features = card_table.shape[1]
        for index, actual in enumerate(order):
            player = state.players[actual]
            card_ids: list[int] = []
            scalars += [*player.tokens, *player.bonuses, player.prestige, len(player.purchased), len(player.nobles)]
            for slot in range(self._reserve_limit):
                deck_flags = [0.0] * observation.MAX_DECKS
                if slot < len(player.reserved):
                    card_id = player.reserved[slot]
                    hidden = actual != seat and player.reserved_blind[slot]
                    card_ids.append(no_card if hidden else card_id)
                    deck_flags[decks[card_id].deck] = 1.0
                    scalars += [hidden, *deck_flags]
                else:
                    card_ids.append(no_card)
                    scalars += [0.0, *deck_flags]
            out[self._reserved[index]].reshape(self._reserved_shape)[:, :features] = card_table[card_ids]
        nobles = list(state.nobles[: players + 1]) + [self._no_noble] * (players + 1 - len(state.nobles))
        out[self._market] = card_table[market_ids].ravel()
        out[self._nobles] = self._noble_table[nobles].ravel()
        out[self._scalar_positions] = scalars
