"""Re-exports of ``engine_service.codec`` under the names the service imports (kept while it moves to ``api``)."""

from engine_service.codec import events_from_proto, fill_events

__all__ = ["events_from_proto", "fill_events"]
