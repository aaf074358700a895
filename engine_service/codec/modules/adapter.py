"""What a module's protobuf adapter is: how its state and components travel in the contract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from splendor.v1 import catalog_pb2


class ModuleAdapter(NamedTuple):
    """How one module's state and components travel in the contract."""

    read: Callable[[Any], Any]  # the module's state message -> its core state (its ``validate`` checks it)
    write: Callable[[Any, Any], None]  # the core state -> the module's empty state message
    fill_catalog: Callable[[catalog_pb2.Catalog], None] | None = None  # its printed components
