"""Just enough PromQL reading for the deploy tests: the metric names and label matchers an
expression selects. Not a parser: it handles the expressions this project writes, and the
tests that use it fail loudly on anything it cannot read."""

from __future__ import annotations

import re
from typing import NamedTuple

PROMQL_KEYWORDS = {
    "by",
    "without",
    "on",
    "ignoring",
    "group_left",
    "group_right",
    "bool",
    "offset",
    "and",
    "or",
    "unless",
    "atan2",
    "inf",
    "nan",
}

_STRING = r'"(?:[^"\\]|\\.)*"'
_MATCHER = re.compile(rf"\s*(\w+)\s*(=~|!~|!=|=)\s*({_STRING})\s*(?:,|$)")
_SELECTOR = re.compile(rf"([A-Za-z_:][\w:]*)\s*\{{((?:{_STRING}|[^}}\"])*)\}}")


class Matcher(NamedTuple):
    label: str
    op: str
    value: str


class Selector(NamedTuple):
    metric: str
    matchers: tuple[Matcher, ...]


def promql_metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects (not functions, labels or keywords)."""
    text = re.sub(_STRING, '""', expr)  # string literals
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # range and subquery durations
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)  # label lists
    text = re.sub(r"\$\{?\w+\}?", "", text)  # Grafana variables outside matchers
    names = set()
    for match in re.finditer(r"(?<![\w.])[A-Za-z_:][\w:]*", text):
        following = text[match.end() :].lstrip()
        if following.startswith("(") or match.group() in PROMQL_KEYWORDS:
            continue  # a function or aggregation, or a keyword
        names.add(match.group())
    return names


def parse_matchers(text: str) -> tuple[Matcher, ...]:
    matchers = []
    position = 0
    while position < len(text.strip()):
        found = _MATCHER.match(text, position)
        assert found is not None, f"cannot read the label matchers {text!r}"
        label, op, quoted = found.groups()
        matchers.append(Matcher(label, op, quoted[1:-1].replace('\\"', '"')))
        position = found.end()
    return tuple(matchers)


def promql_selectors(expr: str) -> list[Selector]:
    """The ``metric{label op "value", ...}`` selectors of an expression, with their matchers."""
    return [Selector(found.group(1), parse_matchers(found.group(2))) for found in _SELECTOR.finditer(expr)]


def normalized(expr: str) -> str:
    """The expression with runs of whitespace collapsed, to compare an expression across files."""
    return " ".join(expr.split())
