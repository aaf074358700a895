"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse, 2012).

The tree is over the acting seat's information set: each iteration deals a fresh
determinization (``determinize``) of the hidden cards as that seat sees them, walks
down the tree through actions legal in that sample (children are keyed by action
id), choosing by UCB1 where each child's exploration term counts the iterations in
which it was available (a legal action varies with the sample: another seat's blind
reserve may be affordable in one and not in another), adds one node, plays a
greedy-guided playout to a depth cut-off, scores the position (``evaluation``) and
credits every node on the path with the reward of the seat that chose its action.
The move is the root's most visited child.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final, NamedTuple

from engine_service.rules import Action, GameState, action_id, apply, legal_actions

from .determinize import determinize
from .evaluation import LEAD_SCALE, rewards
from .greedy import greedy_action

_SEED_BITS: Final = 64


class SearchSettings(NamedTuple):
    """What one move's search may spend, and how it explores."""

    iterations: int = 400  # per move; the search also stops at ``time_budget`` if one is set
    time_budget: float | None = None  # seconds per move (None: iterations only, reproducible)
    exploration: float = 0.25  # the UCB1 constant (rewards are in [0, 1])
    playout_depth: int = 8  # plies of playout after the new node before the position is scored
    playout_epsilon: float = 0.15  # chance of a uniformly random playout move instead of the greedy one
    lead_scale: float = LEAD_SCALE  # prestige lead worth a reward of 0.73 when a playout is cut off
    # Asked after every iteration: False stops the search with the best move so far (a server's call
    # whose caller hung up or whose budget ran out); None: never asked.
    keep_going: Callable[[], bool] | None = None


class _Node:
    """Statistics of one action in the tree, from the view of the seat that chose it."""

    __slots__ = ("availability", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.availability = 1
        self.children: dict[int, _Node] = {}


def search(state: GameState, settings: SearchSettings, rng: random.Random) -> Action:
    """The action ISMCTS recommends for the acting seat of ``state`` (a game not over)."""
    legal = legal_actions(state)
    if not legal:
        raise ValueError("the game is over: there is no action to choose")
    if len(legal) == 1:
        return legal[0]
    seat = state.acting_seat
    root = _Node(seat)
    deadline = None if settings.time_budget is None else time.perf_counter() + settings.time_budget
    for _ in range(settings.iterations):
        sample = determinize(state, seat, rng.getrandbits(_SEED_BITS))
        _iterate(root, sample, settings, rng)
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if settings.keep_going is not None and not settings.keep_going():
            break
    by_id = {action_id(action): action for action in legal}
    best = max(
        (child_id for child_id in root.children if child_id in by_id),
        key=lambda child_id: (root.children[child_id].visits, root.children[child_id].reward),
    )
    return by_id[best]


def _iterate(root: _Node, state: GameState, settings: SearchSettings, rng: random.Random) -> None:
    node = root
    path: list[_Node] = []
    while state.end_reason is None:
        legal = legal_actions(state)
        ids = [action_id(action) for action in legal]
        children = node.children
        untried = [index for index, child_id in enumerate(ids) if child_id not in children]
        for child_id in ids:
            child = children.get(child_id)
            if child is not None:
                child.availability += 1
        if untried:
            index = untried[rng.randrange(len(untried))]
            child = _Node(state.acting_seat)
            children[ids[index]] = child
            path.append(child)
            state = apply(state, legal[index])[0]
            break
        index = _select(node, ids, settings.exploration)
        node = children[ids[index]]
        path.append(node)
        state = apply(state, legal[index])[0]
    state = _playout(state, settings, rng)
    scores = rewards(state, settings.lead_scale)
    for visited in path:
        visited.visits += 1
        visited.reward += scores[visited.seat]


def _select(node: _Node, ids: list[int], exploration: float) -> int:
    """The index in ``ids`` of the child with the best UCB1 score (all have been tried)."""
    best_index = 0
    best_score = -math.inf
    children = node.children
    for index, child_id in enumerate(ids):
        child = children[child_id]
        score = child.reward / child.visits + exploration * math.sqrt(math.log(child.availability) / child.visits)
        if score > best_score:
            best_index, best_score = index, score
    return best_index


def _playout(state: GameState, settings: SearchSettings, rng: random.Random) -> GameState:
    for _ in range(settings.playout_depth):
        if state.end_reason is not None:
            break
        legal = legal_actions(state)
        if rng.random() < settings.playout_epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = greedy_action(state, legal, rng)
        state = apply(state, action)[0]
    return state
