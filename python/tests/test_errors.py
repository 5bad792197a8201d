"""Every method called with bad arguments: a KemetError (or, for an
argument of the wrong Python type, a TypeError: a whole number given as
1.5, '3' or None) and never an abort of the
interpreter or a raw ctypes error. Each call runs in a child interpreter
too, so an assertion in the library would fail the test instead of ending
the run."""
import os
import subprocess
import sys

import pytest

import kemet

SENET = "senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14"
OVER = "senet-kendall to=1 p1=- p2=5 winner=1"

# (code, the exception it raises): r is Rules("senet-kendall"), p its start
BAD = [
    ("r.win_chance(p, 3)", kemet.KemetError),
    ("r.win_chance(p, 0)", kemet.KemetError),
    ("r.win_chance(p, -1)", kemet.KemetError),
    ("r.win_chance(p, 'x')", TypeError),
    ("r.win_chance(None)", TypeError),
    ("r.moves(p, None)", kemet.KemetError),
    ("r.moves(p, '6')", kemet.KemetError),
    ("r.moves(p, 3)", TypeError),
    ("r.moves('senet-kendall to=1', '3')", kemet.KemetError),
    ("r.moves(kemet.Rules('chien-chacal').start(), '1')", kemet.KemetError),
    ("r.prethrow('nonsense')", kemet.KemetError),
    ("r.throws('x=1')", kemet.KemetError),
    ("r.apply(p, '3', '1-99')", kemet.KemetError),
    ("r.apply(p, '3', '13-15')", kemet.IllegalMove),
    ("r.apply(p, None, None)", TypeError),
    ("r.describe(p, '3', 'x')", kemet.KemetError),
    ("r.explain(p, '9', '13-15')", kemet.KemetError),
    ("r.throw('')", kemet.KemetError),
    ("r.move('1--2')", kemet.KemetError),
    ("r.position('senet-kendall to=3 p1=1 p2=2')", kemet.KemetError),
    ("r.agent('wizard')", kemet.KemetError),
    ("r.agent('greedy', seed='x')", TypeError),
    ("r.agent('greedy', seed=1.5)", TypeError),
    ("r.game(seed=None)", TypeError),
    # seeds are 0 to 2**64 - 1, never wrapped (seed -1 once played seed
    # 2**64 - 1's game, 2**64 seed 0's)
    ("r.game(seed=-1)", kemet.KemetError),
    ("r.game(seed=2**64)", kemet.KemetError),
    ("r.agent('greedy', seed=-1)", kemet.KemetError),
    ("r.agent('greedy', seed=2**64)", kemet.KemetError),
    ("r.play(seed=-1)", kemet.KemetError),
    ("r.analyze(games=1, seed=2**64)", kemet.KemetError),
    ("r.game(position='senet-kendall to=1 p1=- p2=5 winner=1')",
     kemet.KemetError),
    ("r.play('greedy', 'wizard')", kemet.KemetError),
    ("r.play(max_turns=-1)", kemet.KemetError),
    ("r.play(kemet.Rules('chien-chacal').agent('greedy'))", kemet.KemetError),
    ("r.analyze(games=-5)", kemet.KemetError),
    ("r.analyze(games=0)", kemet.KemetError),
    ("r.analyze(games='many')", TypeError),
    ("r.analyze(games=2, max_turns=0)", kemet.KemetError),
    # a study refuses its settings before a game is played
    ("r.study(ladder=('greedy',))", kemet.KemetError),
    ("r.study(ladder=('greedy',) * 9)", kemet.KemetError),
    ("r.study(ladder='greedy,best')", kemet.KemetError),
    ("r.study(ladder=('greedy', 'oracle'))", kemet.KemetError),
    ("r.study(strong='wizard')", kemet.KemetError),
    ("r.study(weak='greedy')", kemet.KemetError),
    ("r.study(weak=('greedy', None))", TypeError),
    ("r.study(games=1)", kemet.KemetError),
    ("r.study(games=2**70)", kemet.KemetError),
    ("r.study(trace_base=0)", kemet.KemetError),
    ("r.study(max_turns=0)", kemet.KemetError),
    ("r.study(precision=0)", kemet.KemetError),
    ("r.study(precision=0.6)", kemet.KemetError),
    ("r.study(precision=float('nan'))", kemet.KemetError),
    ("r.study(precision='0.1')", TypeError),
    ("r.study(pilot=1)", kemet.KemetError),
    ("r.study(seed=-1)", kemet.KemetError),
    ("r.study(threads=0)", kemet.KemetError),
    ("r.study(variant='yes')", TypeError),
    ("r.analyze(p1='wizard', games=1)", kemet.KemetError),
    ("kemet.Rules('chess')", kemet.KemetError),
    ("kemet.Rules(None)", TypeError),
    ("kemet.parse_position('senet-kendall to=1 p1=1 p1=2')",
     kemet.KemetError),
    ("kemet.level_agent(0)", kemet.KemetError),
    ("kemet.level_agent('x')", TypeError),
    ("kemet.level_agent(None)", TypeError),
    ("r.agent('greedy').choose(p, '3', ['13-15'])", kemet.IllegalMove),
    ("r.agent('greedy').choose(p, '3', '13-16')", TypeError),
    ("r.agent('greedy').choose(p, '3', [])", kemet.KemetError),
    ("r.agent('best').rank(p, '3', ['1-4', '13-15'])", kemet.IllegalMove),
    ("r.agent('greedy').choose(p, None, ['13-16'])", kemet.KemetError),
    ("r.agent('greedy').choose('%s', '3')" % OVER, kemet.KemetError),
    ("r.agent('greedy').rank(p, '9')", kemet.KemetError),
    ("kemet.Agent(None)", TypeError),
    ("kemet.Game('senet-kendall')", TypeError),
    ("g = r.game(1); g.roll(); g.roll()", kemet.KemetError),
    ("g = r.game(1); g.play('13-15')", kemet.IllegalMove),
    ("g = r.game(1); g.roll(); g.play('x')", kemet.KemetError),
    ("g = r.game(1); g.play(None)", TypeError),
    ("g = r.game(1, position='%s'); g.record('')" % SENET, kemet.KemetError),
    # the session
    ("r.game(1).resign(3)", kemet.KemetError),
    ("r.game(1).resign(0)", kemet.KemetError),
    ("r.game(1).resign(None)", TypeError),
    ("r.game(1).resign(True)", TypeError),
    ("r.game(1).resign(1.0)", TypeError),
    ("r.game(1).takeback(3)", kemet.KemetError),
    ("r.game(1).takeback(None)", TypeError),
    ("r.game(1).takeback(1)", kemet.KemetError),
    ("r.game(1).last_move(-1)", kemet.KemetError),
    ("r.game(1).last_move('1')", TypeError),
    ("r.game(1).back(1)", kemet.KemetError),
    ("r.game(1).back(-1)", kemet.KemetError),
    ("r.game(1).back(None)", TypeError),
    ("r.game(1).back(0.5)", TypeError),
    ("r.game(1).back(2**70)", kemet.KemetError),
    ("g = r.play(seed=3, max_turns=5); g.back(g.plies + 1)",
     kemet.KemetError),
    ("g = r.game(1); g.resign(1); g.takeback(2)", kemet.KemetError),
    ("g = r.game(1); g.resign(2); g.roll()", kemet.KemetError),
    ("g = r.game(1); g.resign(2); g.play('pass')", kemet.KemetError),
    ("g = r.game(1); g.resign(2); g.resign(1)", kemet.KemetError),
    ("g = r.game(1); g.resign(2); g.stop()", kemet.KemetError),
    ("g = r.game(1); g.stop(); g.stop()", kemet.KemetError),
    ("g = r.game(1); g.stop(); g.roll()", kemet.KemetError),
    ("g = r.game(1); g.stop(); g.step(r.agent('greedy'))", kemet.KemetError),
    ("r.game(1).step(None)", TypeError),
    ("r.game(1).step('greedy')", TypeError),
    ("r.game(1).step(kemet.Rules('chien-chacal').agent('greedy'))",
     kemet.KemetError),
    ("a = r.agent('greedy'); a.close(); r.game(1).step(a)", kemet.KemetError),
    ("r.game(1).set_players('', 'x')", kemet.KemetError),
    ("r.game(1).set_players('x' * 64, 'y')", kemet.KemetError),
    ("r.game(1).set_players('a\\tb', 'y')", kemet.KemetError),
    ("r.game(1).set_players('a', None)", TypeError),
    ("r.game(1).set_players('a\\0b', 'y')", kemet.KemetError),
    ("r.game(1).record(None, '')", kemet.KemetError),
    ("kemet.Game.read(None, 'kemet-record 1')", TypeError),
    ("kemet.Game.read(r, None)", TypeError),
    ("r.read_game('')", kemet.KemetError),
    ("r.read_game('kemet-record 1\\nruleset senet-kendall\\n')",
     kemet.KemetError),
    ("r.read_game(kemet.Rules('chien-chacal').game(1).record())",
     kemet.KemetError),
    ("r.read_game(r.game(1).record().replace('seed 1', 'seed x'))",
     kemet.KemetError),
    ("r.read_game('kemet-record 1\\n' * 100000)", kemet.KemetError),
    ("g = r.game(1); g.close(); g.history", kemet.KemetError),
    ("g = r.game(1); g.close(); g.record()", kemet.KemetError),
    ("g = r.game(1); g.close(); g.takeback(1)", kemet.KemetError),
    ("g = r.game(1); r.close(); g.record()", kemet.KemetError),
    ("r2 = kemet.Rules('senet-kendall'); t = r2.game(1).record(); "
     "r2.close(); r2.read_game(t)", kemet.KemetError),
    ("g = r.game(1); g.close(); g.roll()", kemet.KemetError),
    ("g = r.game(1); g.close(); g.position", kemet.KemetError),
    ("a = r.agent('greedy'); a.close(); a.choose(p, '3')", kemet.KemetError),
    ("a = r.agent('greedy'); r.close(); a.choose(p, '3')", kemet.KemetError),
    ("g = r.game(1); r.close(); g.roll()", kemet.KemetError),
    ("r.close(); r.start()", kemet.KemetError),
    ("r.close(); r.moves(p, '3')", kemet.KemetError),
    ("r.close(); str(p)", kemet.KemetError),
]


