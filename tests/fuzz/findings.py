"""Fuzzing findings: every answer counted by status code, every fault kept once per kind."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import grpc

from tests.fuzz.server import Outcome

# A handler crash or an unhandled condition: never acceptable, whatever the request.
FAULT_CODES = frozenset({grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN})
# The server took too long: a stall (or a loaded machine); reported, not a crash.
SLOW_CODES = frozenset({grpc.StatusCode.DEADLINE_EXCEEDED})


@dataclass
class Findings:
    """Counts per status code and the distinct faults, each with one example."""

    codes: Counter[str] = field(default_factory=Counter)
    faults: dict[tuple[str, str, str, str], int] = field(default_factory=dict)
    examples: dict[tuple[str, str, str, str], bytes] = field(default_factory=dict)
    max_rss_bytes: int = 0
    requests: int = 0

    def record(self, rpc: str, mutation: str, data: bytes, outcome: Outcome) -> None:
        self.requests += 1
        self.codes[outcome.code.name] += 1
        if outcome.code in FAULT_CODES or outcome.code in SLOW_CODES:
            key = (rpc, mutation, outcome.code.name, _normalised(outcome.details))
            self.faults[key] = self.faults.get(key, 0) + 1
            if key not in self.examples or len(data) < len(self.examples[key]):
                self.examples[key] = data

    def merge(self, other: Findings) -> None:
        self.requests += other.requests
        self.codes.update(other.codes)
        for key, count in other.faults.items():
            self.faults[key] = self.faults.get(key, 0) + count
            if key not in self.examples or len(other.examples[key]) < len(self.examples[key]):
                self.examples[key] = other.examples[key]
        self.max_rss_bytes = max(self.max_rss_bytes, other.max_rss_bytes)

    @property
    def crash_kinds(self) -> list[tuple[str, str, str, str]]:
        return sorted(key for key in self.faults if key[2] in {code.name for code in FAULT_CODES})

    def summary(self) -> str:
        lines = [f"{self.requests} requests; max server RSS {self.max_rss_bytes / 2**20:.0f} MiB"]
        lines.append("status codes: " + ", ".join(f"{code} {count}" for code, count in self.codes.most_common()))
        for key in sorted(self.faults, key=lambda key: -self.faults[key]):
            rpc, mutation, code, message = key
            example = self.examples[key]
            lines.append(
                f"  {code:<18} {rpc:<16} x{self.faults[key]:<5} {mutation} :: {message[:100]!r}"
                f" (smallest example {len(example)} bytes: {example[:48].hex()}{'...' if len(example) > 48 else ''})"
            )
        return "\n".join(lines)


def _normalised(details: str) -> str:
    return re.sub(r"\d+", "N", details)[:200]
