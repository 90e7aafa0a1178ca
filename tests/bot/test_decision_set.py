"""The fixed set of gnubg-judged checker-play decisions (bench/bot/decisions.py, bench/data/):
it loads, its plays are exactly our rules' legal plays, and it tells a weak player from the
shipped networks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from backgammon.bot import Bot
from backgammon.bot.pubeval import PubEval

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bot"


@pytest.fixture(scope="module")
def decisions() -> ModuleType:
    sys.path.insert(0, str(BENCH))  # its sibling module gnubg_judge
    try:
        spec = importlib.util.spec_from_file_location("decisions", BENCH / "decisions.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["decisions"] = module  # dataclasses look their module up by name
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_the_set_loads_with_its_command_and_enough_decisions(decisions: ModuleType) -> None:
    decision_set = decisions.load()
    assert decision_set.header["command"].startswith("python bench/decisions.py build")
    assert len(decision_set.decisions) >= 1000
    assert 0.9 < decision_set.kept_share <= 1.0
    classes = {d.position_class for d in decision_set.decisions}
    assert classes == set(decisions.CLASS_ORDER)


def test_every_judged_play_is_legal_and_the_best_loses_nothing(decisions: ModuleType) -> None:
    for decision in decisions.load().decisions[:300]:
        plays = decision.plays()  # raises unless the judged plays are our legal plays
        assert len(plays) == len(decision.losses) >= 2
        assert min(decision.losses.values()) == 0.0
        assert max(decision.losses.values()) > 0.001  # no trivial decision is kept


def test_a_changed_play_list_is_refused(decisions: ModuleType) -> None:
    decision = decisions.load().decisions[0]
    wrong = decisions.Decision(
        decision.position_id, decision.dice, decision.position_class, decision.best,
        dict(list(decision.losses.items())[1:]),
    )
    with pytest.raises(decisions.DecisionSetError, match="not the"):
        wrong.plays()


def test_pubeval_errs_far_more_than_the_shipped_networks(decisions: ModuleType) -> None:
    sample = decisions.load().decisions[:200]
    ours, _ = decisions.mean_and_error(decisions.losses_of(Bot().choose, sample))
    weak, _ = decisions.mean_and_error(decisions.losses_of(PubEval().choose, sample))
    assert weak > 2 * ours


def test_the_crashed_set_holds_only_legal_crashed_decisions(decisions: ModuleType) -> None:
    decision_set = decisions.load(str(BENCH.parent / "data" / "decisions-crashed.jsonl.gz"))
    assert "--classes crashed" in decision_set.header["command"]
    assert decision_set.header["classes"] == ["crashed"]
    assert len(decision_set.decisions) >= 500
    assert {d.position_class for d in decision_set.decisions} == {"crashed"}
    for decision in decision_set.decisions[:100]:
        assert len(decision.plays()) == len(decision.losses) >= 2
