"""Rule: records are built by name. Each record the hot path builds has one keyword-only constructor, ``new_<record>``,
whose parameters are the record's fields in their order and whose result is the record; every ``with_*`` transition
equals ``_replace``; and ``tuple.__new__`` is used nowhere else (``engine_service/rules/records.py``, "Building
records"). Parameters are read from the sources, so this runs against the compiled core as well."""

from __future__ import annotations

import ast
import importlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from engine_service.rules import CardSource, DecisionKind, GameState, PlayerState, apply, legal_actions, new_game
from engine_service.rules import GameConfig as Config
from engine_service.rules import state as state_module
from engine_service.rules.modules.orient import state as orient_state
from tests.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (ROOT / "engine_service" / "rules", ROOT / "engine_service" / "codec")
# The one positional build besides the constructors: a whole state from the codec's readers, in the order of
# codec.state.FIELDS, which the codec checks against GameState's field names at import.
POSITIONAL_BUILDS = {("engine_service/codec/state.py", "state_from_proto")}


class Constructor(NamedTuple):
    module: str
    name: str
    parameters: tuple[str, ...]
    keyword_only: bool
    annotations: tuple[str, ...]
    returns: str


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for package in PACKAGES:
        for path in sorted(package.rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))


def _module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _is_tuple_new(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__new__"
        and isinstance(node.value, ast.Name)
        and node.value.id == "tuple"
    )


def _uses_tuple_new(node: ast.AST) -> bool:
    return any(_is_tuple_new(inner) for inner in ast.walk(node))


def constructors_in(tree: ast.Module, module: str) -> list[Constructor]:
    """The ``new_<record>`` functions of one source that build a record with ``tuple.__new__``."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("new_") and _uses_tuple_new(node):
            arguments = node.args
            found.append(
                Constructor(
                    module,
                    node.name,
                    tuple(arg.arg for arg in [*arguments.args, *arguments.kwonlyargs]),
                    not arguments.args and not arguments.vararg and not arguments.kwarg,
                    tuple(ast.unparse(arg.annotation) if arg.annotation else "" for arg in arguments.kwonlyargs),
                    ast.unparse(node.returns) if node.returns else "",
                )
            )
    return found


CONSTRUCTORS = [found for path, tree in _sources() for found in constructors_in(tree, _module_name(path))]


def _sample(annotation: str, index: int) -> Any:
    """A value of the annotated type, distinct for each field index (so that a swap of two fields shows)."""
    if annotation.startswith("int"):
        return 1000 + index
    if annotation == "bool":
        return bool(index % 2)
    if annotation.startswith("tuple["):
        return (index,)
    if annotation.startswith("frozenset["):
        return frozenset({index})
    if annotation == "DecisionKind":
        return DecisionKind.RETURN_TOKENS
    if annotation == "CardSource":
        return CardSource.MARKET
    raise AssertionError(f"no sample for an argument of type {annotation}: add one")


def problems(constructor: Constructor) -> list[str]:
    """What is wrong with a constructor: parameters that are not keyword-only, or not its record's fields in
    order, or a result that is not the record of those values."""
    module = importlib.import_module(constructor.module)
    record: Any = getattr(module, constructor.returns)
    if not constructor.keyword_only:
        return [f"{constructor.name}: not every parameter is keyword-only"]
    if constructor.parameters != record._fields:
        return [f"{constructor.name}: parameters {constructor.parameters}, {record.__name__} has {record._fields}"]
    kinds = zip(record._fields, constructor.annotations)
    values = {name: _sample(kind, index) for index, (name, kind) in enumerate(kinds)}
    built = getattr(module, constructor.name)(**values)
    if type(built) is not record or tuple(built) != tuple(record(**values)):
        return [f"{constructor.name}: builds {built!r}, not {record(**values)!r}"]
    return []


def test_every_record_built_on_the_hot_path_has_its_constructor() -> None:
    assert {constructor.returns for constructor in CONSTRUCTORS} >= {
        "PlayerState",
        "PendingDecision",
        "GameConfig",
        "CardRevealed",
        "TurnEnded",
        "OrientState",
        "StrongholdsState",
        "Price",
    }


@pytest.mark.parametrize("constructor", CONSTRUCTORS, ids=[constructor.name for constructor in CONSTRUCTORS])
def test_a_constructor_takes_its_records_fields_by_name_in_order_and_builds_it(constructor: Constructor) -> None:
    assert problems(constructor) == []


PLANTED_CONSTRUCTORS = """
def new_card_revealed(*, slot: int, deck: int, card_id: int) -> CardRevealed:
    return tuple.__new__(CardRevealed, (deck, slot, card_id))