@pytest.mark.parametrize("code,exc", BAD, ids=[c for c, _ in BAD])
def test_bad_arguments(code, exc):
    r = kemet.Rules("senet-kendall")
    p = r.start()
    with pytest.raises(exc) as e:
        exec(code, {"kemet": kemet, "r": r, "p": p})
    assert str(e.value)
    if exc is kemet.KemetError or exc is kemet.IllegalMove:
        assert e.value.code < 0


def test_no_abort():
    """All of them in one child interpreter: it ends normally."""
    prog = ["import kemet"]
    for code, _ in BAD:
        prog.append("r = kemet.Rules('senet-kendall'); p = r.start()")
        prog.append("try:\n    exec(%r)\nexcept (kemet.KemetError, "
                    "TypeError):\n    pass" % code)
    prog.append("print('done')")
    out = subprocess.run([sys.executable, "-c", "\n".join(prog)],
                         capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "done\n"


def test_player_is_read_as_given():
    r = kemet.Rules("senet-kendall")
    p = r.start()
    a, b = r.win_chance(p, 1), r.win_chance(p, 2)
    assert r.win_chance(p) == a
    assert abs(a + b - 1) < 1e-9


def page_example(heading):
    """The first example under `heading` in docs/python.md: its code and
    the output the page says it prints (the next indented block)."""
    here = os.path.dirname(os.path.abspath(__file__))
    page = os.path.join(here, "..", "..", "docs", "python.md")
    if not os.path.exists(page):
        pytest.skip("no docs/python.md beside the tests")
    text = open(page, encoding="utf-8").read()
    example = text.split("\n" + heading + "\n", 1)[1]
    blocks, block = [], None
    for line in example.splitlines():
        if line.startswith("    ") or (block is not None and not line):
            if block is None:
                block = []
                blocks.append(block)
            block.append(line[4:])
        else:
            block = None
        if line.startswith("#"):
            break
    return "\n".join(blocks[0]), "\n".join(blocks[1]).strip() + "\n"


@pytest.mark.parametrize("heading", [
    "## Example", "### Example: a take-back, a resignation, the record"])
def test_python_md_example(heading):
    """docs/python.md's examples print what the page says they print."""
    code, want = page_example(heading)
    env = dict(os.environ, KEMET_TABLES="off")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


@pytest.mark.parametrize("lib", ["/nonexistent/libkemet.so", __file__,
                                 "libc.so.6"])
def test_bad_kemet_lib(lib):
    """A KEMET_LIB that is not there, not a library, or not kemet's: one
    OSError naming it, no ctypes traceback."""
    env = dict(os.environ, KEMET_LIB=lib)
    out = subprocess.run([sys.executable, "-c", "import kemet"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("OSError: kemet: ") and lib in last, out.stderr
    assert "KEMET_LIB" in last
    assert "ctypes" not in out.stderr, out.stderr
