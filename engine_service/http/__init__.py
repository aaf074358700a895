"""``splendor.v1.EngineService`` over HTTP: the Connect protocol (JSON and binary) and gRPC-Web.

The same API layer as gRPC (``engine_service.api``), served by the official Connect runtime
(``connectrpc``, its ASGI application) under hypercorn, an ASGI server, on a listener of its own
beside the gRPC server in the same process (``--http-address``). Browsers and ``curl`` call it with
plain HTTP/1.1 POSTs; HTTP/2 without TLS (h2c) works too.

- ``errors.py``: ``ApiError`` as a Connect error with the same ErrorInfo and BadRequest details;
- ``endpoints.py``: the method table as Connect endpoints, run on threads of their own;
- ``observe.py``: metrics, traces and the per-call log line, as a Connect interceptor;
- ``front.py``: what comes before Connect: ``/healthz``, the web front end, CORS, 404/405/415;
- ``guard.py``: the edge of an engine call: refusals before its body, its body read within limits;
- ``connections.py``: the listening socket's connection cap;
- ``cors.py``: the CORS policy (``--http-cors-origin``);
- ``server.py``: the listener: start, drain, stop.
"""

from .server import HttpServer

__all__ = ["HttpServer"]
