"""What the committed vectors cover (every RPC, every ruleset, refusals, decisions, sealed games) and how they
are written (the manifest's counts, the size, well-formed references)."""

from __future__ import annotations

import json
from collections import Counter

from splendor.v1 import engine_service_pb2, errors_pb2, state_pb2
from splendor_client.conformance import Corpus

from engine_service.api import METHODS
from tests.conformance.conftest import VECTORS
from tests.rulesets import MODULE_NAMES

RULESETS = ("base", *MODULE_NAMES)
# The pending decisions each ruleset's rules can open (docs/rules.md); the vectors answer each in a case.
DECISIONS = {
    "base": {"RETURN_TOKENS", "CHOOSE_NOBLE"},
    "cities": {"RETURN_TOKENS", "CHOOSE_CITY"},
    "trading_posts": {"RETURN_TOKENS", "CHOOSE_NOBLE", "TAKE_GEM"},
    "strongholds": {"RETURN_TOKENS", "CHOOSE_NOBLE", "PLACE_STRONGHOLD", "CONQUER"},
    "orient": {"RETURN_TOKENS", "CHOOSE_NOBLE", "PAIR_CARD", "TAKE_FREE_CARD", "RESERVE_NOBLE"},
}
MAX_BYTES = 4_000_000
# The reasons no vector shows (conformance/README.md says why): a field that cannot carry the bad value
# (unsigned seeds and turn limits), bytes that are no request, a server's own bounds, key ring and clock.
NOT_SENDABLE = {
    "INVALID_SEED",
    "INVALID_TURN_LIMIT",
    "REQUEST_UNDECODABLE",
    "REPLAY_TOO_LONG",
    "RESPONSE_TOO_LARGE",
    "SEALED_STATE_TOO_LARGE",
    "SEALED_STATE_VERSION_UNSUPPORTED",
    "SEALED_STATE_KEY_UNKNOWN",
    "SEALED_STATE_KEY_RETIRED",
    "SEAT_KEY_RETIRED",
    "SEALED_STATE_EXPIRED",
}


def ruleset_of(name: str) -> str:
    return next(ruleset for ruleset in RULESETS if name.startswith(ruleset))


def test_the_vectors_hold_over_a_thousand_calls_and_every_ruleset_s_games(corpus: Corpus) -> None:
    assert corpus.calls >= 1000
    assert corpus.contract == engine_service_pb2.DESCRIPTOR.package
    games = Counter(ruleset_of(game.name) for game in corpus.games)
    assert set(games) == set(RULESETS) and min(games.values()) >= 4


def test_the_whole_games_end_in_every_way_a_game_ends(corpus: Corpus) -> None:
    endings = {game.final_state.get("endReason") for game in corpus.games}
    assert endings == set(state_pb2.EndReason.DESCRIPTOR.values_by_name) - {"END_REASON_UNSPECIFIED"}


def test_every_rejection_reason_is_shown_but_those_a_runner_cannot_send(corpus: Corpus) -> None:
    shown = {step.refusal.reason for case in corpus.cases for step in case.steps if step.refusal}
    every = {name.removeprefix("REJECTION_REASON_") for name in errors_pb2.RejectionReason.DESCRIPTOR.values_by_name}
    assert shown == every - {"UNSPECIFIED"} - NOT_SENDABLE


def test_every_rpc_is_called_and_refused_in_every_ruleset(corpus: Corpus) -> None:
    """GetCatalog takes no game: its one case is the catalog's. Every other RPC is answered and refused in each."""
    answered: dict[str, set[str]] = {ruleset: set() for ruleset in RULESETS}
    refused: dict[str, set[str]] = {ruleset: set() for ruleset in RULESETS}
    for case in corpus.cases:
        if case.name == "catalog":
            assert [step.method for step in case.steps] == ["GetCatalog"]
            continue
        for step in case.steps:
            (refused if step.refusal else answered)[ruleset_of(case.name)].add(step.method)
    rpcs = {method.name for method in METHODS} - {"GetCatalog"}
    for ruleset in RULESETS:
        assert answered[ruleset] == rpcs, ruleset
        assert refused[ruleset] == rpcs - {"GetCatalog"}, ruleset


def test_every_decision_of_every_ruleset_is_answered(corpus: Corpus) -> None:
    answered: dict[str, set[str]] = {ruleset: set() for ruleset in RULESETS}
    for case in corpus.cases:
        for step in case.steps:
            state = step.request.get("state", {})
            kind = state.get("pendingDecision", {}).get("kind")
            if step.method == "ApplyAction" and step.refusal is None and kind:
                answered[ruleset_of(case.name)].add(kind.removeprefix("DECISION_KIND_"))
    assert answered == DECISIONS


def test_sealed_games_refuse_missing_and_wrong_seat_keys_and_altered_tokens(corpus: Corpus) -> None:
    for ruleset in RULESETS:
        reasons = {
            step.refusal.reason
            for case in corpus.cases
            if case.name.startswith(f"{ruleset}/sealed/")
            for step in case.steps
            if step.refusal
        }
        assert {"SEAT_KEY_MISSING", "SEAT_KEY_INVALID", "SEALED_STATE_INVALID", "SEALED_STATE_MALFORMED"} <= reasons


def test_the_manifest_counts_what_the_files_hold(corpus: Corpus) -> None:
    counts = json.loads((VECTORS / "manifest.json").read_text())["counts"]
    steps = [step for case in corpus.cases for step in case.steps]
    assert counts["cases"] == len(corpus.cases)
    assert counts["calls"] == len(steps)
    assert counts["refusals"] == sum(step.refusal is not None for step in steps)
    assert counts["engineSpecificCases"] == sum(case.engine_specific for case in corpus.cases)
    assert counts["games"] == len(corpus.games)
    assert counts["callsByMethod"] == dict(Counter(step.method for step in steps))


def test_the_vectors_stay_small_and_every_game_has_a_digest_per_action(corpus: Corpus) -> None:
    size = sum(path.stat().st_size for path in VECTORS.rglob("*.json"))
    assert size < MAX_BYTES
    for game in corpus.games:
        assert len(game.digests) == len(game.actions) > 0
        assert all(len(digest) == 64 for digest in game.digests)
