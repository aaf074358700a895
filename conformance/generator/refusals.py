"""Refusals and edge cases of one ruleset, in plain mode.

Three sources: every action id of the ruleset tried in telling positions (the deal, every kind of pending
decision, low piles, an empty gold pile, a full reserve, an empty deck, the final round, the end), one
case per action kind and reason found; hand-made malformed or illegal requests of every RPC; and edge
cases that must succeed (two gems from a pile of exactly four, a reserve with no gold left, gold paid
while holding the colour).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import Final

from splendor.v1 import actions_pb2, bots_pb2, common_pb2, config_pb2, engine_service_pb2, state_pb2
from splendor_client.conformance.vectors import Refusal

from engine_service import in_process
from engine_service.api.config import DEFAULT_MAX_BATCH_ITEMS
from engine_service.rules import id_layout

from .paths import GamePath, Modules, config
from .plain import RulesetGames, acting_seat
from .recorder import CaseFile

pb = engine_service_pb2
GEMS: Final = ("white", "blue", "green", "red", "black")
GEM_COLORS: Final = (
    common_pb2.COLOR_WHITE,
    common_pb2.COLOR_BLUE,
    common_pb2.COLOR_GREEN,
    common_pb2.COLOR_RED,
    common_pb2.COLOR_BLACK,
)
RESERVE_LIMIT: Final = 3
LONG_RANGE: Final = 1000
LONG_RANGE_STRIDE: Final = 41
Predicate = Callable[[state_pb2.GameState], bool]


def pending(state: state_pb2.GameState) -> int:
    return state.pending_decision.kind


def _acting_player(state: state_pb2.GameState) -> state_pb2.PlayerState:
    return state.players[acting_seat(state)]


# Positions worth trying every action id in, by name; the first state of the ruleset's games that shows each.
FEATURES: Final[dict[str, Predicate]] = {
    "low-pile": lambda s: not pending(s) and any(0 < getattr(s.bank, gem) < 4 for gem in GEMS),
    "empty-pile": lambda s: not pending(s) and any(getattr(s.bank, gem) == 0 for gem in GEMS),
    "no-gold": lambda s: not pending(s) and s.bank.gold == 0,
    "full-reserve": lambda s: not pending(s) and len(_acting_player(s).reserved) == RESERVE_LIMIT,
    "empty-deck": lambda s: not pending(s) and any(not deck.card_ids for deck in s.decks),
    "final-round": lambda s: not pending(s) and s.final_round and s.end_reason == state_pb2.END_REASON_UNSPECIFIED,
    "occupied-card": lambda s: not pending(s) and _occupied_by_other(s) is not None,
}


def _occupied_by_other(state: state_pb2.GameState) -> int | None:
    """A face-up card holding a stronghold of a seat other than the acting one (the Strongholds), or None."""
    face_up = {slot.card_id for row in state.market for slot in row.slots if slot.HasField("card_id")}
    for seat, placed in enumerate(state.strongholds.placed):
        if seat != acting_seat(state):
            for card_id in placed.card_ids:
                if card_id in face_up:
                    return card_id
    return None


def first_state(games: list[GamePath], predicate: Predicate) -> tuple[GamePath, int] | None:
    """The first (game, move index) whose state before the move satisfies ``predicate``."""
    for game in games:
        for index, move in enumerate(game.moves):
            if predicate(move.before):
                return game, index
    return None


def decision_states(games: list[GamePath]) -> Iterator[tuple[str, GamePath, int]]:
    """For every kind of decision the games went through, its first position."""
    seen: set[int] = set()
    for game in games:
        for index, move in enumerate(game.moves):
            kind = pending(move.before)
            if kind and kind not in seen:
                seen.add(kind)
                yield (
                    state_pb2.DecisionKind.Name(state_pb2.DecisionKind.ValueType(kind))
                    .removeprefix("DECISION_KIND_")
                    .lower(),
                    game,
                    index,
                )


def refusal_cases(cases: CaseFile, ruleset: str, ruleset_games: RulesetGames) -> None:
    module = None if ruleset == "base" else ruleset
    games = list(ruleset_games.all)
    positions: list[tuple[str, state_pb2.GameState]] = [("deal", games[0].moves[0].before)]
    positions += [(f"decision-{kind}", game.moves[index].before) for kind, game, index in decision_states(games)]
    for label, predicate in FEATURES.items():
        found = first_state(games, predicate)
        if found is not None:
            positions.append((label, found[0].moves[found[1]].before))
    positions.append(("game-over", games[0].final))
    for label, state in positions:
        id_scan_cases(cases, f"{ruleset}/ids/{label}", state, module)
    config_refusals(cases, ruleset, tuple(games[0].config.modules))
    action_refusals(cases, ruleset, games)
    decision_refusals(cases, ruleset, games)
    request_refusals(cases, ruleset, games)
    edge_cases(cases, ruleset, games)


@cache
def scanned_ids(module: str | None) -> list[tuple[int, str]]:
    """The ruleset's action ids with their kinds: every id of a range, every ``LONG_RANGE_STRIDE``-th of a long one
    (the Strongholds' 8,100 moves of a stronghold from card to card)."""
    ids = set(in_process.ruleset_action_ids(module))
    scanned = []
    for id_range in id_layout().ranges:
        stride = LONG_RANGE_STRIDE if id_range.size > LONG_RANGE else 1
        span = range(id_range.offset, id_range.offset + id_range.size, stride)
        scanned += [(action_id, id_range.kind) for action_id in span if action_id in ids]
    return scanned


def id_scan_cases(cases: CaseFile, name: str, state: state_pb2.GameState, module: str | None) -> None:
    """The ruleset's action ids sent in ``state``: one case per action kind and refusal reason, the first id that
    shows it (and one accepted id per kind, only checked)."""
    shown: set[tuple[str, str]] = set()
    for action_id, kind in scanned_ids(module):
        request = pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=action_id))
        outcome = cases.engine.call("ApplyAction", request)
        key = (kind, outcome.reason if isinstance(outcome, Refusal) else "accepted")
        if key not in shown:
            shown.add(key)
            request.validate_only = not isinstance(outcome, Refusal)  # an accepted one only checked: short answers
            cases.call(f"{name}/{kind}/{key[1].lower()}", "ApplyAction", request)


