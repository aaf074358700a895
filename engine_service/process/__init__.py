"""The serving process, above both transports: ``serve`` runs the gRPC server and the HTTP listener.

``serve.py``: one process's life (both listeners, metrics, tracing, signals, drain);
``workers.py``: several such processes on one port (``--processes``).
"""

from .serve import serve

__all__ = ["serve"]
