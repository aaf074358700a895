"""The generator of the conformance vectors (``python -m conformance.generator``; ``make conformance-generate``).

Every case is made by calling this engine's API in-process, exactly as a server would on a call, and
recording the request with its answer: the vectors say what this engine answers, and a runner checks
that a server answers the same. Plain games are played with the engine's seeded server-side bots, so
the same code writes the same files on every machine (``--check`` regenerates and compares).
"""