def config_refusals(cases: CaseFile, ruleset: str, modules: Modules) -> None:
    name = f"{ruleset}/refusal/create"
    for players in (0, 1, 5):
        cases.refused(
            f"{name}/{players}-players", "CreateGame", pb.CreateGameRequest(config=config(players, 1, modules))
        )
    request = pb.CreateGameRequest(config=config(3, 1, modules, first_seat=3))
    cases.refused(f"{name}/first-seat-not-a-seat", "CreateGame", request)
    request = pb.CreateGameRequest(config=config(2, 1, modules), sealed=True)
    cases.refused(f"{name}/sealed-with-seed", "CreateGame", request)
    request = pb.CreateGameRequest(config=config(2, 0, modules), sealed=True, seat=2)
    cases.refused(f"{name}/sealed-seat-not-a-seat", "CreateGame", request)
    cases.refused(f"{name}/no-config", "CreateGame", pb.CreateGameRequest())
    if modules:
        others = [value for value in config_pb2.Module.values() if value not in (0, *modules)]
        request = pb.CreateGameRequest(config=config(2, 1, modules + (others[0],)))
        cases.refused(f"{name}/two-modules", "CreateGame", request)
        request = pb.CreateGameRequest(config=config(2, 1, modules + modules))
        cases.call(f"{name}/module-twice", "CreateGame", request)
    else:
        # MODULE_UNSPECIFIED, and a number no module has (an open enum keeps it).
        for value in (config_pb2.MODULE_UNSPECIFIED, config_pb2.Module.ValueType(99)):
            request = pb.CreateGameRequest(config=config(2, 1, (value,)))
            cases.refused(f"{name}/module-{value}", "CreateGame", request)


def _apply(state: state_pb2.GameState, **action: object) -> pb.ApplyActionRequest:
    return pb.ApplyActionRequest(state=state, action=actions_pb2.Action(**action))  # type: ignore[arg-type]


