"""Minimal bots: pick one of the legal actions the engine listed.

A bot sees the game as its seat may (a ``GameView`` from ``EngineClient.view``)
or the full ``GameState``, plus the ``LegalAction`` list of ``legal_actions``,
and returns one of those actions. The engine stays the judge of legality, so a
bot needs no rules of its own beyond its preferences.

>>> from splendor_client import connect
>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, seed=7)
...     seat = game.state.seat  # the seat to play (no decision is pending at the deal)
...     bot = GreedyBot(client.get_catalog(), seed=1)
...     choice = bot.choose(client.view(game.state, seat).view, client.legal_actions(game.state))
...     game = client.apply(game.state, choice)
>>> choice.action.WhichOneof("kind")
'take_two_gems'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeAlias

from splendor.v1 import actions_pb2, catalog_pb2, common_pb2, state_pb2, view_pb2

from .colors import GEM_NAMES, TOKEN_NAMES, counts_dict

Game: TypeAlias = view_pb2.GameView | state_pb2.GameState
"""What a bot sees: its seat's view, or the full state."""

BOT_NAMES = ("random", "greedy")


class Bot(Protocol):
    """Chooses one of the legal actions."""

    def choose(self, game: Game, legal_actions: Sequence[actions_pb2.LegalAction]) -> actions_pb2.LegalAction:
        """One of ``legal_actions`` (which is never empty)."""
        ...


