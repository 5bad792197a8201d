"""The game session (Game over the library's kemet_game) as seen from
Python: history, take-back, resignation, stopping, the record out and a
game read back from one.

Each expectation is worked out apart from the session: the plies from a
log the test keeps of what it played (each step's mover, the throw then
pending and the move step() answered), positions by applying that log
with Rules.apply from the game's first position, records written out
from the log by the format of docs/records.md, and records checked by the
native `kemet replay` where KEMET_BIN names the program.
"""
import os
import subprocess
import tempfile

import pytest

import kemet

EOVER = -6  # the library's KEMET_EOVER (docs: kemet.h)
EMISUSE = -1  # KEMET_EMISUSE


def play_logged(r, seed, plies, specs=("random", "random"), game=None,
                until=None):
    """A game of `r` (seeded `seed`, or `game` as given) stepped by two
    agents for at most `plies` plies, or until `until(game, log)` holds
    after a ply. Returns the game and the log: a (player, throw or None,
    move) for each ply, as the test saw it made."""
    g = game if game is not None else r.game(seed)
    agents = [r.agent(s, seed * 2 + i) for i, s in enumerate(specs)]
    log = []
    while g.plies < plies and not g.over:
        mover, pending = g.position.to, g.throw
        got = g.step(agents[mover - 1])
        if isinstance(got, kemet.Throw):
            assert pending is None and g.throw == got and g.next == "move"
            continue
        assert isinstance(got, kemet.Move)
        log.append((mover, pending, got))
        if until is not None and until(g, log):
            break
    return g, log


def apply_all(r, start, log):
    """The position after the logged plies, by the rules alone."""
    pos = start
    for _, t, m in log:
        pos = r.apply(pos, t, m)
    return pos


def record_of(r, g, log, resigned=None):
    """The record docs/records.md describes for a game of `log`."""
    lines = ["kemet-record 1", "ruleset " + r.spec, "seed %d" % g.seed,
             "player1 " + g.players[0], "player2 " + g.players[1],
             ("setup " if g.setup else "start ") + str(g.first)]
    for p, t, m in log:
        lines.append("%d %s %s" % (p, t if t is not None else "none", m))
    end = apply_all(r, g.first, log)
    if resigned:
        lines.append("resign %d" % resigned)
        result = str(3 - resigned)
    elif g.stopped:
        result = "stopped"
    elif end.over:
        result = {1: "1", 2: "2", 3: "0"}[end.result]
    else:
        result = "unfinished"
    lines.append("result " + result)
    return "\n".join(lines) + "\n"


def replays(text, plies):
    """`kemet replay` finds the record valid, with `plies` plies."""
    binary = os.environ.get("KEMET_BIN")
    if not binary:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".rec", delete=False) as fh:
        fh.write(text)
    try:
        out = subprocess.run([binary, "replay", fh.name], capture_output=True,
                             text=True)
    finally:
        os.unlink(fh.name)
    assert out.returncode == 0, out.stderr
    assert "valid record, %d plies" % plies in out.stdout


def same_game(a, b):
    """Game b read back is game a: where it stands, and how it got
    there."""
    assert b.position == a.position and b.first == a.first
    assert (b.plies, b.turns, b.seed) == (a.plies, a.turns, a.seed)
    assert (b.result, b.resigned, b.stopped) == (a.result, a.resigned,
                                                 a.stopped)
    assert (b.setup, b.players) == (a.setup, a.players)
    assert b.history == a.history
    assert b.record() == a.record()
    # a throw made with no move yet is not in the record: read back, the
    # dice give the same one
    if a.throw is not None and b.throw is None:
        assert b.roll() == a.throw
    assert (b.next, b.throw) == (a.next, a.throw)


def test_history_is_what_was_played():
    for rid in kemet.rulesets():
        r = kemet.Rules(rid)
        g, log = play_logged(r, 5, 40, ("random", "greedy"))
        assert g.history == [kemet.Ply(*x) for x in log]
        assert g.plies == len(log)
        assert g.position == apply_all(r, g.first, log)
        assert [p.player for p in g.history] == [x[0] for x in log]