def action_refusals(cases: CaseFile, ruleset: str, games: list[GamePath]) -> None:
    """Malformed and illegal main actions at the deal, and any action once the game is over."""
    name = f"{ruleset}/refusal/action"
    deal = games[0].moves[0].before
    red, blue, green, white, gold = (common_pb2.COLOR_RED, common_pb2.COLOR_BLUE, common_pb2.COLOR_GREEN,
                                     common_pb2.COLOR_WHITE, common_pb2.COLOR_GOLD)  # fmt: skip
    take = actions_pb2.TakeGems
    market = [slot.card_id for row in deal.market for slot in row.slots if slot.HasField("card_id")]
    refusals = {
        "take-unspecified-color": _apply(deal, take_gems=take(colors=[common_pb2.COLOR_UNSPECIFIED, red, blue])),
        "take-gold": _apply(deal, take_gems=take(colors=[gold, red, blue])),
        "take-duplicate-color": _apply(deal, take_gems=take(colors=[red, red, blue])),
        "take-four-colors": _apply(deal, take_gems=take(colors=[red, blue, green, white])),
        "take-two-colors": _apply(deal, take_gems=take(colors=[red, blue])),
        "take-no-color": _apply(deal, take_gems=take()),
        "take-two-gold": _apply(deal, take_two_gems=actions_pb2.TakeTwoGems(color=gold)),
        "take-two-unspecified": _apply(deal, take_two_gems=actions_pb2.TakeTwoGems()),
        "reserve-unknown-card": _apply(deal, reserve_card=actions_pb2.ReserveCard(card_id=999)),
        "reserve-card-in-deck": _apply(deal, reserve_card=actions_pb2.ReserveCard(card_id=deal.decks[0].card_ids[0])),
        "reserve-unknown-deck": _apply(deal, reserve_from_deck=actions_pb2.ReserveFromDeck(deck=9)),
        "purchase-unaffordable": _apply(deal, purchase_card=actions_pb2.PurchaseCard(card_id=market[-1])),
        "purchase-unknown-card": _apply(deal, purchase_card=actions_pb2.PurchaseCard(card_id=4000)),
        "purchase-spending-unowned-cards": _apply(
            deal,
            purchase_card=actions_pb2.PurchaseCard(
                card_id=market[0], cards_spent=actions_pb2.SpentCards(card_ids=[market[1]])
            ),
        ),
        "pass-while-moves-exist": _apply(deal, **{"pass": actions_pb2.Pass()}),
        "return-tokens-undecided": _apply(
            deal, return_tokens=actions_pb2.ReturnTokens(tokens=common_pb2.TokenCounts(red=1))
        ),
        "choose-noble-undecided": _apply(deal, choose_noble=actions_pb2.ChooseNoble(noble_id=0)),
        "decline-undecided": _apply(deal, decline=actions_pb2.Decline()),
        "empty-action": pb.ApplyActionRequest(state=deal, action=actions_pb2.Action()),
        "action-id-out-of-range": _apply(deal, action_id=100_000),
        "game-over": _apply(games[0].final, take_gems=take(colors=[red, blue, green])),
        "game-over-pass": _apply(games[0].final, **{"pass": actions_pb2.Pass()}),
    }
    for label, request in refusals.items():
        cases.refused(f"{name}/{label}", "ApplyAction", request)


def decision_refusals(cases: CaseFile, ruleset: str, games: list[GamePath]) -> None:
    """At the first position of each kind of decision: a main action instead, and answers that are not options."""
    for kind, game, index in decision_states(games):
        state = game.moves[index].before
        decision = state.pending_decision
        name = f"{ruleset}/refusal/decision-{kind}"
        take = actions_pb2.TakeGems(colors=[common_pb2.COLOR_RED, common_pb2.COLOR_BLUE, common_pb2.COLOR_GREEN])
        cases.refused(f"{name}/main-action", "ApplyAction", _apply(state, take_gems=take))
        other_seat = (decision.seat + 1) % game.config.num_players
        request = _apply(state, action_id=game.moves[index].applied.action_id)
        request.seat = other_seat
        cases.refused(f"{name}/other-seat", "ApplyAction", request)
        for label, request in _wrong_answers(state, kind):
            cases.refused(f"{name}/{label}", "ApplyAction", request)


