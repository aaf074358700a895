"""Hostile HTTP clients on loopback: many connections each held in one bad state, reopened as soon as the server
drops them (as an attacker would), in a process of their own (so that the attacker's work never slows the
probes of the test process) until the block ends.

    with holding(port, STALLED_BODY, count=1000) as attack:
        ...                      # probe the server meanwhile
    attack.reopened              # how many times the server dropped one

``python -m tests.edge.attackers PORT KIND COUNT REOPEN`` is that process: it prints ``opened`` once every connection
is open, holds them until its standard input closes, then prints its counts as JSON.

Each kind is the opening bytes a connection sends, and what it does after:

- ``IDLE``: nothing;
- ``TRICKLING``: a request's first line, then one more header byte every half second, never ending;
- ``STALLED_BODY``: a complete request's headers announcing a 10-byte body that never comes;
- ``ANNOUNCED_BODY``: headers announcing a 1 MiB body (the largest request), none of it sent;
- ``ANNOUNCED_CHUNKED``: headers announcing a chunked body, no chunk sent;
- ``HEADER_FLOOD``: 250 KB of one header line, never finished.
"""

from __future__ import annotations

import json
import resource
import selectors
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE_PATH = "/splendor.v1.EngineService"
_CALL = f"POST {SERVICE_PATH}/CreateGame HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@dataclass(frozen=True)
class Kind:
    name: str
    opening: bytes
    trickle: bytes = b""  # sent a byte at a time after the opening, every TRICKLE_SECONDS


IDLE = Kind("idle", b"")
TRICKLING = Kind("trickling", _CALL.encode(), trickle=b"X-Slow: " + b"a" * 8192)
STALLED_BODY = Kind("stalled_body", (_CALL + "Content-Length: 10\r\n\r\n").encode())
ANNOUNCED_BODY = Kind("announced_body", (_CALL + f"Content-Length: {1 << 20}\r\n\r\n").encode())
ANNOUNCED_CHUNKED = Kind("announced_chunked", (_CALL + "Transfer-Encoding: chunked\r\n\r\n").encode())
HEADER_FLOOD = Kind("header_flood", (_CALL + "X-Flood: ").encode() + b"a" * 250_000)
TRICKLE_SECONDS = 0.5
# How long the attacker tries to open its connections: past it, a server that takes no more has refused the rest
# (so a benchmark of a server that stops accepting ends, and says so).
OPENING_SECONDS = 30.0


@dataclass
class Attack:
    kind: Kind
    count: int
    opened: int = 0
    reopened: int = 0
    refused: int = 0  # connections the server would not even take (connect failed)


class _Held:
    __slots__ = ("pending", "sock", "trickled")

    def __init__(self, sock: socket.socket, pending: bytes) -> None:
        self.sock = sock
        self.pending = pending  # opening bytes not yet sent (a large one is sent as the server reads)
        self.trickled = 0


KINDS = {kind.name: kind for kind in (IDLE, TRICKLING, STALLED_BODY, ANNOUNCED_BODY, ANNOUNCED_CHUNKED, HEADER_FLOOD)}


@contextmanager
def holding(port: int, kind: Kind, count: int, *, reopen: bool = True) -> Iterator[Attack]:
    """``count`` connections to ``port`` held in ``kind``'s state, by another process, while the block runs;
    ``reopen``: each one the server drops is opened again at once."""
    attack = Attack(kind, count)
    command = [sys.executable, "-m", "tests.edge.attackers", str(port), kind.name, str(count), str(int(reopen))]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdin is not None and child.stdout is not None
    try:
        if child.stdout.readline().strip() != "opened":
            raise RuntimeError(f"the attacker did not start ({child.wait(timeout=10)})")
        yield attack
    finally:
        child.stdin.close()
        counts = json.loads(child.stdout.readline() or "{}")
        child.wait(timeout=30)
    attack.opened, attack.reopened, attack.refused = counts["opened"], counts["reopened"], counts["refused"]


def hold(port: int, kind: Kind, count: int, stop: threading.Event, *, reopen: bool) -> Attack:
    """Hold ``count`` connections in ``kind``'s state until ``stop`` is set (the attacker process's work)."""
    attack = Attack(kind, count)
    selector = selectors.DefaultSelector()
    held: dict[socket.socket, _Held] = {}

    def open_one() -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            attack.refused += 1
            return
        sock.setblocking(False)
        entry = _Held(sock, kind.opening)
        held[sock] = entry
        _send_some(entry)
        selector.register(sock, _events(entry))
        attack.opened += 1

    def drop(sock: socket.socket) -> None:
        selector.unregister(sock)
        del held[sock]
        sock.close()

    give_up = time.monotonic() + OPENING_SECONDS
    for opening in range(count):
        if time.monotonic() > give_up:  # a server that takes no more connections: the rest count as refused
            attack.refused += count - opening
            break
        open_one()
    print("opened", flush=True)
    next_trickle = time.monotonic() + TRICKLE_SECONDS
    while not stop.is_set():
        for key, events in selector.select(timeout=0.1):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            entry = held[sock]
            if events & selectors.EVENT_READ:
                try:
                    data = sock.recv(65536)
                except OSError:
                    data = b""
                if not data:  # the server closed it (answered or not): open another in its place
                    drop(sock)
                    if reopen and not stop.is_set():  # a server that takes no connection must not hold up the end
                        attack.reopened += 1
                        open_one()
                    continue
            if events & selectors.EVENT_WRITE:
                _send_some(entry)
                selector.modify(sock, _events(entry))
        if kind.trickle and time.monotonic() >= next_trickle:
            next_trickle += TRICKLE_SECONDS
            for entry in list(held.values()):
                if entry.trickled < len(kind.trickle) and not entry.pending:
                    entry.pending = kind.trickle[entry.trickled : entry.trickled + 1]
                    entry.trickled += 1
                    _send_some(entry)
    for sock in list(held):
        drop(sock)
    selector.close()
    return attack


def _send_some(entry: _Held) -> None:
    if not entry.pending:
        return
    try:
        sent = entry.sock.send(entry.pending)
    except (BlockingIOError, InterruptedError):
        return
    except OSError:
        entry.pending = b""  # the server closed it; the read side sees the end
        return
    entry.pending = entry.pending[sent:]


def _events(entry: _Held) -> int:
    return selectors.EVENT_READ | (selectors.EVENT_WRITE if entry.pending else 0)


def main() -> None:
    port, kind, count, reopen = int(sys.argv[1]), KINDS[sys.argv[2]], int(sys.argv[3]), sys.argv[4] == "1"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4 * count), hard), hard))
    stop = threading.Event()
    result: list[Attack] = []
    worker = threading.Thread(target=lambda: result.append(hold(port, kind, count, stop, reopen=reopen)))
    worker.start()
    sys.stdin.read()  # until the test closes it
    stop.set()
    worker.join()
    attack = result[0]
    print(json.dumps({"opened": attack.opened, "reopened": attack.reopened, "refused": attack.refused}), flush=True)


if __name__ == "__main__":
    main()