class RandomBot:
    """Picks uniformly at random among the legal actions, pending decisions included. Seeded: reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        """``seed``: the random generator's seed (``None``: from the system)."""
        self.rng = random.Random(seed)

    def choose(self, game: Game, legal_actions: Sequence[actions_pb2.LegalAction]) -> actions_pb2.LegalAction:
        """Any legal action, uniformly."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(list(legal_actions))


class GreedyBot:
    """A simple, sensible strategy: the engine's ``greedy`` policy, mirrored on the contract's messages (the
    client needs no engine for it; the engine's tests check that both choose the same moves).

    1. Buy the affordable card with the most points (fewest tokens spent on ties).
    2. Otherwise take the gems that bring it closest to the card it is nearest to
       affording (the "target": least missing, then most points).
    3. Otherwise reserve the market card with the most points, or do anything legal.

    Decisions: return the tokens it holds most of (gold last); choose the noble with the most points.
    Module decisions: buy a conquerable card; take the free card or reserve the noble with the most
    points; take the gem colour its target lacks most; any legal answer to the others (where a
    stronghold goes, the card a paired card attaches to, a city).
    """

    def __init__(self, catalog: catalog_pb2.Catalog, seed: int | None = None) -> None:
        """``catalog``: card costs and points; ``seed`` breaks ties."""
        self.cards = {card.id: card for card in catalog.cards}
        self.nobles = {noble.id: noble for noble in catalog.nobles}
        self.rng = random.Random(seed)

    def choose(self, game: Game, legal_actions: Sequence[actions_pb2.LegalAction]) -> actions_pb2.LegalAction:
        """The preferred legal action (ties broken at random)."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        options = list(legal_actions)
        self.rng.shuffle(options)  # ties go to a random one; max() keeps the first best
        player = game.players[acting_seat(game)] if game.players else state_pb2.PlayerState()
        kinds = {option.action.WhichOneof("kind") for option in options}
        if "return_tokens" in kinds:
            held = counts_dict(player.tokens)
            return max(options, key=lambda option: self._return_score(option, held))
        if "choose_noble" in kinds:
            return max(options, key=self._noble_score)
        if "reserve_noble" in kinds:
            return max(options, key=lambda option: self._noble_points(option.action.reserve_noble.noble_id))
        if "take_free_card" in kinds:
            return max(options, key=lambda option: self._points(option.action.take_free_card.card_id))
        if "take_gem" in kinds:
            need = self._target_need(game, player)
            return max(options, key=lambda option: need.get(_name(option.action.take_gem.color), 0))
        purchases = [option for option in options if option.action.WhichOneof("kind") == "purchase_card"]
        if purchases:
            return max(purchases, key=self._purchase_score)
        takes = [option for option in options if option.action.WhichOneof("kind") in ("take_gems", "take_two_gems")]
        need = self._target_need(game, player)
        if takes and need:
            best = max(takes, key=lambda option: _useful(_gems_gained(option.action), need))
            if _useful(_gems_gained(best.action), need) > 0:
                return best
        reserves = [option for option in options if option.action.WhichOneof("kind") == "reserve_card"]
        if reserves:
            return max(reserves, key=lambda option: self._points(option.action.reserve_card.card_id))
        if takes:
            return max(takes, key=lambda option: sum(_gems_gained(option.action).values()))
        return options[0]

    def _points(self, card_id: int) -> int:
        card = self.cards.get(card_id)
        return card.points if card is not None else 0

    def _purchase_score(self, option: actions_pb2.LegalAction) -> tuple[int, int]:
        card = self.cards.get(option.action.purchase_card.card_id)
        if card is None:
            return (0, 0)
        return (card.points, -sum(counts_dict(card.cost).values()))

    def _noble_score(self, option: actions_pb2.LegalAction) -> int:
        return self._noble_points(option.action.choose_noble.noble_id)

    def _noble_points(self, noble_id: int) -> int:
        noble = self.nobles.get(noble_id)
        return noble.points if noble is not None else 0

    @staticmethod
    def _return_score(option: actions_pb2.LegalAction, held: dict[str, int]) -> int:
        returned = counts_dict(option.action.return_tokens.tokens)
        return sum(count * held[name] for name, count in returned.items() if name != "gold") - 100 * returned["gold"]

    def _target_need(self, game: Game, player: state_pb2.PlayerState) -> dict[str, int]:
        """The gems still missing for the card the player is nearest to affording (empty if none)."""
        candidates = [slot.card_id for row in game.market for slot in row.slots if slot.HasField("card_id")]
        candidates += [card.card_id for card in player.reserved if card.HasField("card_id")]
        bonuses = counts_dict(player.bonuses)
        tokens = counts_dict(player.tokens)
        best: tuple[int, int] | None = None
        best_need: dict[str, int] = {}
        for card_id in candidates:
            card = self.cards.get(card_id)
            if card is None:
                continue
            cost = counts_dict(card.cost)
            need = {name: max(0, cost[name] - bonuses[name] - tokens[name]) for name in GEM_NAMES}
            missing = sum(need.values()) - tokens["gold"]
            if missing <= 0:
                continue  # affordable already: buying it is up to the purchase rule
            rank = (missing, -card.points)
            if best is None or rank < best:
                best, best_need = rank, need
        return best_need


def acting_seat(game: Game) -> int:
    """The seat that must act: the deciding seat while a decision is pending, else the seat to play."""
    if game.HasField("pending_decision") and game.pending_decision.kind != state_pb2.DECISION_KIND_UNSPECIFIED:
        return game.pending_decision.seat
    return game.seat


def make_bot(name: str, catalog: catalog_pb2.Catalog, seed: int | None = None) -> Bot:
    """A bot by name: ``"random"`` or ``"greedy"``."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(catalog, seed)
    raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOT_NAMES)}")


def _gems_gained(action: actions_pb2.Action) -> dict[str, int]:
    gained = dict.fromkeys(TOKEN_NAMES, 0)
    kind = action.WhichOneof("kind")
    if kind == "take_gems":
        for value in action.take_gems.colors:
            name = _name(value)
            if name:
                gained[name] += 1
    elif kind == "take_two_gems":
        name = _name(action.take_two_gems.color)
        if name:
            gained[name] += 2
    return gained


def _name(value: common_pb2.Color.ValueType) -> str:
    index = int(value) - 1
    return TOKEN_NAMES[index] if 0 <= index < len(TOKEN_NAMES) else ""


def _useful(gained: dict[str, int], need: dict[str, int]) -> int:
    return sum(min(gained.get(name, 0), missing) for name, missing in need.items())
