"""The commands the client's messages give when a piece of the install is missing, in one place.

The three packages (``splendor-proto``, ``splendor-engine``, ``splendor-client``) are on no
package index, so ``pip install 'splendor-client[engine]'`` cannot work: each command here
installs from a checkout of the repository, run at its root. ``tests/client/test_install_hints.py``
checks that every path a command names is the project it should be.
"""

from __future__ import annotations

from typing import Final

WHERE: Final = "at the root of a checkout of the splendor-engine repository (its packages are on no package index)"
# The contract's stubs (splendor.v1): what the client speaks.
STUBS_COMMAND: Final = "pip install ./clients/python-proto"
# The engine for in-process play, with the stubs it needs in the same command.
ENGINE_COMMAND: Final = "pip install ./clients/python-proto ."
# The chart of splendor-tournament (the client's tournament extra is matplotlib alone).
CHART_COMMAND: Final = "pip install matplotlib"


def stubs_missing(error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error for a client whose stubs (``splendor.v1``) are not importable: what to run, and where."""
    return ModuleNotFoundError(
        f"splendor-client needs the contract's stubs, the splendor-proto package ({error}): {WHERE}, "
        f"run `{STUBS_COMMAND}` in this Python (or name ./clients/python-proto in the command that installs "
        "the client)",
        name=error.name,
    )
