"""The ``ansi`` rendering both environments share: the terminal board of one seat's view."""

from __future__ import annotations

from ..board import board_lines
from ..describe import Describer
from .games import Game


class BoardText:
    """One seat's table as ``splendor-play`` shows it; the catalog is read once, on the first render."""

    def __init__(self) -> None:
        self._describer: Describer | None = None

    def of(self, game: Game, seat: int) -> str:
        if self._describer is None:
            self._describer = Describer(game.catalog())
        return "\n".join(board_lines(game.view(seat), self._describer))