def _wrong_answers(state: state_pb2.GameState, kind: str) -> Iterator[tuple[str, pb.ApplyActionRequest]]:
    decision = state.pending_decision
    player = state.players[decision.seat]
    absent = [value for value in range(200) if value not in decision.options]
    if kind == "return_tokens":
        held = [gem for gem in GEMS if getattr(player.tokens, gem)]
        not_held = [gem for gem in GEMS if not getattr(player.tokens, gem)]
        yield (
            "too-many",
            _apply(state, return_tokens=actions_pb2.ReturnTokens(tokens=_tokens(held[0], decision.amount + 1))),
        )
        if decision.amount > 1:
            yield (
                "too-few",
                _apply(state, return_tokens=actions_pb2.ReturnTokens(tokens=_tokens(held[0], decision.amount - 1))),
            )
        if not_held:
            yield (
                "not-held",
                _apply(state, return_tokens=actions_pb2.ReturnTokens(tokens=_tokens(not_held[0], decision.amount))),
            )
    elif kind == "choose_noble":
        yield "not-an-option", _apply(state, choose_noble=actions_pb2.ChooseNoble(noble_id=absent[0]))
    elif kind == "choose_city":
        yield "not-an-option", _apply(state, choose_city=actions_pb2.ChooseCity(city_id=absent[0]))
    elif kind == "take_gem":
        colors = [color for color in GEM_COLORS if color not in decision.colors]
        if colors:
            yield "not-an-option", _apply(state, take_gem=actions_pb2.TakeGem(color=colors[0]))
        yield "gold", _apply(state, take_gem=actions_pb2.TakeGem(color=common_pb2.COLOR_GOLD))
    elif kind == "place_stronghold":
        deck_card = state.decks[0].card_ids[0]
        yield "on-a-deck-card", _apply(state, place_stronghold=actions_pb2.PlaceStronghold(card_id=deck_card))
        yield "remove-none", _apply(state, remove_stronghold=actions_pb2.RemoveStronghold(card_id=deck_card))
    elif kind == "conquer":
        yield "choose-noble", _apply(state, choose_noble=actions_pb2.ChooseNoble(noble_id=0))
    elif kind == "pair_card":
        yield "not-an-option", _apply(state, pair_card=actions_pb2.PairCard(card_id=absent[0]))
    elif kind == "take_free_card":
        yield "not-an-option", _apply(state, take_free_card=actions_pb2.TakeFreeCard(card_id=absent[0]))
    elif kind == "reserve_noble":
        yield "not-an-option", _apply(state, reserve_noble=actions_pb2.ReserveNoble(noble_id=absent[0]))


def _tokens(gem: str, count: int) -> common_pb2.TokenCounts:
    return common_pb2.TokenCounts(**{gem: count})


