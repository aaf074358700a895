"""Re-export of ``engine_service.codec.catalog`` under the name the service imports (kept while it moves to ``api``)."""

from engine_service.codec import catalog

__all__ = ["catalog"]
