"""The gRPC adapter over the API layer: servicer, per-call interceptor, rich errors, the server build.

``app.build_server`` builds a server in-process (tests, benchmarks);
``engine_service.process`` runs it, beside the HTTP listener, from the command line.
"""