def request_refusals(cases: CaseFile, ruleset: str, games: list[GamePath]) -> None:
    """Requests malformed as a whole: seats, turns, states and bots of every RPC that takes them."""
    name = f"{ruleset}/refusal/request"
    game = games[0]
    state = game.moves[1].before
    seat = acting_seat(state)
    action = game.moves[1].applied.action
    other = (seat + 1) % game.config.num_players
    tampered = state_pb2.GameState()
    tampered.CopyFrom(state)
    tampered.bank.white += 1
    no_players = state_pb2.GameState()
    no_players.CopyFrom(state)
    del no_players.players[:]
    apply_refusals = {
        "not-your-turn": pb.ApplyActionRequest(state=state, action=action, seat=other),
        "seat-not-in-game": pb.ApplyActionRequest(state=state, action=action, seat=7),
        "stale-turn": pb.ApplyActionRequest(state=state, action=action, expected_turn=state.turn + 1),
        "no-state": pb.ApplyActionRequest(action=action),
        "bank-altered": pb.ApplyActionRequest(state=tampered, action=action),
        "no-players": pb.ApplyActionRequest(state=no_players, action=action),
        "neither-action-nor-bot": pb.ApplyActionRequest(state=state),
        "action-and-bot": pb.ApplyActionRequest(state=state, action=action, bot=bots_pb2.BotChoice(policy="random")),
        "unknown-bot": pb.ApplyActionRequest(state=state, bot=bots_pb2.BotChoice(policy="perfect")),
        "iterations-without-search": pb.ApplyActionRequest(
            state=state, bot=bots_pb2.BotChoice(policy="greedy", iterations=5)
        ),
        "step-of-a-plain-state": pb.ApplyActionRequest(state=state, action=action, expected_step=0),
        "audience-not-in-game": pb.ApplyActionRequest(
            state=state, action=action, audiences=[pb.Audience(seat=game.config.num_players)]
        ),
        "audience-twice": pb.ApplyActionRequest(
            state=state, action=action, audiences=[pb.Audience(seat=seat), pb.Audience(seat=seat)]
        ),
    }
    for label, request in apply_refusals.items():
        cases.refused(f"{name}/apply/{label}", "ApplyAction", request)
    # The bound on a search's iterations is the server's setting (--max-bot-iterations, default 1000).
    request = pb.ApplyActionRequest(state=state, bot=bots_pb2.BotChoice(policy="ismcts", iterations=100_000))
    session = cases.session(f"{name}/apply/iterations-above-bound", engine_specific=True)
    session.refused("ApplyAction", request)
    cases.refused(f"{name}/legal/no-state", "ListLegalActions", pb.ListLegalActionsRequest())
    cases.refused(f"{name}/legal/bank-altered", "ListLegalActions", pb.ListLegalActionsRequest(state=tampered))
    view_refusals = {
        "seat-not-in-game": pb.GetPlayerViewRequest(state=state, seat=game.config.num_players),
        "observation-of-spectator": pb.GetPlayerViewRequest(state=state, include_observation=True),
        "no-state": pb.GetPlayerViewRequest(seat=0),
        "bank-altered": pb.GetPlayerViewRequest(state=tampered, seat=0),
    }
    for label, view in view_refusals.items():
        cases.refused(f"{name}/view/{label}", "GetPlayerView", view)
    replay_refusals(cases, name, game)
    batch_refusals(cases, name)
    greedy = bots_pb2.BotChoice(policy="greedy")
    simulate_refusals = {
        "no-playouts": pb.SimulateRequest(state=state, policies=[greedy]),
        "too-many-playouts": pb.SimulateRequest(state=state, policies=[greedy], playouts=1001),
        "too-many-actions": pb.SimulateRequest(state=state, policies=[greedy], playouts=1, max_actions=5001),
        "over-budget": pb.SimulateRequest(state=state, policies=[greedy], playouts=1000, max_actions=201),
        "search-policy": pb.SimulateRequest(state=state, policies=[bots_pb2.BotChoice(policy="ismcts")], playouts=1),
        "unknown-policy": pb.SimulateRequest(state=state, policies=[bots_pb2.BotChoice(policy="perfect")], playouts=1),
        "no-policy": pb.SimulateRequest(state=state, playouts=1),
        "policies-not-one-per-seat": pb.SimulateRequest(
            state=state, policies=[greedy] * (game.config.num_players + 1), playouts=1
        ),
        "seat-not-in-game": pb.SimulateRequest(state=state, policies=[greedy], playouts=1, seat=9),
        "no-state": pb.SimulateRequest(policies=[greedy], playouts=1),
    }
    for label, simulate in simulate_refusals.items():
        cases.refused(f"{name}/simulate/{label}", "Simulate", simulate)
    determinize_refusals = {
        "no-samples": pb.DeterminizeRequest(state=state, seat=0),
        "too-many-samples": pb.DeterminizeRequest(state=state, seat=0, count=65),
        "seat-not-in-game": pb.DeterminizeRequest(state=state, seat=game.config.num_players, count=1),
        "no-state": pb.DeterminizeRequest(seat=0, count=1),
        "bank-altered": pb.DeterminizeRequest(state=tampered, seat=0, count=1),
    }
    for label, determinize in determinize_refusals.items():
        cases.refused(f"{name}/determinize/{label}", "Determinize", determinize)


def batch_refusals(cases: CaseFile, name: str) -> None:
    """A batch of one item more than the server takes (its default bound): refused before any item is read, so the
    items may be empty."""
    request = pb.BatchApplyActionsRequest(requests=[pb.ApplyActionRequest()] * (DEFAULT_MAX_BATCH_ITEMS + 1))
    cases.refused(f"{name}/batch/too-many-items", "BatchApplyActions", request)


