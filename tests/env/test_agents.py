"""Learned policies as agents: tournament, self-play, table levels, policy files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cardavia.ai import AGENTS
from cardavia.ai import difficulty as levels
from cardavia.ai.runner import play_out
from cardavia.ai.tournament import run as tournament
from cardavia.ai.tournament import tournament_main
from cardavia.cli import main as cli
from cardavia.env import _engine as eng
from cardavia.env import actions as act
from cardavia.env import agents
from cardavia.env import encode as enc


@pytest.fixture
def clean_registry() -> Iterator[None]:
    yield
    for name in list(agents.REGISTERED):
        agents.REGISTERED.pop(name)
        AGENTS.pop(name, None)
        levels._LEARNED.pop(name, None)
        if name in levels.AI_LEVELS:
            levels.AI_LEVELS.remove(name)


def _tiny(path: Path, game: str, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    n_in, n_out = enc.size(game), act.action_space(game).size
    layers = [
        (rng.normal(size=(n_in, 16)).astype(np.float32), np.zeros(16, np.float32)),
        (rng.normal(size=(16, n_out)).astype(np.float32), np.zeros(n_out, np.float32)),
    ]
    agents.save_mlp(path, layers, game)
    return path


def test_policy_file_round_trip_and_errors(tmp_path: Path) -> None:
    path = _tiny(tmp_path / "p.npz", "runfast")
    policy, game = agents.load_policy(path)
    assert game == "runfast"
    deal = eng.new_deal("runfast", 1)
    obs = eng.observation(deal, deal.turn or 0)
    x = enc.encode(obs)
    mask = np.zeros(152, bool)
    mask[act.legal_from_observation(obs).actions] = True
    assert mask[policy(x, mask)]
    with pytest.raises(ValueError, match="does not exist"):
        agents.load_policy(tmp_path / "missing.npz")
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, game=np.array("guandan"), W0=np.zeros((3, 4), np.float32), b0=np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="needs 554 inputs"):
        agents.load_policy(wrong)
    module = tmp_path / "first.py"
    module.write_text('GAME = "guandan"\n\ndef policy(obs, mask):\n    return int(mask.nonzero()[0][-1])\n')
    fn, g = agents.load_policy(module)
    assert g == "guandan" and callable(fn)


def test_learned_agent_in_tournament_selfplay_and_tables(
    tmp_path: Path, clean_registry: None, capsys: pytest.CaptureFixture[str]
) -> None:
    rf = _tiny(tmp_path / "rf.npz", "runfast")
    assert tournament_main(["--game", "runfast", "--agents", f"tiny={rf}", "random", "--deals", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["slots"][0]["agent"] == "tiny"
    # the same name plays Guandan too once a Guandan policy file is added
    module = tmp_path / "gd.py"
    module.write_text('GAME = "guandan"\n\ndef policy(obs, mask):\n    return int(mask.nonzero()[0][-1])\n')
    agents.register("tiny", module)
    s = tournament("guandan", ["tiny", "random"], 2, seed=1, progress=False)
    assert s["sides"][0]["agent"] == "tiny"
    out = tmp_path / "sp.jsonl"
    args = ["selfplay", "--game", "runfast", "--deals", "4", "--shards", "2", "--agent", "tiny", "--out", str(out)]
    assert cli(args) == 0
    assert len(out.read_text().splitlines()) == 4
    # a table level: the HTTP request model and the table's agent factory accept it
    from cardavia.server.messages import CreateTableRequest

    assert CreateTableRequest(game="runfast", difficulty="tiny").difficulty == "tiny"
    with pytest.raises(ValueError, match="unknown difficulty"):
        CreateTableRequest(game="runfast", difficulty="nobody")
    agent = levels.agent_for("tiny", 3)
    deal = play_out(eng.new_deal("runfast", 8), [agent, levels.agent_for("random", 1), agent])
    assert deal.over


def test_serve_rejects_a_bad_agent_spec(tmp_path: Path, clean_registry: None) -> None:
    from cardavia.server.cli_serve import main as serve

    with pytest.raises(SystemExit):
        serve(["--agent", "noequals"])
    with pytest.raises(SystemExit):
        serve(["--agent", f"x={tmp_path / 'none.npz'}"])


def test_selfplay_shards_are_the_same_on_workers(tmp_path: Path) -> None:
    from cardavia.env.cluster import selfplay_sharded

    one = selfplay_sharded("runfast", 4, 3, ["random"], shards=2)
    two = selfplay_sharded("runfast", 4, 3, ["random"], shards=2, workers=2)
    assert one == two and len(one) == 4
    from cardavia.selfplay import selfplay_records

    assert selfplay_sharded("guandan", 2, 9, ["random"]) == list(selfplay_records("guandan", 2, 9, ["random"]))
