"""One reading measured as a game from Python (Rules.study, the library's
kemet_study_*): the figures `kemet analyze` reports for the same settings
(where KEMET_BIN names the program), the same on one thread or two, a
variant without the ladder and SkillTrace, and the verdict's figures
made from the study's own."""
import json
import math
import os
import subprocess

import pytest

import kemet

# Small settings, so that a study takes a second or two: every figure's
# sample at most 8 games.
SMALL = dict(strong="expectimax:200",
             ladder=("random", "greedy", "expectimax:200"), games=30,
             trace_games=2, trace_base=4, pilot=6, most=8)
ARGS = ["--games", "30", "--strong", "expectimax:200", "--ladder",
        "random,greedy,expectimax:200", "--trace-games", "2",
        "--trace-base", "4", "--pilot", "6", "--max-games", "8",
        "--tables", "off", "--format", "json"]


def same(a, b):
    """Two studies' dicts the same, NaNs included."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.fixture(scope="module")
def study():
    return kemet.Rules("chien-chacal").study(threads=2, **SMALL)


def test_study_what_it_played(study):
    assert study["ruleset"] == "chien-chacal"
    assert not study["variant"]
    assert study["weak"]["games"] == 30
    assert study["weak"]["agents"] == ("greedy", "greedy")
    assert study["strong"]["agents"] == ("expectimax:200",) * 2
    assert 6 <= study["strong"]["games"] <= 8
    assert sum(study["strong"]["analysis"]["wins"]) + \
        study["strong"]["analysis"]["draws"] == study["strong"]["games"]
    # the weak self-play has no luck measured, the strong one has
    assert study["weak"]["p1_adjusted"] is None
    lo, hi = study["strong"]["p1_adjusted"][1:]
    assert 0 <= lo <= hi <= 1
    steps = [(s["upper"], s["lower"]) for s in study["ladder"]]
    assert steps == [("greedy", "random"), ("expectimax:200", "greedy")]
    assert (study["head"]["upper"], study["head"]["lower"]) == \
        ("expectimax:200", "greedy")
    assert sorted(study["probes"]) == ["foremost", "rearmost", "safe-random"]
    assert len(study["trace"]) == 8
    # the coverage is the share of the board's cells ever landed on
    land = study["strong"]["landings"]
    assert len(land) > 50
    assert study["strong"]["coverage"] == pytest.approx(
        sum(x > 0 for x in land) / len(land))
    for result, chances in study["strong"]["samples"]:
        assert result in (1, 2, 3) and chances
        assert all(0 <= c <= 1 for c in chances)


def test_study_verdict_figures(study):
    v = study["verdict_figures"]
    assert sorted(v) == ["strong", "weak"]
    assert list(v["strong"]) == ["length", "decisions", "skill", "balance",
                                 "tension", "stopped", "probes"]
    # the skill: 2 x the strong agent's adjusted score against the weak,
    # less 1, held to 0..1
    score = study["head"]["adjusted"][0]
    assert v["strong"]["skill"][0] == pytest.approx(
        min(1, max(0, 2 * score - 1)))
    assert v["strong"]["balance"] == study["strong"]["p1_adjusted"]
    # from weak play, balance is the raw score of player 1, a draw a half
    a = study["weak"]["analysis"]
    assert v["weak"]["balance"][0] == pytest.approx(
        (a["wins"][0] + a["draws"] / 2) / a["games"])
    assert v["strong"]["length"] == study["strong"]["median_turns"]


def test_study_threads(study):
    one = kemet.Rules("chien-chacal").study(threads=1, **SMALL)
    assert same(one, study)
    other = kemet.Rules("chien-chacal").study(threads=1, seed=2, **SMALL)
    assert not same(other, study)


def test_study_variant(study):
    v = kemet.Rules("chien-chacal").study(variant=True, threads=2, **SMALL)
    assert v["variant"] and v["ladder"] == [] and v["trace"] == []
    assert v["skill_trace"] is None
    # its other figures are the reading's own
    for k in ("weak", "strong", "head", "probes"):
        assert same(v[k], study[k])


def close(x, y):
    """A figure the program printed with six significant digits."""
    if y is None:
        return x is None or math.isnan(x)
    return x == pytest.approx(y, rel=6e-6, abs=1e-9)


def test_study_as_the_program_measures_it(study):
    binary = os.environ.get("KEMET_BIN")
    if not binary:
        pytest.skip("KEMET_BIN not set: the program is not run")
    out = subprocess.run([binary, "analyze", "chien-chacal"] + ARGS,
                         capture_output=True, text=True, check=True).stdout
    p = json.loads(out)["rulesets"][0]
    assert p["ruleset"] == study["ruleset"]
    for key, mine in (("strong_play", study["strong"]),
                      ("weak_play", study["weak"])):
        assert p[key]["games"] == mine["games"]
        assert close(mine["analysis"]["median_turns"], p[key]["median_turns"])
        assert close(mine["coverage"], p[key]["BoardCoverage"])
        for name, fig in (("Completion", "completion"),
                          ("AdvantageP1", "advantage_p1"),
                          ("LeadChange", "lead_change")):
            x = mine["analysis"][fig]
            assert close(x[0], p[key][name]["value"])
            assert close(x[1], p[key][name]["ci95"][0])
            assert close(x[2], p[key][name]["ci95"][1])
    adj = p["strong_play"]["AdvantageP1Adjusted"]
    assert close(study["strong"]["p1_adjusted"][0], adj["value"])
    assert close(study["strong"]["p1_adjusted"][1], adj["ci95"][0])

    def match(mine, theirs):
        assert mine["upper"] == theirs["upper"]
        assert mine["lower"] == theirs["lower"]
        assert mine["games"] == theirs["games"]
        assert mine["contradiction"] == theirs["contradiction"]
        assert close(mine["adjusted"][0], theirs["adjusted"]["value"])
        assert close(mine["adjusted"][2], theirs["adjusted"]["ci95"][1])
        assert close(mine["luck_share"][0], theirs["luck_share"])

    assert len(p["ladder"]) == len(study["ladder"])
    for mine, theirs in zip(study["ladder"], p["ladder"]):
        match(mine, theirs["step"])
    match(study["head"], p["strong_vs_weak"])
    for name in ("rearmost", "foremost", "safe-random"):
        match(study["probes"][name], p[name])
    assert close(study["skill_trace"], p["SkillTrace"])
    assert close(study["skill_trace_adjusted"], p["SkillTraceLuckAdjusted"])
    assert close(study["games_to_lead"], p["GamesToLead"])
    assert close(study["verdict_figures"]["strong"]["decisions"][0],
                 p["DecisionsPerTurn"]["value"])


def test_headroom():
    """Rules.headroom: the strong agent against a stronger one, paired and
    luck-adjusted: the agent against itself is saturated (the same moves
    in both seats of every pair), greedy against random is not, and its
    gain is the figure `kemet analyze --headroom` reports."""
    r = kemet.Rules("senet-bell")
    same_agent = r.headroom("expectimax:200", strong="expectimax:200",
                            pilot=6, most=8)
    assert same_agent["saturated"]
    assert same_agent["adjusted"][0] == 0.5
    h = r.headroom("greedy", strong="random", most=60, threads=2)
    assert not h["saturated"]
    assert h["upper"] == "greedy" and h["lower"] == "random"
    assert h["adjusted"][1] > 0.6
    with pytest.raises(TypeError):
        r.headroom("greedy", precision="0.1")
    with pytest.raises(kemet.KemetError):
        r.headroom("no-such-agent")
