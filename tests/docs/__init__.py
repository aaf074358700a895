"""Documentation that is executed: every fenced block of README.md, docs/*.md, clients/*/README.md and
conformance/README.md.

How each block is checked, by the fence's language:

- ``python``: run as a script (``.venv``'s interpreter), which must exit 0 within the time limit,
  after the Python blocks before it in the same document (a page's examples build on each other).
- ``sh``, ``console``, ``shell``, ``bash``: with ``$ `` prompts, a session: each command runs in one
  bash, in order, and the lines under it are its expected output; without prompts, every line is a
  command. Either way a line ending in ``\\`` continues on the next (unless the backslash is in a
  trailing comment). A command must exit 0, unless its expected output is shown and matches (a refusal).
- ``ts``, ``typescript``: a file of a fresh ES-module project set up as the TypeScript client's README says,
  type-checked with ``tsc`` and run with ``tsx`` (``typescript.py``; skipped until ``npm ci`` ran in
  ``clients/typescript``).
- ``json``, ``yaml``: parsed (a JSON block may also be one document per line).
- ``text``: literal text (a log sample, a table printed by a tool); shown, never run.
- anything else must be marked as an illustration.

Marking: ``<!-- doc-test: illustration: why -->`` right before the fence (blank lines between are
allowed, as prettier writes them) marks a block that is shown but not run (it starts a server that
never exits, it needs a browser...). Few are. ``<!-- doc-test: needs-engine: why -->`` marks a block
that plays in-process: it runs here, and with the client alone (``test_client_only.py``) it must stop
with ``EngineNotInstalled`` saying what to install.

Normalisation, so that a reader's copy and the test's run say the same: ``localhost:50051`` (and
``127.0.0.1:50051``), ``localhost:8080`` and ``localhost:9464`` become the test server's gRPC, HTTP
and metrics ports on 127.0.0.1, and ``SPLENDOR_ADDRESS`` (the clients' default) its gRPC address.
In expected output ``...`` stands for any text (output trimmed), whitespace is not compared, and
128-bit hex ids (game ids, request ids) compare equal.

One server is started for the session (``conftest.py``); each file's blocks run in order in one
scratch directory that links to the checkout, as a reader's shell at its root: a block that writes a
file there (one git would not ignore) fails, since a reader would leave it in the repository.
"""
