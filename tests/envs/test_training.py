"""The training recipe (examples/train_maskable_ppo.py): MaskablePPO on the registered env, no wrapper, masked."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from splendor_client.envs import SplendorEnv

pytest.importorskip(
    "torch", reason="torch is not installed (the client's train extra: pip install 'splendor-client[train]')"
)
pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (the client's train extra)")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"
STEPS = 2048


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_on_the_registered_env_masked() -> None:
    example = _example()
    model, illegal = example.train(STEPS, n_steps=512)
    assert model.num_timesteps >= STEPS
    assert illegal == 0  # an unmasked policy over 370 actions picks an illegal one at once
    masks = model.rollout_buffer.action_masks
    assert masks.shape[-1] == 370 and 0 < masks.mean() < 0.5  # the env's masks, not the all-legal default
    share, low, high = example.win_rate(model, "random", games=4)
    assert 0.0 <= low <= share <= high <= 1.0
    self_play = SplendorEnv(opponents=model, action_ids="ruleset", turn_limit=60)  # the trained model at seat 1
    observation, _ = self_play.reset(seed=1)
    done = False
    while not done:
        action, _ = model.predict(observation, action_masks=self_play.action_masks(), deterministic=True)
        observation, _, done, _, info = self_play.step(int(action))
        assert not info.get("illegal_action")
    assert self_play.game.applied > 2


def test_the_wilson_interval_holds_the_share() -> None:
    low, high = _example().wilson(17, 20)
    assert low < 17 / 20 < high
    assert np.isclose(low, 0.6396, atol=1e-3) and np.isclose(high, 0.9476, atol=1e-3)


def test_the_learning_curve_script_prints_a_row_per_checkpoint() -> None:
    completed = subprocess.run(
        [sys.executable, "learning_curve.py", "--checkpoints", "256", "--games", "2"],
        cwd=EXAMPLE.parent,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    rows = [line for line in completed.stdout.splitlines() if re.match(r"\| \d+ \|", line)]
    assert [row.split("|")[1].strip() for row in rows] == ["0", "1024"]  # one rollout of n_steps covers 256
    assert completed.stdout.rstrip().endswith("illegal actions during training: 0")
