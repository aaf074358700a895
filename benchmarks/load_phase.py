"""One timed phase of load, shared by the service benchmarks (service_bench, http_bench, http_runtimes).

Each sender runs on a thread of its own and sends requests back to back (request ``i, i+1, ...``
for thread ``i``) until the phase's time is up; the phase reports calls/s, the median and 99th
percentile latency, and the server's CPU per call, read before and after by ``server_cpu``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

Send = Callable[[int], object]  # sends request number i, raises on failure


@dataclass
class Phase:
    calls_per_second: float
    p50_ms: float
    p99_ms: float
    server_cpu_us: float  # server CPU per call: all threads of all server processes


def process_cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` has used so far, to the nanosecond: the sum of its threads' scheduler times
    (a thread that ended takes its time with it: a server's threads live as long as it does). Where the kernel
    keeps no scheduler statistics, user + system time in clock ticks (10 ms: measure longer)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):  # the thread ended meanwhile
            continue
    if total:
        return total / 1e9
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_load(senders: Sequence[Send], duration: float, server_cpu: Callable[[], float], label: str = "") -> Phase:
    """One thread per sender calling back to back for ``duration`` seconds; raises the first error."""
    latencies: list[list[float]] = [[] for _ in senders]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(senders) + 1)
    deadline = [0.0]

    def worker(index: int) -> None:
        send, mine, position = senders[index], latencies[index], index
        barrier.wait()
        try:
            while True:
                begin = time.perf_counter()
                if begin >= deadline[0]:
                    return
                send(position)
                mine.append(time.perf_counter() - begin)
                position += 1
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(len(senders))]
    for thread in threads:
        thread.start()
    cpu_before = server_cpu()
    began = time.perf_counter()
    deadline[0] = began + duration
    barrier.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    cpu = server_cpu() - cpu_before
    if errors:
        raise RuntimeError(f"{label}: {errors[0]}" if label else str(errors[0]))
    samples = sorted(latency for per_thread in latencies for latency in per_thread)
    return Phase(
        len(samples) / elapsed,
        samples[len(samples) // 2] * 1000,
        samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000,
        cpu / len(samples) * 1e6,
    )