def new_gems_taken(seat: int, tokens: tuple[int, ...]) -> GemsTaken:
    return tuple.__new__(GemsTaken, (seat, tokens))
"""


def test_a_constructor_with_its_fields_swapped_or_taken_by_position_is_caught() -> None:
    planted = constructors_in(ast.parse(PLANTED_CONSTRUCTORS), "engine_service.rules.events")
    assert [len(problems(constructor)) for constructor in planted] == [1, 1]


def tuple_new_elsewhere(path: str, tree: ast.Module) -> list[str]:
    """The places of ``tree`` that use ``tuple.__new__`` outside a constructor or a transition (an alias of it too)."""
    found = [
        f"{path}:{node.lineno}"
        for node in tree.body
        if not isinstance(node, ast.FunctionDef | ast.ClassDef) and _uses_tuple_new(node)
    ]
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or function.name.startswith(("new_", "with_")):
            continue
        if (path, function.name) not in POSITIONAL_BUILDS and _uses_tuple_new(function):
            found.append(f"{path}: {function.name}")
    return found


def test_tuple_new_builds_records_only_in_their_constructors_and_transitions() -> None:
    assert [place for path, tree in _sources() for place in tuple_new_elsewhere(path, tree)] == []


def test_a_tuple_new_elsewhere_or_an_alias_of_it_is_caught() -> None:
    planted = "_new = tuple.__new__\n\n\ndef grant(seat):\n    return tuple.__new__(GoldReceived, (seat, 1))\n"
    assert tuple_new_elsewhere("planted.py", ast.parse(planted)) == ["planted.py:1", "planted.py: grant"]


def _positions() -> Iterator[GameState]:
    rng = random.Random(5)
    for modules in RULESETS:
        state = new_game(Config(3, 7, modules=modules))[0]
        for ply in range(40):
            if state.end_reason is not None:
                break
            if ply % 10 == 9:
                yield state
            state = apply(state, rng.choice(legal_actions(state)))[0]


def _other(state: GameState) -> GameState:
    """Another position of the same ruleset, to take replacement values from."""
    return new_game(Config(4, 11, modules=state.config.modules))[0]


def _orient() -> orient_state.OrientState:
    return orient_state.OrientState(((),) * 3, ((1,), (), ()), ((), (), (2,)))


# Each with_* transition, and the _replace it must equal, given a state and another state to take values from.
TRANSITIONS: dict[str, Callable[[GameState, GameState], tuple[object, object]]] = {
    "with_table": lambda s, o: (
        state_module.with_table(s, o.bank, o.market, o.decks, o.players),
        s._replace(bank=o.bank, market=o.market, decks=o.decks, players=o.players),
    ),
    "with_turn": lambda s, o: (
        state_module.with_turn(s, o.seat, s.turn + 1, not s.final_round),
        s._replace(seat=o.seat, turn=s.turn + 1, final_round=not s.final_round),
    ),
    "with_pending": lambda s, o: (state_module.with_pending(s, None), s._replace(pending=None)),
    "with_module_states": lambda s, o: (
        state_module.with_module_states(s, (*o.module_states, None), None),
        s._replace(module_states=(*o.module_states, None), pending=None),
    ),
    "with_tokens": lambda s, o: (
        state_module.with_tokens(s.players[0], o.players[1].tokens),
        s.players[0]._replace(tokens=o.players[1].tokens),
    ),
    "with_orient": lambda s, o: (
        orient_state.with_orient(s, o.players[:3], _orient(), None, o.nobles),
        s._replace(
            players=o.players[:3],
            pending=None,
            nobles=o.nobles,
            module_states=orient_state.with_slot(s.module_states, orient_state.STATE.index, _orient()),
        ),
    ),
}


def test_every_with_transition_of_the_rules_is_checked() -> None:
    transitions = {
        node.name
        for _, tree in _sources()
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("with_")
        and node.returns is not None
        and ast.unparse(node.returns) in ("GameState", "PlayerState")
    }
    assert transitions == set(TRANSITIONS)


@pytest.mark.parametrize("name", TRANSITIONS)
def test_a_with_transition_equals_replace(name: str) -> None:
    checked = 0
    for state in _positions():
        built, replaced = TRANSITIONS[name](state, _other(state))
        assert type(built) is type(replaced) and built == replaced, name
        assert type(built) in (GameState, PlayerState)
        checked += 1
    assert checked >= len(RULESETS)