def test_takeback_skips_a_pass_and_the_same_throw_is_pending():
    r = kemet.Rules("senet-kendall")

    def after_a_pass(g, log):
        # the last ply a pass by a player who has made a move before it
        p, _, m = log[-1]
        return not m.steps and any(q == p and x.steps for q, _, x in log)

    for seed in range(1, 40):
        g, log = play_logged(r, seed, 200, until=after_a_pass)
        if log and after_a_pass(g, log) and not g.over:
            break
    else:
        pytest.fail("no game with a pass after a move in 40 seeds")
    p = log[-1][0]
    want = max(i for i, (q, _, m) in enumerate(log) if q == p and m.steps)
    assert want < len(log) - 1  # the pass comes after it, and is skipped
    assert g.last_move(p) == want
    assert g.takeback(p) == want
    assert g.plies == want
    assert g.history == [kemet.Ply(*x) for x in log[:want]]
    assert g.position == apply_all(r, g.first, log[:want])
    assert g.position.to == p
    assert g.next == "move" and g.throw == log[want][1]
    # played the same way again, the dice give the same throws
    for _, t, m in log[want:]:
        if t is not None and g.throw is None:
            assert g.roll() == t
        assert g.throw == t
        g.play(m)
    assert g.history == [kemet.Ply(*x) for x in log]


def test_takeback_of_a_move_instead_of_throwing():
    r = kemet.Rules("senet-kendall")
    start = r.position("senet-kendall to=1 p1=27 p2=29")
    g = r.game(2, position=start)
    assert g.setup and g.first == start
    assert g.last_move(1) is None and g.last_move(2) is None
    g.play("27-15")  # a rescue from the water, before the throw
    play_logged(r, 2, 2, game=g)  # and player 2's ply
    assert g.history[0] == kemet.Ply(1, None, r.move("27-15"))
    assert g.history[1].player == 2
    assert g.last_move(1) == 0
    assert g.takeback(1) == 0
    # back where it was set up, nothing thrown: the player throws (or
    # rescues) again
    assert g.plies == 0 and g.position == start
    assert g.next == "throw" and g.throw is None
    with pytest.raises(kemet.KemetError) as e:
        g.takeback(1)
    assert "no move to take back" in str(e.value)


def test_back_to_each_ply():
    r = kemet.Rules("dogs-jackals")
    g, log = play_logged(r, 8, 30, ("greedy", "random"))
    n = g.plies
    for k in (n, n - 1, 17, 3, 0):
        g.back(k)
        assert g.plies == k
        assert g.position == apply_all(r, g.first, log[:k])
        if k < n:
            assert g.throw == log[k][1]
        for _, t, m in log[k:]:
            if t is not None and g.throw is None:
                assert g.roll() == t
            g.play(m)
        assert g.history == [kemet.Ply(*x) for x in log]


def test_opening_throw_pending_again():
    # Skiryuk's opening throws for the starter: back(0) leaves that throw
    # pending, as a new game of the same seed has it
    r = kemet.Rules("hounds-jackals-skiryuk")
    fresh = r.game(3)
    assert fresh.next == "move" and fresh.throw is not None
    g, log = play_logged(r, 3, 12)
    assert log[0][1] == fresh.throw
    g.back(0)
    assert g.plies == 0 and g.position == fresh.position
    assert g.next == "move" and g.throw == fresh.throw


@pytest.mark.parametrize("who", ["not to move", "to move"])
def test_resign(who):
    r = kemet.Rules("senet-kendall")
    g, log = play_logged(r, 11, 20)
    n, to = g.plies, g.position.to
    p = to if who == "to move" else 3 - to
    g.resign(p)
    assert g.resigned == p
    assert g.result == 3 - p and g.winner == 3 - p
    assert not g.position.over  # the position itself goes on
    assert g.over and g.next == "over"
    for call in (g.roll, lambda: g.play("pass"),
                 lambda: g.step(r.agent("random")),
                 lambda: g.takeback(p), lambda: g.takeback(3 - p),
                 lambda: g.resign(to), g.stop):
        with pytest.raises(kemet.KemetError) as e:
            call()
        assert e.value.code == EOVER and "resigned" in str(e.value)
    assert g.plies == n
    text = g.record()
    assert text == record_of(r, g, log, resigned=p)
    assert text.endswith("resign %d\nresult %d\n" % (p, 3 - p))
    replays(text, n)
    same_game(g, r.read_game(text))
    # going back to a ply forgets the resignation
    g.back(n)
    assert g.resigned is None and g.result == 0 and not g.over
    assert g.record() == record_of(r, g, log)


