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
import ctypes
import operator
from fractions import Fraction

from . import _capi

__all__ = ["KemetError", "IllegalMove", "Rules", "Position", "Throw", "Move",
           "Agent", "Game", "rulesets", "parse_position", "version",
           "level_agent"]

_lib = _capi.load()


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


def _whole(x, what, low=None, high=None):
    """An integer argument (from `low` to `high` where given), else
    KemetError."""
    try:
        if isinstance(x, bool):
            raise TypeError
        x = operator.index(x)
    except TypeError:
        _misuse("%s must be a whole number, not %r" % (what, x))
    if (low is not None and x < low) or (high is not None and x > high):
        _misuse("%s must be %s, not %d" % (
            what, "from %d to %d" % (low, high) if high is not None
            else "at least %d" % low, x))
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
    """The agent spec the computer plays as at level 1-5."""
    if isinstance(level, bool) or not isinstance(level, int):
        _misuse("no level %r (1-5)" % (level,))
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


class Rules:
    """A ruleset, opened from its id ("senet-kendall") or a spec with
    options ("lions-jackals:mode=quick"; see `kemet rules`)."""

    def __init__(self, spec="senet-kendall"):
        self._handle = None
        self._j = None  # the judge, made on first need
        r = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_rules_open(_text(spec, "ruleset"), ctypes.byref(r),
                                   ctypes.byref(err))
        if rc:
            _fail(rc, err)
        self._handle = r
        self._moves = (_capi.Move * _capi.MAX_MOVES)()
        info = _lib.kemet_rules_info(r).contents
        self.id = info.id.decode()
        self.title = info.title.decode()
        self.source = info.source.decode()
        self.text = info.text.decode()
        self.players = (info.player[0].decode(), info.player[1].decode())
        g = ctypes.string_at(ctypes.addressof(info) + _capi.Info.glyph.offset,
                             2).decode()
        self.glyphs = (g[0], g[1])
        self.pieces = info.pieces
        self.squares = info.squares

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
        pos = parse_position(text)
        if pos.rules.spec != self.spec:
            raise KemetError(_capi.ERULESET, "a position of %s, not of %s"
                             % (pos.rules.spec, self.spec))
        return Position(self, pos._c)

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
        w = (ctypes.c_uint32 * _capi.MAX_THROWS)()
        total = ctypes.c_uint32()
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
        elif player not in (1, 2) or isinstance(player, bool):
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

    def play(self, p1="random", p2="random", seed=1, max_turns=10000):
        """A whole game between two agents (specs or Agents), its throws
        from `seed`: the finished Game (its record() replays with
        `kemet replay`)."""
        seed = _whole(seed, "play: seed")
        max_turns = _whole(max_turns, "play: max_turns", 1)
        for x in (p1, p2):
            if isinstance(x, Agent) and x.rules.spec != self.spec:
                _misuse("play: an agent of %s, not of %s" % (x.rules.spec,
                                                            self.spec))
        a = [x if isinstance(x, Agent) else self.agent(x, seed * 2 + i)
             for i, x in enumerate((p1, p2))]
        g = self.game(seed)
        while not g.over and g.turns < max_turns:
            pos = g.position
            seat = a[pos.to - 1]
            if g.throw is None:
                pre = self.prethrow(pos)
                if pre:
                    m = seat.choose(pos, None, pre)
                    if m is not None:
                        g.play(m)
                        continue
                g.roll()
            moves = self.moves(pos, g.throw)
            g.play(moves[0] if len(moves) == 1 else
                   seat.choose(pos, g.throw, moves))
        return g

    def analyze(self, p1="random", p2="random", games=100, seed=1,
                max_turns=10000):
        """Plays `games` games (game i seeded seed + i) and returns the
        analysis of docs/analysis.md as a dict: games, wins, the Ludii
        figures (completion, balance, duration_turns, ...) each as
        (value, lo, hi)."""
        games = _whole(games, "analyze: games", 1, 10**7)
        seed = _whole(seed, "analyze: seed")
        max_turns = _whole(max_turns, "analyze: max_turns", 1)
        traces = (_capi.Trace * games)()
        for i in range(games):
            g = self.play(p1, p2, seed + i, max_turns)
            t = traces[i]
            t.result = g.position.result
            t.turns = g.turns
            t.moves = g.plies
            for n in g._choices:
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
            _misuse("Agent: rules must be a Rules, not %r" % (rules,))
        seed = _whole(seed, "agent: seed")
        self.rules = rules
        self._handle = None
        a = ctypes.c_void_p()
        err = _capi.Error()
        rc = _lib.kemet_agent_new(rules._r, _text(spec, "agent"),
                                  seed & (2**64 - 1), ctypes.byref(a),
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
                _misuse("moves must be a list of moves, not %r" % (moves,))
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


class Game:
    """A game driven by the library: the throws from a seed, the opening
    procedure, turn counting, and a record `kemet replay` checks."""

    def __init__(self, rules, seed=1, position=None):
        if not isinstance(rules, Rules):
            _misuse("Game: rules must be a Rules, not %r" % (rules,))
        seed = _whole(seed, "game: seed")
        self.rules = rules
        self.seed = seed & (2**64 - 1)
        self._handle = None
        g = ctypes.c_void_p()
        if position is None:
            rc = _lib.kemet_game_new(rules._r, self.seed, ctypes.byref(g),
                                     None)
            if rc:
                _fail(rc)
        else:
            pos = rules._pos(position)
            err = _capi.Error()
            rc = _lib.kemet_game_setup(rules._r, self.seed,
                                       ctypes.byref(pos._c), ctypes.byref(g),
                                       ctypes.byref(err))
            if rc:
                _fail(rc, err)
        self._handle = g
        self.setup = position is not None
        self.first = self.position
        self._lines = []
        self._choices = []  # legal moves at each throw (0: a pass)

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

    @property
    def position(self):
        return Position(self.rules, _capi.Pos.from_buffer_copy(
            _lib.kemet_game_pos(self._g).contents))

    @property
    def throw(self):
        """The throw waiting for a move, or None before the throw."""
        t = _lib.kemet_game_throw(self._g)
        return Throw(_capi.Throw.from_buffer_copy(t.contents)) if t else None

    @property
    def over(self):
        return self.position.over

    @property
    def turns(self):
        return _lib.kemet_game_turns(self._g)

    @property
    def plies(self):
        return _lib.kemet_game_plies(self._g)

    def roll(self):
        """Throws the sticks (the seed's next throw)."""
        pending = self.throw
        if pending is not None:
            _misuse("roll: the throw %s waits for its move (play() one of "
                    "moves())" % pending)
        if self.over:
            _misuse("roll: the game is over")
        t = _capi.Throw()
        rc = _lib.kemet_game_roll(self._g, ctypes.byref(t))
        if rc:
            _fail(rc, what="roll")
        return Throw(t)

    def play(self, move):
        """Makes a move for the pending throw (a pre-throw move when none
        is pending); IllegalMove says why not."""
        before = self.position
        t = self.throw
        m = self.rules._move(move)
        if t is not None:
            legal = self.rules.moves(before, t)
            n = 0 if len(legal) == 1 and not legal[0].steps else len(legal)
        ev = _capi.Events()
        rc = _lib.kemet_game_play(self._g, ctypes.byref(m._c),
                                  ctypes.byref(ev))
        if rc == _capi.EILLEGAL:
            why = self.rules.explain(before, t, m) or "not a legal move"
            raise IllegalMove(rc, "%s is not allowed: %s" % (m, why))
        if rc:
            _fail(rc)
        if t is not None:
            self._choices.append(n)
        buf = ctypes.create_string_buffer(512)
        _lib.kemet_record_ply(ctypes.byref(before._c),
                              ctypes.byref(t._c) if t else None,
                              ctypes.byref(m._c), buf, len(buf))
        self._lines.append(buf.value.decode())

    def record(self, player1="random", player2="random"):
        """The game as a record (docs/records.md)."""
        self._g  # still open
        if self.setup:
            raise KemetError(_capi.EMISUSE, "records of set-up games are "
                             "written by kemet play --position")
        buf = ctypes.create_string_buffer(4096)
        n = _lib.kemet_record_header(self.rules._r, self.seed,
                                     _text(player1, "player"),
                                     _text(player2, "player"),
                                     ctypes.byref(self.first._c), buf,
                                     len(buf))
        if n < 0:
            _fail(n)
        head = buf.value.decode()
        res = ctypes.create_string_buffer(64)
        _lib.kemet_record_result(ctypes.byref(self.position._c), 0, res,
                                 len(res))
        return head + "".join(self._lines) + res.value.decode()
