"""Splendor in OpenSpiel (the client's ``openspiel`` extra, with the ``splendor-engine`` package).

Importing this package registers the Python game ``python_splendor`` (``game.py``):

    import pyspiel
    import splendor_client.openspiel
    game = pyspiel.load_game("python_splendor(players=2,module=cities)")
"""

from .game import DEALS, MODULES, SHORT_NAME, SplendorGame, SplendorObserver, SplendorState, action_space

__all__ = ["DEALS", "MODULES", "SHORT_NAME", "SplendorGame", "SplendorObserver", "SplendorState", "action_space"]