def test_stop():
    r = kemet.Rules("lions-jackals")
    g, log = play_logged(r, 4, 9, ("greedy", "greedy"))
    g.stop()
    assert g.stopped and g.over and g.result == 0 and g.winner is None
    with pytest.raises(kemet.KemetError):
        g.stop()
    text = g.record()
    assert text == record_of(r, g, log) and text.endswith("result stopped\n")
    replays(text, len(log))
    same_game(g, r.read_game(text))
    g.back(g.plies)
    assert not g.stopped and not g.over


def test_play_stops_at_max_turns():
    # ruling G5: the game stops before a turn beyond the cap begins
    r = kemet.Rules("senet-kendall")
    g = r.play("random", "random", seed=2, max_turns=12)
    assert g.stopped and g.turns == 12 and not g.position.over
    assert g.players == ("random", "random")
    hist = g.history
    assert hist[-1].player != g.position.to  # the next ply a new turn
    assert g.record().endswith("result stopped\n")


def test_record_round_trip_every_ruleset():
    for rid in kemet.rulesets():
        r = kemet.Rules(rid)
        for seed, plies in ((1, 25), (2, 100000)):
            g, log = play_logged(r, seed, plies, ("greedy", "random"))
            g.set_players("greedy", "random")
            text = g.record()
            assert text == record_of(r, g, log), rid
            replays(text, len(log))
            same_game(g, r.read_game(text))
        assert g.over  # the second game went to its end
        assert g.result == g.position.result != 0


def test_record_of_a_set_up_game():
    r = kemet.Rules("lions-jackals")
    start = r.position("lions-jackals to=2 p1=3,7,12,20,24 "
                       "p2=1,5,9,18,22")
    g = r.game(5, position=start)
    g, log = play_logged(r, 5, 6, ("greedy", "greedy"), game=g)
    assert g.setup and g.first == start and g.plies == 6
    assert g.position == apply_all(r, start, log)
    text = g.record()
    assert text == record_of(r, g, log)
    assert "\nsetup %s\n" % start in text
    replays(text, 6)
    b = kemet.Game.read(r, text)
    assert b.setup
    same_game(g, b)


def test_a_game_read_back_goes_on_the_same():
    r = kemet.Rules("senet-robinson")
    g, log = play_logged(r, 6, 20, ("greedy", "greedy"))
    text = g.record()
    more = len(log) + 15
    g, log2 = play_logged(r, 6, more, ("random", "random"), game=g)
    b = r.read_game(text)
    for _, t, m in log2:
        if t is not None and b.throw is None:
            assert b.roll() == t
        b.play(m)
    assert b.history == g.history and b.position == g.position


def test_bad_records():
    r = kemet.Rules("senet-kendall")
    g, log = play_logged(r, 4, 6)
    text = g.record()
    with pytest.raises(kemet.KemetError) as e:
        kemet.Rules("senet-robinson").read_game(text)
    assert "senet-kendall" in str(e.value)
    assert "senet-robinson" in str(e.value)
    # the first ply's throw changed to another the rules allow
    p, t, m = log[0]
    line = "\n%d %s %s\n" % (p, t if t is not None else "none", m)
    assert line in text
    other = next(x for x, _ in r.throws(g.first) if x != t)
    bad = text.replace(line, "\n%d %s %s\n" % (p, other, m), 1)
    with pytest.raises(kemet.KemetError) as e:
        r.read_game(bad)
    assert "line 7" in str(e.value)
    with pytest.raises(kemet.KemetError) as e:
        r.read_game("kemet-record 1\nruleset senet-kendall\n")
    assert "seed" in str(e.value)
    for junk in ("", "not a record\n", text.replace("kemet-record 1", "x")):
        with pytest.raises(kemet.KemetError):
            r.read_game(junk)
    with pytest.raises(TypeError):
        r.read_game(None)