def replay_refusals(cases: CaseFile, name: str, game: GamePath) -> None:
    """An action log with an illegal action (at index 3, then after the end), and a bad config."""
    actions = [move.applied.action for move in game.moves]
    illegal = actions_pb2.Action(choose_noble=actions_pb2.ChooseNoble(noble_id=99))
    request = pb.ReplayGameRequest(config=game.config, actions=actions[:3] + [illegal] + actions[3:6])
    cases.refused(f"{name}/replay/illegal-action", "ReplayGame", request)
    request = pb.ReplayGameRequest(config=game.config, actions=actions + actions[:1])
    cases.refused(f"{name}/replay/action-after-the-end", "ReplayGame", request)
    request = pb.ReplayGameRequest(config=config(5, 1, tuple(game.config.modules)), actions=actions[:1])
    cases.refused(f"{name}/replay/bad-config", "ReplayGame", request)
    request = pb.ReplayGameRequest(config=game.config, actions=[actions_pb2.Action()])
    cases.refused(f"{name}/replay/empty-action", "ReplayGame", request)


def edge_cases(cases: CaseFile, ruleset: str, games: list[GamePath]) -> None:
    """Moves at the limits of the rules that must be accepted, and what the turn limit does."""
    name = f"{ruleset}/edge"
    four = first_state(games, lambda s: not pending(s) and any(getattr(s.bank, gem) == 4 for gem in GEMS))
    if four is not None:
        state = four[0].moves[four[1]].before
        gem = next(index for index, gem in enumerate(GEMS) if getattr(state.bank, gem) == 4)
        request = _apply(state, take_two_gems=actions_pb2.TakeTwoGems(color=GEM_COLORS[gem]))
        cases.answered(f"{name}/take-two-from-four", "ApplyAction", request)
    no_gold = first_state(games, lambda s: not pending(s) and s.bank.gold == 0 and len(_acting_player(s).reserved) < 3)
    if no_gold is not None:
        state = no_gold[0].moves[no_gold[1]].before
        card = next(slot.card_id for row in state.market for slot in row.slots if slot.HasField("card_id"))
        cases.answered(
            f"{name}/reserve-without-gold",
            "ApplyAction",
            _apply(state, reserve_card=actions_pb2.ReserveCard(card_id=card)),
        )
    few_colors = first_state(games, lambda s: not pending(s) and sum(getattr(s.bank, gem) > 0 for gem in GEMS) < 3)
    if few_colors is not None:
        state = few_colors[0].moves[few_colors[1]].before
        colors = [GEM_COLORS[index] for index, gem in enumerate(GEMS) if getattr(state.bank, gem)]
        request = _apply(state, take_gems=actions_pb2.TakeGems(colors=colors))
        cases.answered(f"{name}/take-what-is-left", "ApplyAction", request)
    gold_payment_case(cases, name, games)
    limited = next(game for game in games if game.config.turn_limit)
    last = limited.moves[-1]
    cases.answered(f"{name}/turn-limit-reached", "ApplyAction", _apply(last.before, action_id=last.applied.action_id))
    cases.refused(f"{name}/turn-limit-game-over", "ApplyAction", _apply(limited.final, action_id=0))


def gold_payment_case(cases: CaseFile, name: str, games: list[GamePath]) -> None:
    """A purchase paid with gold although the buyer holds the colour (an explicit payment), and one whose
    explicit payment is wrong."""
    for game in games:
        for move in game.moves:
            purchase = move.applied.action.purchase_card
            if not move.applied.action.HasField("purchase_card") or pending(move.before):
                continue
            paid = next(
                (event.card_purchased.payment for event in move.response.events if event.HasField("card_purchased")),
                None,
            )
            player = _acting_player(move.before)
            if paid is None or player.tokens.gold <= paid.gold:
                continue
            colored = next((gem for gem in GEMS if getattr(paid, gem)), None)
            if colored is None:
                continue
            payment = common_pb2.TokenCounts()
            payment.CopyFrom(paid)
            setattr(payment, colored, getattr(paid, colored) - 1)
            payment.gold += 1
            request = _apply(
                move.before, purchase_card=actions_pb2.PurchaseCard(card_id=purchase.card_id, payment=payment)
            )
            cases.answered(f"{name}/gold-instead-of-{colored}", "ApplyAction", request)
            payment.gold += 1
            request = _apply(
                move.before, purchase_card=actions_pb2.PurchaseCard(card_id=purchase.card_id, payment=payment)
            )
            cases.refused(f"{name}/payment-too-large", "ApplyAction", request)
            return
