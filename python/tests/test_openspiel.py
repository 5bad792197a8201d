"""The OpenSpiel-shaped adapter: every ruleset played to the end at random,
through chance nodes, with zero-sum returns."""
import random

import pytest

import kemet
from kemet.openspiel import CHANCE, TERMINAL, THROW, KemetGame


@pytest.mark.parametrize("rid", kemet.rulesets())
def test_random_games_to_the_end(rid):
    game = KemetGame(rid, max_turns=3000)
    rng = random.Random(rid)
    ended = 0
    for _ in range(3):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                assert s.current_player() == CHANCE
                outcomes = s.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
                assert [a for a, _ in outcomes] == s.legal_actions()
                actions, probs = zip(*outcomes)
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                assert s.current_player() in (0, 1)
                acts = s.legal_actions()
                assert acts and all(0 <= a < game.num_distinct_actions()
                                    for a in acts)
                assert s.legal_actions(1 - s.current_player()) == []
                a = rng.choice(acts)
                assert s.action_to_string(s.current_player(), a)
                s.apply_action(a)
        assert s.current_player() == TERMINAL
        r = s.returns()
        assert sum(r) == 0 and set(r) <= {-1.0, 0.0, 1.0}
        ended += r != [0.0, 0.0]
        assert s.legal_actions() == []
    assert ended >= 1  # random games end within the cap


def test_state_strings_clone_and_errors():
    game = KemetGame("senet-kendall")
    s = game.new_initial_state()
    assert s.is_chance_node()
    assert s.information_state_string(0) == s.information_state_string(1)
    c = s.clone()
    s.apply_action(2)  # the throw 3
    assert "throw 3" in str(s) and "throw" not in str(c)
    assert s.action_to_string(0, 0) == "1-4"
    assert s.string_to_action("9-12") == 4
    with pytest.raises(kemet.KemetError):
        s.apply_action(99)
    with pytest.raises(kemet.KemetError):
        s.chance_outcomes()
    s.apply_action(4)
    assert s.current_player() == CHANCE
    assert s.history() == [2, 4]


def test_prethrow_choice():
    game = KemetGame("senet-kendall")
    s = game.new_initial_state()
    s._pos = game.rules.position("senet-kendall to=1 p1=27 p2=29")
    s._ready()
    assert s.current_player() == 0
    assert s.legal_actions() == [0, THROW]
    t = s.child(THROW)
    assert t.is_chance_node()
    m = s.child(0)
    assert "p1=15" in str(m.position())


# An action or max_turns of the wrong type is a TypeError, one out of
# range a KemetError: never an IndexError, a wrapped negative index, an
# action read from 1.7 or "3", or a game with a negative length.
BAD_ACTIONS = [
    ("s.action_to_string(0, 999)", kemet.KemetError),
    ("s.action_to_string(0, -1)", kemet.KemetError),
    ("s.action_to_string(0, 1.7)", TypeError),
    ("s.apply_action(-1)", kemet.KemetError),
    ("s.apply_action(5)", kemet.KemetError),
    ("s.apply_action(1.7)", TypeError),
    ("s.apply_action('3')", TypeError),
    ("s.apply_action(None)", TypeError),
    ("s.apply_action(True)", TypeError),
    ("m = s.child(2); m.apply_action(THROW)", kemet.KemetError),
    ("m = s.child(2); m.action_to_string(0, 99)", kemet.KemetError),
    ("s.string_to_action(0, 7)", TypeError),
    ("s.string_to_action('9-12')", kemet.KemetError),
    ("KemetGame('senet-kendall', -1)", kemet.KemetError),
    ("KemetGame('senet-kendall', 0)", kemet.KemetError),
    ("KemetGame('senet-kendall', 'x')", TypeError),
    ("KemetGame('senet-kendall', 2.5)", TypeError),
    ("KemetGame('senet-kendall', params={'max_turns': -3})", kemet.KemetError),
]


@pytest.mark.parametrize("code,exc", BAD_ACTIONS,
                         ids=[c for c, _ in BAD_ACTIONS])
def test_bad_actions(code, exc):
    s = KemetGame("senet-kendall").new_initial_state()  # a chance node
    before = str(s), s.history()
    with pytest.raises(exc) as e:
        exec(code, {"s": s, "KemetGame": KemetGame, "THROW": THROW})
    assert str(e.value)
    assert (str(s), s.history()) == before  # nothing was applied


def test_over_and_two_argument_forms():
    game = KemetGame("senet-kendall", max_turns=1)
    s = game.new_initial_state()
    assert game.max_game_length() == 10
    s.apply_action(s.string_to_action(-1, "throw 3"))
    assert s.string_to_action(0, "9-12") == s.string_to_action("9-12") == 4
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(kemet.KemetError, match="over"):
        s.apply_action(0)
    with pytest.raises(kemet.KemetError, match="over"):
        s.action_to_string(0, 0)


def test_turn_cap_ends_drawn():
    game = KemetGame("senet-kendall", max_turns=5)
    s = game.new_initial_state()
    rng = random.Random(1)
    while not s.is_terminal():
        if s.is_chance_node():
            a, p = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(a, p)[0])
        else:
            s.apply_action(s.legal_actions()[0])
    assert s.returns() == [0.0, 0.0] and "stopped" in str(s)


def test_register_needs_openspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        from kemet.openspiel import register
        with pytest.raises(ImportError, match="pyspiel is not installed"):
            register()
        return
    from kemet.openspiel import register
    names = register()
    import pyspiel
    g = pyspiel.load_game(names[0])
    assert g.new_initial_state().is_chance_node()