def test_players():
    r = kemet.Rules("chien-chacal")
    g = r.game(1)
    assert g.players == ("human", "human")
    g.set_players("Hatshepsut", "best:2k")
    assert g.players == ("Hatshepsut", "best:2k")
    assert "\nplayer1 Hatshepsut\nplayer2 best:2k\n" in g.record()
    # record(player1, player2) names them as it always did
    assert "\nplayer1 a\nplayer2 best:2k\n" in g.record("a")
    for bad in (("", "x"), ("x" * 64, "y"), ("a\nb", "c"), ("a", "\x7f")):
        with pytest.raises(kemet.KemetError):
            g.set_players(*bad)
    assert g.players == ("a", "best:2k")
    g.set_players("x" * 63, "y")  # 63 bytes is the most
    with pytest.raises(TypeError):
        g.set_players(None, "y")


def test_step_answers_what_it_did():
    r = kemet.Rules("senet-kendall")
    g = r.game(9)
    a = r.agent("greedy", 1)
    assert g.next == "throw"
    t = g.step(a)
    assert isinstance(t, kemet.Throw) and g.throw == t
    m = g.step(a)
    assert isinstance(m, kemet.Move) and g.history[-1].move == m
    assert m in r.moves(g.first, t)
    with pytest.raises(kemet.KemetError):
        g.step(kemet.Rules("senet-robinson").agent("greedy"))
    with pytest.raises(TypeError):  # a spec is no Agent: the wrong type
        g.step("greedy")


def test_step_with_a_function():
    """A function chooses at every decision (kemet_game_step_with): before
    a throw with the pre-throw moves, after it with the legal moves; what
    it answers is what is made."""
    r = kemet.Rules("senet-kendall")
    start = r.position("senet-kendall to=1 p1=27,5 p2=29,3")
    g = r.game(4, position=start)
    asked = []

    def last(position, throw, moves):
        asked.append((position, throw, list(moves)))
        if throw is None:
            # the rescue from the water, the first time; then throws
            return moves[0] if moves and len(asked) == 1 else None
        return moves[-1]

    log = []
    while g.plies < 12 and not g.over:
        mover, pending = g.position.to, g.throw
        got = g.step(last)
        if isinstance(got, kemet.Move):
            log.append((mover, pending, got))
    # the first decision: player 1 before throwing, the rescue offered
    # as the rules give it
    p0, t0, m0 = asked[0]
    assert p0 == start and t0 is None and m0 == r.prethrow(start)
    assert log[0] == (1, None, m0[0])
    # every decision after a throw got the rules' moves, and the last of
    # them was made
    for pos, thr, moves in asked:
        if thr is not None:
            assert moves == r.moves(pos, thr)
    assert g.position == apply_all(r, start, log)
    assert [(p.player, p.throw, p.move) for p in g.history] == log


def test_step_with_a_function_that_fails():
    """A function that raises, or answers what is not one of its moves,
    makes nothing: the exception, or a KemetError, comes out of step()."""
    r = kemet.Rules("senet-kendall")
    g = r.game(3)
    before = (g.position, g.plies, g.throw, g.next)

    def broken(position, throw, moves):
        raise ZeroDivisionError("the chooser broke")

    with pytest.raises(ZeroDivisionError):
        g.step(broken)
    assert (g.position, g.plies, g.throw, g.next) == before
    if g.next == "throw":
        g.roll()
    before = (g.position, g.plies, g.throw, g.next)
    other = r.move("30-off")  # no piece stands on 30 at the start
    assert other not in r.moves(g.position, g.throw)
    for answer in (None, 99, -1, True, "1-2", other, 1.0):
        with pytest.raises(kemet.KemetError) as e:
            g.step(lambda position, throw, moves: answer)
        assert e.value.code == EMISUSE
        assert "not one of the moves given" in str(e.value)
        assert (g.position, g.plies, g.throw, g.next) == before
