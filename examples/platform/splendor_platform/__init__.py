"""An example match platform on the Splendor engine: SQLite, sessions bound to seats, one engine call per move.

Walked through in docs/platform.md. It needs only the contract's stubs and the Python client (``splendor-proto``,
``splendor-client``), never the engine package.
"""

from .matches import HUMAN, Platform, Refused, SeatState
from .store import Store
from .web import Api, serve

__all__ = ["HUMAN", "Api", "Platform", "Refused", "SeatState", "Store", "serve"]
