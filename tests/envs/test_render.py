"""render_mode="ansi": the table from the learner's seat, as splendor-play shows it."""

from __future__ import annotations

import pytest
from splendor_client import EngineClient
from splendor_client.envs import SplendorAECEnv, SplendorEnv


def test_ansi_renders_the_learners_table_in_process_and_remotely(client: EngineClient) -> None:
    for env in (SplendorEnv(render_mode="ansi", seat=1), SplendorEnv(render_mode="ansi", seat=1, client=client)):
        env.reset(seed=6)
        text = env.render()
        assert text is not None
        # The learner is seat 1: Player 2 in the numbering people read.
        assert text.startswith("== Turn") and "Bank: " in text and "Player 2 (you)" in text


def test_the_pettingzoo_env_renders_the_acting_seat() -> None:
    env = SplendorAECEnv(render_mode="ansi", module="cities")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "Cities: " in text


def test_no_render_mode_renders_nothing_and_an_unknown_one_is_refused() -> None:
    env = SplendorEnv()
    env.reset(seed=1)
    assert env.render() is None
    with pytest.raises(ValueError, match="render_mode is one of ansi"):
        SplendorEnv(render_mode="rgb_array")
