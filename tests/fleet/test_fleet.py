"""Many replicas, one game: the fleet run (``scenario.py``) in its short version, and a rotation done in the
wrong order, which the operator's check catches and the refusal names.

The short version: 3 replicas behind nginx, 18 games in play at once over gRPC and Connect (through nginx
and with the clients' own round robin), a rolling restart, a kill and a key rotation rolled replica by
replica, at least 50 games played to their end. ``make fleet`` runs the long version (216 games at once).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from splendor_client import TokenRefused, connect

from engine_service.sealing import new_key_line
from tests.fleet.connect_players import tsx
from tests.fleet.proxy import nginx_binary
from tests.fleet.replicas import Replica
from tests.fleet.rotation import before_sealing_with
from tests.fleet.scenario import OLD_KEY, SHORT, failures, fleet, report, run

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(nginx_binary() is None, reason="needs nginx: scripts/ensure-debian-packages nginx:nginx"),
]


@pytest.mark.skipif(tsx() is None, reason="the Connect players need `npm ci` in clients/typescript (make ts-test)")
def test_no_game_is_lost_through_a_rolling_restart_a_kill_and_a_key_rotation(tmp_path: Path) -> None:
    with fleet(SHORT, tmp_path) as the_fleet:
        result = run(SHORT, the_fleet)
    figures = report(result)
    print(json.dumps(figures, indent=2))  # the run's figures, shown with -s or on failure
    games = result.games()
    assert sum(game.finished for game in games) >= SHORT.min_games
    finished_by = {group.transport: sum(game.finished for game in group.games) for group in result.groups}
    assert all(finished_by.values()), f"every kind of player finished games: {finished_by}"
    # The old key was retired while games it dealt (their seat keys issued under it) were still played.
    assert result.notes["games dealt under the old key, in play at its retirement"] >= 1
    dealt_under_old = [game for game in games if game.created_key == OLD_KEY]
    assert all(game.finished for game in dealt_under_old), [game.error for game in dealt_under_old if game.error]
    # 0 games lost, 0 failed calls seen by a player (after the clients' retries), every finished game
    # identical to ReplayGame of its moves, logs and metrics that add up.
    assert not failures(result), failures(result)[:20]


def test_a_key_made_sealing_before_every_replica_opens_it_is_caught_and_named(tmp_path: Path) -> None:
    keys = {key_id: new_key_line(key_id) for key_id in ("old", "new")}
    shared, ahead = tmp_path / "shared", tmp_path / "ahead"
    shared.write_text(keys["old"] + "\n", encoding="utf-8")
    ahead.write_text(f"{keys['new']}\n{keys['old']}\n", encoding="utf-8")  # step 2 without step 1
    behind, rushed = Replica("behind", shared), Replica("rushed", ahead)
    try:
        behind.start()
        rushed.start()
        # The operator's check before the step: a replica that would not open the new key's tokens.
        problems = before_sealing_with([behind, rushed], "new")
        assert problems == ["behind does not open 'new' (its ring: {'old': 'seals'})"]
        # Done anyway: a game dealt on the rushed replica cannot be played on the other, and the refusal says why.
        with connect(rushed.grpc_address) as on_rushed, connect(behind.grpc_address) as on_behind:
            game = on_rushed.new_game(2, sealed=True, seat=0)
            with pytest.raises(TokenRefused) as refused:
                on_behind.legal_actions(game, seat=game.acting_seat)
        assert refused.value.reason == "SEALED_STATE_KEY_UNKNOWN"
        assert "a step was probably skipped" in refused.value.message
    finally:
        behind.stop()
        rushed.stop()
