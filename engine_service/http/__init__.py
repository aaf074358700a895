"""``splendor.v1.EngineService`` over HTTP: the Connect protocol (JSON and binary) and gRPC-Web.

The same API layer as gRPC (``engine_service.api``), served by the official Connect
runtime (``connectrpc``, its WSGI application) under waitress, a threaded WSGI server, on
a listener of its own beside the gRPC server in the same process (``--http-address``).
Browsers and ``curl`` call it with plain HTTP/1.1 POSTs.

- ``errors.py``: ``ApiError`` as a Connect error with the same ErrorInfo and BadRequest details;
- ``endpoints.py``: the method table as Connect endpoints;
- ``observe.py``: admission, metrics and the per-call log line, as a Connect interceptor;
- ``front.py``: what comes before Connect: ``/healthz``, CORS, 404/405/415;
- ``edge.py``: what waitress's event-loop thread decides before any handler thread: probes,
  refusals before the body is read, slow clients, the connection cap;
- ``cors.py``: the CORS policy (``--http-cors-origin``);
- ``server.py``: the listener: start, drain, stop.
"""

from .server import HttpServer

__all__ = ["HttpServer"]
