"""The serving process, above both transports: it runs the gRPC server and the HTTP listener.

``main.py``: one process's life (both listeners, metrics, tracing, signals, drain), ``serve``
its entry point; ``workers.py``: several such processes on one port (``--processes``).
"""
