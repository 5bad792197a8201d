"""kemet: the race games of ancient Egypt (Senet, the 58-holes games, Lions
& Jackals) from Python, over the kemet C library.

    import kemet
    rules = kemet.Rules("senet-kendall")
    pos = rules.start()
    for throw, p in rules.throws(pos):     # exact probabilities (Fractions)
        print(throw, p, rules.moves(pos, throw))

Positions, throws and moves read and write the notation of
docs/notation.md. Every error of the library is raised as KemetError
(a ValueError) carrying the library's one-line message.
"""
import collections
import os
import ctypes
import operator
from fractions import Fraction

from . import _capi

__all__ = ["KemetError", "IllegalMove", "Rules", "Position", "Throw", "Move",
           "Agent", "Game", "Ply", "rulesets", "parse_position", "version",
           "level_agent"]

_lib = _capi.load()
_free = _lib.kemet_free  # the library's own free, for what it mallocs


class KemetError(ValueError):
    """An error of the kemet library: `code` is its status (negative), the
    message the library's one line."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class IllegalMove(KemetError):
    """A move the rules do not allow here; the message says why."""


def _text(s, what):
    """A str argument as the UTF-8 bytes the library reads."""
    if isinstance(s, bytes):
        b = s
    elif isinstance(s, str):
        try:
            b = s.encode("utf-8")
        except UnicodeEncodeError:
            raise KemetError(_capi.ESYNTAX, "%s: not valid text" % what)
    else:
        raise TypeError("%s must be a str, not %s" % (what, type(s).__name__))
    if b"\0" in b:
        raise KemetError(_capi.ESYNTAX, "%s: contains a NUL character" % what)
    return b


def _misuse(msg):
    """A call the library would refuse (or assert against): refused here,
    before it reaches the library, as KemetError."""
    raise KemetError(_capi.EMISUSE, msg)


SEED_MAX = 2**64 - 1  # seeds are the library's uint64_t


def _index(x, what):
    """An integer argument (an int, or a type that is one, like numpy's),
    else TypeError; a bool is no number here."""
    try:
        if isinstance(x, bool):
            raise TypeError
        return operator.index(x)
    except TypeError:
        raise TypeError("%s must be a whole number, not %r" % (what, x)) \
            from None


def _whole(x, what, low=None, high=None):
    """An integer argument from `low` to `high` where given: TypeError for
    another type, KemetError out of range."""
    x = _index(x, what)
    if (low is not None and x < low) or (high is not None and x > high):
        if low is not None and high is not None:
            span = "from %d to %d" % (low, high)
        elif low is not None:
            span = "at least %d" % low
        else:
            span = "at most %d" % high
        _misuse("%s must be %s, not %d" % (what, span, x))
    return x


def _seed(x, what):
    """A seed: a whole number from 0 to 2**64 - 1, never wrapped (seed -1
    or 2**64 would play another seed's game)."""
    x = _index(x, what)
    if not 0 <= x <= SEED_MAX:
        _misuse("%s must be from 0 to 2**64 - 1, not %d" % (what, x))
    return x


def _fail(code, err=None, what=None):
    msg = err.msg.decode("utf-8", "replace") if err is not None else ""
    if not msg:
        msg = _lib.kemet_strerror(code).decode()
    if what:
        msg = "%s: %s" % (what, msg)
    cls = IllegalMove if code == _capi.EILLEGAL else KemetError
    raise cls(code, msg)


def version():
    """The library's version ("0.1.0")."""
    return _lib.kemet_version().decode()


def rulesets():
    """The ids of every ruleset ("senet-kendall", ...)."""
    return [_lib.kemet_ruleset_id(i).decode()
            for i in range(_lib.kemet_ruleset_count())]


def level_agent(level):
    """The agent spec the computer plays as at level 1-5 in a ruleset
    that names no levels of its own (Rules.levels gives a ruleset's)."""
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError("level must be a whole number (1-5), not %r"
                        % (level,))
    s = _lib.kemet_level_agent(level)
    if s is None:
        raise KemetError(_capi.EMISUSE, "no level %r (1-5)" % (level,))
    return s.decode()


class Throw:
    """One outcome of the sticks (or dice): one value, or several."""
    __slots__ = ("_c",)

    def __init__(self, c):
        self._c = c

    @property
    def values(self):
        return tuple(self._c.v[i] for i in range(self._c.n))

    def __str__(self):
        buf = ctypes.create_string_buffer(64)
        _lib.kemet_throw_format(ctypes.byref(self._c), buf, len(buf))
        return buf.value.decode()

    def __repr__(self):
        return "Throw(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Throw) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class Move:
    """A move: its steps (from, to) in the order played; no steps is a
    pass. Squares are the mover's own; 0 is the hand, 255 off the board."""
    __slots__ = ("_c",)

    def __init__(self, c):
        self._c = c

    @property
    def steps(self):
        return tuple((self._c.step[i].from_, self._c.step[i].to)
                     for i in range(self._c.n))

    def __str__(self):
        buf = ctypes.create_string_buffer(160)
        _lib.kemet_move_format(ctypes.byref(self._c), buf, len(buf))
        return buf.value.decode()

    def __repr__(self):
        return "Move(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Move) and self.steps == other.steps

    def __hash__(self):
        return hash(self.steps)


class Position:
    """A position of a ruleset: immutable; str() is its notation."""
    __slots__ = ("rules", "_c")

    def __init__(self, rules, c):
        self.rules = rules
        self._c = c

    @property
    def to(self):
        """The player (1 or 2) about to throw or choose."""
        return self._c.to

    @property
    def result(self):
        """0 playing, 1 or 2 won by that player, 3 drawn."""
        return self._c.result

    @property
    def wait(self):
        """The players still waiting for their first 1 (Kendall's
        start=1 option), e.g. (1, 2); () when none is."""
        return tuple(p for p in (1, 2) if self._c.wait >> (p - 1) & 1)

    @property
    def off(self):
        """Each player's pieces borne off, where the ruleset keeps them as
        a score (Bell's o1=/o2=), e.g. (3, 2); (0, 0) elsewhere."""
        return (self._c.off[0], self._c.off[1])

    @property
    def locked(self):
        """Each player's locked pieces by square (Tab's l1=/l2=: on 1-5,
        not yet moved), e.g. ((1, 2, 5), ()); ((), ()) elsewhere."""
        return tuple(tuple(s for s in range(1, 6) if self._c.lock[p] >> (s - 1) & 1)
                     for p in (0, 1))

    @property
    def left(self):
        """The values of this turn's throws still to play, ascending
        (Tab's left=), e.g. (2, 4, 4); () when none wait. While any do,
        the player moves with no new throw (the throw `none`)."""
        all_ = self._c.left[0] | self._c.left[1] << 8 | self._c.left[2] << 16
        return tuple(v for v in range(1, 7) for _ in range(all_ >> (4 * (v - 1)) & 15))

    @property
    def again(self):
        """True when this turn has earned the player another (Tab's
        marks=throw, again=1)."""
        return bool(self._c.again)

    @property
    def over(self):
        return self._c.result != _capi.PLAYING

    @property
    def winner(self):
        """1 or 2, or None (playing or drawn)."""
        return self._c.result if self._c.result in (1, 2) else None

    def __str__(self):
        buf = ctypes.create_string_buffer(512)
        rc = _lib.kemet_pos_format(self.rules._r, ctypes.byref(self._c), buf,
                                   len(buf))
        if rc < 0:
            _fail(rc)
        return buf.value.decode()

    def __repr__(self):
        return "Position(%r)" % str(self)

    def __eq__(self, other):
        return (isinstance(other, Position) and
                bytes(self._c) == bytes(other._c) and
                self.rules.spec == other.rules.spec)

    def __hash__(self):
        return hash(bytes(self._c))


class RuleChange:
    """One rule of a reading changed (Rules.changes()): `option` (True for
    an option at another value), `part` (its name), `before` and `after`
    (the option as "key=value", or the part's statement; "" where the
    change adds or removes the part), `id` (the changed reading's)."""

    def __init__(self, base, c):
        self._base = base
        self._c = _capi.Change.from_buffer_copy(c)
        self.option = bool(c.option)
        self.part = c.part.decode()
        self.before = c.from_.decode()
        self.after = c.to.decode()
        self.id = c.id.decode()

    def __repr__(self):
        return "RuleChange(%r -> %r)" % (self.before, self.after)

    @property
    def text(self):
        """The ruleset file of the changed reading, to save and edit."""
        out = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_change_text(self._base._r, ctypes.byref(self._c),
                                    ctypes.byref(out), ctypes.byref(err))
        if rc:
            _fail(rc, err)
        try:
            return ctypes.string_at(out.value).decode("utf-8")
        finally:
            _lib.kemet_free(out)

    def open(self):
        """The changed reading as Rules, judged by the evaluation of the
        reading it was changed from."""
        return Rules(None, _change=(self._base, self._c))


class Rules:
    """A ruleset, opened from its id ("senet-kendall") or a spec with
    options ("lions-jackals:mode=quick"; see `kemet rules`)."""

    def __init__(self, spec="senet-kendall", _file_text=None, _path=None,
                 _change=None):
        self._handle = None
        self._j = None  # the judge, made on first need
        self._file_text = _file_text
        r = ctypes.c_void_p()
        err = _capi.Error()
        opt = None if spec is None else _text(spec, "ruleset")
        if _change is not None:
            base, c = _change
            rc = _lib.kemet_rules_open_change(base._r, ctypes.byref(c),
                                              ctypes.byref(r),
                                              ctypes.byref(err))
        elif _path is not None:
            rc = _lib.kemet_rules_open_file(_path, opt, None, ctypes.byref(r),
                                            ctypes.byref(err))
        elif _file_text is None:
            rc = _lib.kemet_rules_open(_text(spec, "ruleset"), ctypes.byref(r),
                                       ctypes.byref(err))
        else:
            rc = _lib.kemet_rules_open_text(_file_text, opt, None,
                                            ctypes.byref(r), ctypes.byref(err))
        if rc:
            _fail(rc, err)
        self._handle = r
        self._moves = (_capi.Move * _capi.MAX_MOVES)()
        info = _lib.kemet_rules_info(r).contents
        self.id = info.id.decode()
        self.title = info.title.decode()
        self.source = info.source.decode()
        self.author = info.author.decode()
        self.year = info.year or None
        self.about = info.about.decode()
        self.text = info.text.decode()
        self.players = (info.player[0].decode(), info.player[1].decode())
        g = ctypes.string_at(ctypes.addressof(info) + _capi.Info.glyph.offset,
                             2).decode()
        self.glyphs = (g[0], g[1])
        self.pieces = info.pieces
        self.squares = info.squares
        # the computer's play levels 1-5: the agent each plays as here
        self.levels = tuple(_lib.kemet_rules_level_agent(r, lv).decode()
                            for lv in range(1, 6))

    @classmethod
    def from_text(cls, text, spec=None):
        """The ruleset of a ruleset file's text (docs/rulesets.md): a
        reading of a board as data over kemet's parts. `spec` None means
        every option at its default, else "id:key=value,..." with the
        file's id."""
        return cls(spec, _file_text=_text(text, "ruleset file"))

    @classmethod
    def from_file(cls, path, spec=None):
        """The ruleset of the ruleset file at `path` (UTF-8 text), read by
        the library: a file that is not a regular one (a FIFO, a folder)
        or larger than 256 KiB is refused, never waited for."""
        return cls(spec, _path=_text(os.fspath(path), "path"))

    def changes(self):
        """The readings that differ from this one (at its default options)
        by one rule, by the rule docs/rulesets.md states ("One rule
        changed"): a list of RuleChange, at most 30."""
        out = (_capi.Change * _capi.MAX_CHANGES)()
        err = _capi.Error()
        n = _lib.kemet_rule_changes(self._r, out, _capi.MAX_CHANGES, None,
                                    ctypes.byref(err))
        if n < 0:
            _fail(n, err)
        return [RuleChange(self, out[i]) for i in range(n)]

    @property
    def sha256(self):
        """The SHA-256 of the ruleset file's text (hex), or None for a
        built-in ruleset."""
        h = _lib.kemet_rules_sha256(self._r)
        return h.decode() if h else None

    @classmethod
    def _adopt(cls, r):
        """Rules for a handle the library opened (then closed here)."""
        spec = _lib.kemet_rules_spec(r).decode()
        _lib.kemet_rules_close(r)
        return cls(spec)

    @property
    def _r(self):
        """The library's handle; KemetError once closed."""
        if not self._handle:
            _misuse("these Rules are closed")
        return self._handle

    @property
    def spec(self):
        return _lib.kemet_rules_spec(self._r).decode()

    def close(self):
        """Frees the library's rules; agents and games of them stop working
        (KemetError)."""
        if getattr(self, "_j", None):
            _lib.kemet_judge_free(self._j)
            self._j = None
        if getattr(self, "_handle", None):
            _lib.kemet_rules_close(self._handle)
            self._handle = None

    def _judge(self):
        """The ruleset's judge (its own evaluation), made on first need."""
        if not self._j:
            j = ctypes.c_void_p()
            err = _capi.Error()
            rc = _lib.kemet_judge_new(self._r, None, ctypes.byref(j),
                                      ctypes.byref(err))
            if rc:
                _fail(rc, err)
            self._j = j
        return self._j

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "Rules(%r)" % self.spec if self._handle else "Rules(closed)"

    # positions, throws, moves --------------------------------------------
    def start(self):
        """The starting position (the player the rules fix to move, else
        1; a game's opening decides who starts: see game())."""
        p = _capi.Pos()
        _lib.kemet_start(self._r, ctypes.byref(p))
        return Position(self, p)

    def position(self, text):
        """A position of this ruleset from its notation."""
        p = _capi.Pos()
        err = _capi.Error()
        rc = _lib.kemet_pos_read(self._r, _text(text, "position"),
                                 ctypes.byref(p), ctypes.byref(err))
        if rc:
            _fail(rc, err)
        return Position(self, p)

    def throw(self, text):
        """A throw from its notation ("3", "2,2,3", "1,1,5,1@1")."""
        t = _capi.Throw()
        err = _capi.Error()
        rc = _lib.kemet_throw_parse(self._r, _text(text, "throw"),
                                    ctypes.byref(t), ctypes.byref(err))
        if rc:
            _fail(rc, err)
        return Throw(t)

    def move(self, text):
        """A move from its notation ("9-12", "in-1", "3-5+12-16")."""
        m = _capi.Move()
        err = _capi.Error()
        rc = _lib.kemet_move_parse(self._r, _text(text, "move"),
                                   ctypes.byref(m), ctypes.byref(err))
        if rc:
            _fail(rc, err)
        return Move(m)

    def _pos(self, pos):
        if not isinstance(pos, Position):
            return self.position(pos)
        if pos.rules.spec != self.spec:
            raise KemetError(_capi.ERULESET, "a position of %s, not of %s"
                             % (pos.rules.spec, self.spec))
        return pos

    def _throw(self, throw, what=None):
        """A Throw from a Throw or its notation; None stays None (before
        the throw) unless `what` names a call that needs a throw."""
        if throw is None:
            if what:
                _misuse("%s needs a throw (None is before the throw; "
                        "prethrow() lists the moves then)" % what)
            return None
        return throw if isinstance(throw, Throw) else self.throw(throw)

    def _move(self, move):
        return move if isinstance(move, Move) else self.move(move)

    def throws(self, pos):
        """Every distinct outcome of a throw in `pos`, with its exact
        probability: a list of (Throw, Fraction)."""
        pos = self._pos(pos)
        out = (_capi.Throw * _capi.MAX_THROWS)()
        w = (ctypes.c_uint64 * _capi.MAX_THROWS)()
        total = ctypes.c_uint64()
        n = _lib.kemet_throws(self._r, ctypes.byref(pos._c), out, w,
                              ctypes.byref(total))
        if n < 0:
            _fail(n)
        return [(Throw(_capi.Throw.from_buffer_copy(out[i])),
                 Fraction(w[i], total.value)) for i in range(n)]

    def _list(self, n):
        if n < 0:
            _fail(n)
        return [Move(_capi.Move.from_buffer_copy(self._moves[i]))
                for i in range(n)]

    def prethrow(self, pos):
        """The moves that may be made instead of throwing (Senet's rescue
        from the water); throwing is always possible besides."""
        pos = self._pos(pos)
        return self._list(_lib.kemet_prethrow(self._r, ctypes.byref(pos._c),
                                              self._moves))

    def moves(self, pos, throw):
        """Every distinct legal move for `throw` in `pos` (a lone pass,
        Move with no steps, when the throw cannot be used)."""
        pos = self._pos(pos)
        t = self._throw(throw, "moves()")
        return self._list(_lib.kemet_moves(self._r, ctypes.byref(pos._c),
                                           ctypes.byref(t._c), self._moves))

    def explain(self, pos, throw, move):
        """Why `move` is not legal (one sentence), or None when it is."""
        pos, t, m = self._pos(pos), self._throw(throw), self._move(move)
        buf = ctypes.create_string_buffer(512)
        if _lib.kemet_explain(self._r, ctypes.byref(pos._c),
                              ctypes.byref(t._c) if t else None,
                              ctypes.byref(m._c), buf, len(buf)):
            return buf.value.decode("utf-8", "replace")
        return None

    def _apply(self, pos, throw, move):
        pos, t, m = self._pos(pos), self._throw(throw), self._move(move)
        out = _capi.Pos()
        ev = _capi.Events()
        rc = _lib.kemet_apply(self._r, ctypes.byref(pos._c),
                              ctypes.byref(t._c) if t else None,
                              ctypes.byref(m._c), ctypes.byref(out),
                              ctypes.byref(ev))
        if rc == _capi.EILLEGAL:
            why = self.explain(pos, t, m) or "not a legal move"
            raise IllegalMove(rc, "%s is not allowed: %s" % (m, why))
        if rc:
            _fail(rc)
        return Position(self, out), ev

    def apply(self, pos, throw, move):
        """The position after `move` for `throw` (None: a move instead of
        throwing) in `pos`, with all its consequences. IllegalMove says why
        a move is not allowed."""
        return self._apply(pos, throw, move)[0]

    def describe(self, pos, throw, move):
        """What `move` does, in sentences ("White moves 5-8.")."""
        _, ev = self._apply(pos, throw, move)
        buf = ctypes.create_string_buffer(_capi.DESCRIBE_MAX)
        n = _lib.kemet_describe(self._r, ctypes.byref(ev), buf, len(buf))
        if n < 0:
            _fail(n)
        return " ".join(line.strip() for line in
                        buf.value.decode().splitlines() if line.strip())

    def win_chance(self, pos, player=None):
        """The evaluation's chance (0-1) that `player` (default: the one to
        move) wins from `pos`."""
        pos = self._pos(pos)
        if player is None:
            player = pos.to
        elif _index(player, "win_chance: player") not in (1, 2):
            _misuse("win_chance: player must be 1 or 2 (or None: the player "
                    "to move), not %r" % (player,))
        return _lib.kemet_win_chance(self._judge(), ctypes.byref(pos._c),
                                     player)

    # agents and games -----------------------------------------------------
    def agent(self, spec="best", seed=1):
        """A computer player: random, greedy, expectimax[:BUDGET],
        mcts[:BUDGET], best[:BUDGET] (docs/agents.md)."""
        return Agent(self, spec, seed)

    def game(self, seed=1, position=None):
        """A game whose throws come from `seed` (through the opening that
        decides who starts), or set up in `position` with no opening."""
        return Game(self, seed, position)

    def read_game(self, text):
        """A game of this ruleset back from its record: Game.read(self,
        text)."""
        return Game.read(self, text)

    def play(self, p1="random", p2="random", seed=1, max_turns=10000):
        """A whole game between two agents (specs or Agents), its throws
        from `seed`, each action by the library's kemet_game_step: the
        finished Game, its players named by the agents' specs (its
        record() replays with `kemet replay`). A game that reaches
        `max_turns` turns is stopped before the next turn begins (ruling
        G5)."""
        return self._play(p1, p2, seed, max_turns)

    def _play(self, p1, p2, seed, max_turns, choices=None):
        """play(); `choices`, a list, receives the number of legal moves
        at each throw (0 for a lone pass)."""
        seed = _seed(seed, "play: seed")
        max_turns = _whole(max_turns, "play: max_turns", 1)
        for x in (p1, p2):
            if isinstance(x, Agent) and x.rules.spec != self.spec:
                _misuse("play: an agent of %s, not of %s" % (x.rules.spec,
                                                            self.spec))
        # the agents' seeds are derived from the game's, modulo 2**64
        a = [x if isinstance(x, Agent)
             else self.agent(x, (seed * 2 + i) & SEED_MAX)
             for i, x in enumerate((p1, p2))]
        g = self.game(seed)
        g.set_players(a[0].spec, a[1].spec)
        mover = 0
        while not g.over:
            pos = g.position
            if g.turns >= max_turns and pos.to != mover:
                g.stop()
                break
            mover = pos.to
            t = g.throw
            if choices is not None and t is not None:
                legal = self.moves(pos, t)
                choices.append(0 if len(legal) == 1 and not legal[0].steps
                               else len(legal))
            g.step(a[mover - 1])
        return g

    def analyze(self, p1="random", p2="random", games=100, seed=1,
                max_turns=10000):
        """Plays `games` games (game i seeded seed + i, modulo 2**64) and
        returns the analysis of docs/analysis.md as a dict: games, wins, the
        Ludii
        figures (completion, balance, duration_turns, ...) each as
        (value, lo, hi)."""
        games = _whole(games, "analyze: games", 1, 10**7)
        seed = _seed(seed, "analyze: seed")
        max_turns = _whole(max_turns, "analyze: max_turns", 1)
        traces = (_capi.Trace * games)()
        for i in range(games):
            choices = []
            g = self._play(p1, p2, (seed + i) & SEED_MAX, max_turns,
                           choices)
            t = traces[i]
            t.result = g.position.result
            t.turns = g.turns
            t.moves = g.plies
            for n in choices:
                t.branching += max(n, 1)
                if n == 0:
                    t.passes += 1
                elif n == 1:
                    t.forced += 1
                else:
                    t.decisions += 1
                    t.choices += n
        out = _capi.Analysis()
        rc = _lib.kemet_analyze_traces(traces, games, ctypes.byref(out))
        if rc:
            _fail(rc)
        res = {"games": out.games, "ended": out.ended, "stopped": out.stopped,
               "draws": out.draws, "wins": (out.wins[0], out.wins[1])}
        for name in _capi.ANALYSIS_STATS + _capi.ANALYSIS_MORE:
            s = getattr(out, name)
            res[name] = (s.value, s.lo, s.hi)
        res["median_turns"] = out.median_turns
        return res


    def study(self, strong="best:1k", weak=("greedy", "greedy"),
              ladder=("random", "greedy", "expectimax:250", "best:1k"),
              games=1000, trace_games=30, trace_base=8, max_turns=1000,
              precision=0.05, pilot=20, most=200, seed=1, variant=False,
              threads=1):
        """This reading measured as a game, as `kemet analyze` measures
        each (docs/analysis.md, "How it is measured"; the library's
        kemet_study_*): the strong agent's self-play with each throw's
        luck taken out, the weak agents' self-play (`games` games), the
        skill ladder (each agent of `ladder`, weakest first, against the
        one below it), the strong agent against weak[0], the simple
        strategies against the strong agent, and Ludii's SkillTrace
        (`trace_games` a match, expectimax from `trace_base` positions);
        each headline figure sampled until its 95% interval is within
        +-`precision` (a pilot of `pilot` games, at most `most`). A
        variant goes without the ladder and SkillTrace. Played on
        `threads` threads; the figures do not depend on them. Returns a
        dict (see docs/python.md); a figure with its interval is a tuple
        (value, lo, hi)."""
        spec = [_text(strong, "study: strong")]
        if isinstance(weak, (str, bytes)) or len(weak) != 2:
            _misuse("study: weak must be two agents")
        spec += [_text(w, "study: weak") for w in weak]
        if isinstance(ladder, (str, bytes)) or not \
                2 <= len(ladder) <= _capi.STUDY_RUNGS:
            _misuse("study: the ladder takes 2 to %d agents"
                    % _capi.STUDY_RUNGS)
        rungs = [_text(a, "study: ladder") for a in ladder]
        st = _capi.StudySettings()
        _lib.kemet_study_defaults(ctypes.byref(st))
        st.strong = spec[0]
        st.weak[0], st.weak[1] = spec[1], spec[2]
        for k, a in enumerate(rungs):
            st.ladder[k] = a
        st.rungs = len(rungs)
        st.games = _whole(games, "study: games", 2, 10**7)
        st.trace_games = _whole(trace_games, "study: trace_games", 0, 10**6)
        st.trace_base = _whole(trace_base, "study: trace_base", 1,
                               10**6 >> _capi.STUDY_TRACE)
        st.cap = _whole(max_turns, "study: max_turns", 1, 10**6)
        if isinstance(precision, bool) or \
                not isinstance(precision, (int, float)):
            raise TypeError("study: precision must be a number, not %r"
                            % (precision,))
        if not 0 < precision <= 0.5:
            _misuse("study: precision must be above 0 and at most 0.5, "
                    "not %r" % (precision,))
        st.precision = precision
        st.pilot = _whole(pilot, "study: pilot", 2, 10**7)
        st.most = _whole(most, "study: most", 2, 10**7)
        st.seed = _seed(seed, "study: seed")
        if not isinstance(variant, bool):
            raise TypeError("study: variant must be True or False, not %r"
                            % (variant,))
        st.variant = int(variant)
        cells = _lib.kemet_rules_info(self._r).contents.board_cells
        return self._study_run(st, _whole(threads, "study: threads", 1, 256),
                               lambda f: _study_dict(f, cells))

    def headroom(self, stronger, strong="best:1k", max_turns=1000,
                 precision=0.05, pilot=20, most=200, seed=1, threads=1):
        """How far agent `strong` is from strong play, as `kemet analyze
        --headroom` measures it: `stronger` against `strong` in pairs of
        games that throw alike with the seats swapped, the luck taken
        out, sampled to +-`precision` (a study of its head-to-head part
        alone). Returns the match's dict (as study()'s "head") with
        "saturated": True where the stronger agent's luck-adjusted score
        lies within 0.49-0.51."""
        st = _capi.StudySettings()
        _lib.kemet_study_defaults(ctypes.byref(st))
        st.strong = _text(stronger, "headroom: stronger")
        st.weak[0] = st.weak[1] = _text(strong, "headroom: strong")
        st.cap = _whole(max_turns, "headroom: max_turns", 1, 10**6)
        if isinstance(precision, bool) or \
                not isinstance(precision, (int, float)):
            raise TypeError("headroom: precision must be a number, not %r"
                            % (precision,))
        if not 0 < precision <= 0.5:
            _misuse("headroom: precision must be above 0 and at most 0.5, "
                    "not %r" % (precision,))
        st.precision = precision
        st.pilot = _whole(pilot, "headroom: pilot", 2, 10**7)
        st.most = _whole(most, "headroom: most", 2, 10**7)
        st.seed = _seed(seed, "headroom: seed")
        st.variant = 1
        st.parts = 1 << _capi.PART_HEAD
        head = self._study_run(
            st, _whole(threads, "headroom: threads", 1, 256),
            lambda f: _match_dict(f.head))
        lo, hi = head["adjusted"][1], head["adjusted"][2]
        head["saturated"] = lo >= 0.49 and hi <= 0.51
        return head

    def _study_run(self, st, threads, convert):
        """The study of settings `st` run; its figures given to `convert`
        while the study (which owns their samples) still stands."""
        j = self._judge()
        s = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_study_new(j, ctypes.byref(st), ctypes.byref(s),
                                  ctypes.byref(err))
        if rc:
            _fail(rc, err)
        try:
            rc = _lib.kemet_study_run(s, threads)
            if rc:
                _fail(rc, what="study")
            f = _capi.StudyFigures()
            rc = _lib.kemet_study_result(s, ctypes.byref(f))
            if rc:
                _fail(rc, what="study")
            return convert(f)
        finally:
            _lib.kemet_study_free(s)


def _stat(s):
    return (s.value, s.lo, s.hi)


def _analysis_dict(a):
    res = {"games": a.games, "ended": a.ended, "stopped": a.stopped,
           "draws": a.draws, "wins": (a.wins[0], a.wins[1])}
    for name in _capi.ANALYSIS_STATS + _capi.ANALYSIS_MORE:
        res[name] = _stat(getattr(a, name))
    for name in ("median_turns", "sd_turns", "median_moves", "sd_moves"):
        res[name] = getattr(a, name)
    return res


def _selfplay_dict(S, cells):
    cells = min(cells, _capi.STUDY_CELLS - 1)
    return {
        "agents": (S.agent[0].value.decode(), S.agent[1].value.decode()),
        "games": S.games,
        "analysis": _analysis_dict(S.analysis),
        "lengths": (S.bin, list(S.hist)),
        "p1_adjusted": _stat(S.p1_adjusted) if S.luck else None,
        "median_turns": _stat(S.median),
        "decisions_per_turn": _stat(S.per_turn),
        "stopped": _stat(S.stopped),
        "decisions": S.decisions,
        "landings": [S.land[c] for c in range(1, cells + 1)],
        "coverage": S.coverage,
        "table_decisions": S.table_decisions,
        "linear_errors": S.linear_errors,
        "linear_loss": S.linear_loss,
        "samples": [(S.sample_result[k],
                     [S.sample[k][i] for i in range(S.sample_n[k])])
                    for k in range(S.nsample)],
    }


def _match_dict(M):
    m = M.stats
    a = m.adj
    return {
        "upper": M.upper.decode(), "lower": M.lower.decode(),
        "games": M.games, "wins": (m.wins[0], m.wins[1]), "draws": m.draws,
        "stopped": m.stopped,
        "score": (m.score, m.score_lo, m.score_hi),
        "adjusted": (a.score, a.lo, a.hi),
        "elo_adjusted": (a.elo, a.elo_lo, a.elo_hi),
        "luck_share": _stat(M.luck_share), "sd": M.sd,
        "contradiction": bool(M.contradiction),
    }


def _criteria():
    names = []
    for c in range(_capi.CRITERIA):
        k = _lib.kemet_criterion_info(c)
        names.append(k.contents.name.decode())
    return names


def _study_dict(f, cells):
    names = _criteria()
    verdict = {}
    for w, key in ((0, "strong"), (1, "weak")):
        m = _capi.Measured()
        rc = _lib.kemet_study_measured(ctypes.byref(f), w, ctypes.byref(m))
        if rc:
            _fail(rc, what="study")
        verdict[key] = {names[c]: _stat(m.c[c]) for c in range(len(names))}
    probes = ("rearmost", "foremost", "safe-random")
    return {
        "ruleset": f.id.decode(),
        "variant": bool(f.variant),
        "table_pieces": f.table_pieces,
        "weak": _selfplay_dict(f.weak, cells),
        "strong": _selfplay_dict(f.strong, cells),
        "ladder": [_match_dict(f.ladder[k]) for k in range(f.nsteps)],
        "head": _match_dict(f.head),
        "probes": {probes[k]: _match_dict(f.probe[k])
                   for k in range(_capi.STUDY_PROBES)},
        "skill_trace": None if f.variant else f.skill_trace,
        "skill_trace_adjusted": None if f.variant else f.skill_trace_adj,
        "trace": [] if f.variant else
        [(f.trace_y[k], _stat(f.trace_adj[k]))
         for k in range(_capi.STUDY_TRACE)],
        "games_to_lead": f.games_to_lead,
        "verdict_figures": verdict,
    }


def parse_position(text):
    """A position from its notation; its ruleset is opened for it
    (position.rules)."""
    r = ctypes.c_void_p()
    p = _capi.Pos()
    err = _capi.Error()
    rc = _lib.kemet_pos_parse(_text(text, "position"), ctypes.byref(r),
                              ctypes.byref(p), ctypes.byref(err))
    if rc:
        if r:
            _lib.kemet_rules_close(r)
        _fail(rc, err)
    if not r:
        raise KemetError(_capi.ESYNTAX, "the position names no ruleset")
    return Position(Rules._adopt(r), p)


class Agent:
    """A computer player of one ruleset (Rules.agent)."""

    def __init__(self, rules, spec="best", seed=1):
        if not isinstance(rules, Rules):
            raise TypeError("Agent: rules must be a Rules, not %r" % (rules,))
        seed = _seed(seed, "agent: seed")
        self.rules = rules
        self._handle = None
        a = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_agent_new(rules._r, _text(spec, "agent"),
                                  seed, ctypes.byref(a),
                                  ctypes.byref(err))
        if rc:
            _fail(rc, err)
        self._handle = a

    @property
    def _a(self):
        """The library's handle; KemetError once it or its rules closed."""
        if not self._handle:
            _misuse("this Agent is closed")
        self.rules._r  # its rules open
        return self._handle

    @property
    def spec(self):
        return _lib.kemet_agent_spec(self._a).decode()

    def close(self):
        if getattr(self, "_handle", None):
            _lib.kemet_agent_free(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __repr__(self):
        return "Agent(%r)" % self.spec if self._handle else "Agent(closed)"

    def _args(self, pos, throw, moves):
        r = self.rules
        pos, t = r._pos(pos), r._throw(throw)
        if pos.over:
            _misuse("the game is over in that position")
        legal = r.moves(pos, t) if t else r.prethrow(pos)
        if moves is None:
            moves = legal
        else:
            if isinstance(moves, (str, bytes, Move)):
                raise TypeError("moves must be a list of moves, not %r" % (moves,))
            moves = [r._move(m) for m in moves]
            known = set(legal)
            for m in moves:
                if m not in known:
                    r.apply(pos, t, m)  # IllegalMove says why
                    if t is None:  # a move instead of throwing only
                        _misuse("%s is not a move before the throw" % m)
        arr = (_capi.Move * max(len(moves), 1))(*[m._c for m in moves])
        return pos, t, moves, arr

    def choose(self, pos, throw=None, moves=None):
        """The agent's move for `throw` in `pos` (among `moves`, default
        all legal); with throw None, a pre-throw move or None to throw."""
        pos, t, moves, arr = self._args(pos, throw, moves)
        if not moves:
            if t is None:
                return None
            raise KemetError(_capi.EMISUSE, "no moves to choose from")
        k = _lib.kemet_agent_choose(self._a, ctypes.byref(pos._c),
                                    ctypes.byref(t._c) if t else None, arr,
                                    len(moves))
        return None if k < 0 else moves[k]

    def rank(self, pos, throw=None, moves=None):
        """Every choice with the agent's chance that the player to move
        wins after it, best first: a list of (Move, chance); before the
        throw, (None, chance) stands for throwing."""
        pos, t, moves, arr = self._args(pos, throw, moves)
        n = len(moves)
        if not n and t is not None:
            raise KemetError(_capi.EMISUSE, "no moves to rank")
        ch = (ctypes.c_double * max(n, 1))()
        tc = ctypes.c_double()
        rc = _lib.kemet_agent_rank(self._a, ctypes.byref(pos._c),
                                   ctypes.byref(t._c) if t else None, arr, n,
                                   ch, ctypes.byref(tc))
        if rc < -1:
            _fail(rc)
        out = [(moves[i], ch[i]) for i in range(n)]
        if t is None:
            out.append((None, tc.value))
        out.sort(key=lambda x: -x[1])
        return out


Ply = collections.namedtuple("Ply", "player throw move")
Ply.__doc__ = """One ply of a game's history: the player (1 or 2) who made
it, the throw it used (a Throw; None for a move made instead of
throwing) and the move (a Move; no steps is a pass)."""

# Game.next: what the game waits for (kemet_game_next)
NEXT = {_capi.NEXT_OVER: "over", _capi.NEXT_THROW: "throw",
        _capi.NEXT_MOVE: "move"}


def _player(p, what):
    """A player argument: 1 or 2, else KemetError (TypeError for a value
    that is no whole number)."""
    k = _index(p, "%s: player" % what)
    if k not in (1, 2):
        _misuse("%s: player must be 1 or 2, not %r" % (what, p))
    return k


class Game:
    """A game driven by the library's session (kemet_game): the throws
    from a seed, the opening procedure, turn counting, the history of its
    plies, take-back, resignation, stopping, and a record `kemet replay`
    checks and Game.read() reads back. Every front end of kemet (kemet
    play, kemet serve, the offline page) drives the same session, so these
    mean the same everywhere."""

    def __init__(self, rules, seed=1, position=None):
        if not isinstance(rules, Rules):
            raise TypeError("Game: rules must be a Rules, not %r" % (rules,))
        seed = _seed(seed, "game: seed")
        self.rules = rules
        self._handle = None
        g = ctypes.c_void_p()
        if position is None:
            rc = _lib.kemet_game_new(rules._r, seed,
                                     ctypes.byref(g), None)
            if rc:
                _fail(rc)
        else:
            pos = rules._pos(position)
            err = _capi.Error()
            rc = _lib.kemet_game_setup(rules._r, seed,
                                       ctypes.byref(pos._c), ctypes.byref(g),
                                       ctypes.byref(err))
            if rc:
                _fail(rc, err)
        self._handle = g

    @classmethod
    def read(cls, rules, text):
        """A game back from its record (the text record() writes, or a
        record file's), every line checked as `kemet replay` checks it,
        standing where the record leaves it: its seed, players, start or
        set-up position, plies, resignation and stop; the game goes on
        from there. `rules` must be the record's ruleset. KemetError for
        another ruleset's record, a throw or move the seed and rules do not
        give, or a record without a seed (it could not go on)."""
        if not isinstance(rules, Rules):
            raise TypeError("Game.read: rules must be a Rules, not %r" % (rules,))
        b = _text(text, "record")
        g = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_game_read(rules._r, b, ctypes.byref(g),
                                  ctypes.byref(err))
        if rc:
            if g:
                _lib.kemet_game_free(g)
            msg = err.msg.decode("utf-8", "replace") or \
                _lib.kemet_strerror(rc).decode()
            raise KemetError(rc, "record: %s" % msg)
        self = cls.__new__(cls)
        self.rules = rules
        self._handle = g
        return self

    @property
    def _g(self):
        """The library's handle; KemetError once it or its rules closed."""
        if not self._handle:
            _misuse("this Game is closed")
        self.rules._r  # its rules open
        return self._handle

    def close(self):
        if getattr(self, "_handle", None):
            _lib.kemet_game_free(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __repr__(self):
        if not self._handle:
            return "Game(closed)"
        return "Game(%r, seed=%d, plies=%d, next=%r)" % (
            self.rules.spec, self.seed, self.plies, self.next)

    # the state ---------------------------------------------------------
    @property
    def position(self):
        return Position(self.rules, _capi.Pos.from_buffer_copy(
            _lib.kemet_game_pos(self._g).contents))

    @property
    def first(self):
        """The position the first ply is made in: after the opening, or
        the one set up."""
        return Position(self.rules, _capi.Pos.from_buffer_copy(
            _lib.kemet_game_start(self._g).contents))

    @property
    def seed(self):
        """The seed the dice were seeded from."""
        return _lib.kemet_game_seed(self._g)

    @property
    def setup(self):
        """True for a game set up in a position (no opening)."""
        return bool(_lib.kemet_game_is_setup(self._g))

    @property
    def throw(self):
        """The throw waiting for a move, or None before the throw."""
        t = _lib.kemet_game_throw(self._g)
        return Throw(_capi.Throw.from_buffer_copy(t.contents)) if t else None

    @property
    def next(self):
        """What the game waits for: "throw" (roll(), or one of the
        rules' prethrow() moves with play()), "move" (play() one of the
        moves for the pending throw) or "over" (won, drawn, resigned or
        stopped: nothing more may be played)."""
        return NEXT[_lib.kemet_game_next(self._g)]

    @property
    def over(self):
        """True when nothing more may be played: the game is won or drawn
        by the rules, resigned or stopped."""
        return _lib.kemet_game_next(self._g) == _capi.NEXT_OVER

    @property
    def result(self):
        """0 playing (or stopped), 1 or 2 won by that player, 3 drawn: the
        position's result, or after a resignation the other player's
        win."""
        return _lib.kemet_game_result(self._g)

    @property
    def winner(self):
        """1 or 2 (a resignation counts), or None."""
        r = self.result
        return r if r in (1, 2) else None

    @property
    def resigned(self):
        """The player who resigned, or None."""
        return _lib.kemet_game_resigned(self._g) or None

    @property
    def stopped(self):
        """True when the game was stopped unfinished (stop())."""
        return bool(_lib.kemet_game_stopped(self._g))

    @property
    def turns(self):
        return _lib.kemet_game_turns(self._g)

    @property
    def plies(self):
        return _lib.kemet_game_plies(self._g)

    @property
    def players(self):
        """The players' names the record gives: ("human", "human") until
        set_players()."""
        g = self._g
        return tuple(_lib.kemet_game_player(g, p).decode("utf-8", "replace")
                     for p in (1, 2))

    def set_players(self, player1, player2):
        """Names the players for the record ("human", an agent's spec):
        each 1 to 63 bytes of UTF-8, no control characters."""
        a, b = _text(player1, "player1"), _text(player2, "player2")
        if _lib.kemet_game_set_players(self._g, a, b):
            _misuse("set_players: a player's name must be 1 to 63 bytes "
                    "with no control characters, not %r, %r"
                    % (player1, player2))

    def _ply(self, h, i):
        ply = h[i]
        t = ply.thr
        return Ply(_lib.kemet_game_mover(self._g, i),
                   Throw(_capi.Throw.from_buffer_copy(t)) if t.n else None,
                   Move(_capi.Move.from_buffer_copy(ply.move)))

    def _history(self):
        h = _lib.kemet_game_history(self._g)
        if not h and self.plies:
            _misuse("this game keeps no history")
        return h

    @property
    def history(self):
        """The plies made so far, in order: a list of Ply (player, throw,
        move)."""
        h = self._history()
        return [self._ply(h, i) for i in range(self.plies)]

    # playing -----------------------------------------------------------
    def _going(self, what):
        """KemetError unless something more may be played."""
        if self.over:
            why = ("player %d resigned" % self.resigned if self.resigned
                   else "it was stopped" if self.stopped else "it is over")
            raise KemetError(_capi.EOVER, "%s: the game is over (%s)"
                             % (what, why))

    def roll(self):
        """Throws the sticks (the seed's next throw)."""
        pending = self.throw
        if pending is not None:
            _misuse("roll: the throw %s waits for its move (play() one of "
                    "moves())" % pending)
        self._going("roll")
        t = _capi.Throw()
        rc = _lib.kemet_game_roll(self._g, ctypes.byref(t))
        if rc:
            _fail(rc, what="roll")
        return Throw(t)

    def play(self, move):
        """Makes a move for the pending throw (a pre-throw move when none
        is pending); IllegalMove says why not."""
        m = self.rules._move(move)
        self._going("play")
        before, t = self.position, self.throw
        ev = _capi.Events()
        rc = _lib.kemet_game_play(self._g, ctypes.byref(m._c),
                                  ctypes.byref(ev))
        if rc == _capi.EILLEGAL:
            why = self.rules.explain(before, t, m) or "not a legal move"
            raise IllegalMove(rc, "%s is not allowed: %s" % (m, why))
        if rc:
            _fail(rc, what="play")

    def step(self, agent):
        """One action of the player to move, chosen by `agent` (the
        library's throw-and-choose loop): an Agent of this ruleset
        (kemet_game_step: before a throw, one of the pre-throw moves if
        the agent prefers it, else the throw; after it, the agent's move,
        a single legal move, a pass included, made without asking), or a
        function (kemet_game_step_with) called as f(position, throw,
        moves) at every decision: before a throw with throw None and the
        pre-throw moves (perhaps none), answering None to throw or one of
        the moves; after it with the throw and the legal moves, answering
        one of them (a Move of the list, or its index). An exception it
        raises comes out of step(), and nothing is made. Returns the Throw
        thrown or the Move made."""
        if callable(agent) and not isinstance(agent, Agent):
            return self._step_with(agent)
        if not isinstance(agent, Agent):
            raise TypeError("step: agent must be an Agent or a function, "
                            "not %r" % (agent,))
        if agent.rules.spec != self.rules.spec:
            _misuse("step: an agent of %s, not of %s"
                    % (agent.rules.spec, self.rules.spec))
        g, a = self._g, agent._a
        self._going("step")
        n = self.plies
        rc = _lib.kemet_game_step(g, a, None)
        if rc:
            _fail(rc, what="step")
        if self.plies == n:
            return self.throw
        return self._ply(self._history(), n).move

    def _step_with(self, choose):
        self._going("step")
        rules = self.rules
        raised = []

        def call(ctx, pos, thr, moves, n):
            try:
                p = Position(rules, _capi.Pos.from_buffer_copy(pos.contents))
                t = (Throw(_capi.Throw.from_buffer_copy(thr.contents))
                     if thr else None)
                listed = [Move(_capi.Move.from_buffer_copy(moves[i]))
                          for i in range(n)]
                k = choose(p, t, listed)
                if k is None and t is None:
                    return -1
                if isinstance(k, Move) and k in listed:
                    return listed.index(k)
                if (isinstance(k, int) and not isinstance(k, bool)
                        and 0 <= k < n):
                    return k
                raise KemetError(_capi.EMISUSE,
                                 "step: the function answered %r, not %s"
                                 % (k, "one of the moves given"
                                    if t is not None else
                                    "None (throw) or one of the moves"))
            except BaseException as e:  # told after the library returns
                raised.append(e)
                return -2  # out of range: nothing is made

        if getattr(self, "_scratch", None) is None:
            self._scratch = (_capi.Move * _capi.MAX_MOVES)()
        fn = _capi.CHOOSE(call)
        n = self.plies
        rc = _lib.kemet_game_step_with(self._g, fn, None, self._scratch,
                                       None)
        if raised:
            raise raised[0]
        if rc:
            _fail(rc, what="step")
        if self.plies == n:
            return self.throw
        return self._ply(self._history(), n).move

    # the session -------------------------------------------------------
    def resign(self, player):
        """Player 1 or 2 gives the game up, whoever is to move: the other
        wins (result, winner), and nothing more may be played or taken
        back; back() to an earlier ply forgets the resignation."""
        p = _player(player, "resign")
        self._going("resign")
        rc = _lib.kemet_game_resign(self._g, p)
        if rc:
            _fail(rc, what="resign")

    def stop(self):
        """Stops the game unfinished (ruling G5: a turn cap reached): its
        record ends "result stopped"."""
        self._going("stop")
        rc = _lib.kemet_game_stop(self._g)
        if rc:
            _fail(rc, what="stop")

    def back(self, ply):
        """Goes back to just before ply `ply` (0 to plies) was made: the
        position, turn count and dice stand as they stood then, the throw
        that ply used is pending again (the same throws come after it),
        and the plies from `ply` on are forgotten, with any resignation
        or stop."""
        k = _whole(ply, "back: ply", 0, self.plies)
        rc = _lib.kemet_game_back(self._g, k)
        if rc:
            _fail(rc, what="back")

    def last_move(self, player):
        """The ply a take-back by `player` goes back to: their last ply
        that was a choice (a move or a pre-throw move; never a pass, which
        nobody chose), or None when they have none."""
        p = _player(player, "last_move")
        k = _lib.kemet_game_last_move(self._g, p)
        return None if k < 0 else k

    def takeback(self, player):
        """Player 1 or 2 takes back their last move (last_move()) and
        everything after it, as back() does: that ply's throw is pending
        again. Returns the ply gone back to. KemetError when the player
        has no move to take back, or after a resignation; a game won by
        the rules may be taken back."""
        p = _player(player, "takeback")
        g = self._g
        if self.resigned:
            raise KemetError(_capi.EOVER, "takeback: player %d resigned: "
                             "nothing may be taken back" % self.resigned)
        k = self.last_move(p)
        if k is None:
            raise KemetError(_capi.EILLEGAL, "takeback: player %d has no "
                             "move to take back" % p)
        rc = _lib.kemet_game_takeback(g, p)
        if rc:
            _fail(rc, what="takeback")
        return k

    def record(self, player1=None, player2=None):
        """The game's record so far (docs/records.md), as the library
        writes it: the header with the seed and players, "start" after
        the opening or "setup" for a game set up, a line a ply, a
        resignation, and the result ("unfinished" while it goes on,
        "stopped" after stop()). `kemet replay` checks it; Game.read()
        reads it back. `player1` and `player2`, where given, first name
        the players (as set_players)."""
        g = self._g
        if player1 is not None or player2 is not None:
            names = self.players
            self.set_players(names[0] if player1 is None else player1,
                             names[1] if player2 is None else player2)
        out = ctypes.c_void_p()
        rc = _lib.kemet_game_record(g, ctypes.byref(out))
        if rc:
            _fail(rc, what="record")
        try:
            return ctypes.string_at(out.value).decode("utf-8", "replace")
        finally:
            _free(out.value)
