#!/usr/bin/env python3
"""senet_parts_ref.py - a second, independent model of the senet family's
parts, written from the documents only: docs/rulesets.md (the file format,
guards, options and "Family `senet`"), docs/rulings.md (G1-G6, K1-K10,
Robinson's rethrow, KO1-KO7 and "Senet's parts together", SP1-SP19),
docs/reconstructions.md (R1-R8, BL, PC, JQ, KO) and docs/notation.md; not
from the sources under src/lib/senet/ nor from tests/test_parts.c.

It reads a senet-family ruleset file, plays any combination of its parts,
counts the game tree as `kemet perft` does (a ply is a move made instead
of throwing, or one distinct throw value with one of its legal moves, a
pass included; a finished game counts as one position at every depth
beyond it), and compares with the program:

    python3 tests/senet_parts_ref.py all          # every file below
    python3 tests/senet_parts_ref.py FILE ...     # those files only
    python3 tests/senet_parts_ref.py --games N all   # N random games a file
    python3 tests/senet_parts_ref.py perft FILE SPEC DEPTH ['POSITION']
    python3 tests/senet_parts_ref.py moves FILE 'POSITION' THROW|none
    python3 tests/senet_parts_ref.py apply FILE 'POSITION' THROW|none MOVE

A check compares, for every depth 1..D, the model's count with `kemet
perft --rules FILE ID D [POSITION]`, from the start and from chosen
positions; then it plays random games with the model and, at positions
along them, compares the legal moves of every throw (and `none`, the
choices before the throw) with `kemet moves`, and the position after
moves with `kemet apply`, so that a disagreement shows at the first
position where it appears. It also compares chosen positions move by move
(SPOTS) and checks the documents' worked examples on both (DOCS). `all`
exits 0 only if everything agrees; it checks every file in CASES and any
other tests/rulesets/parts-*.rules. The built-in files (data/rulesets/senet-*)
take built-in ids, which a file given with --rules may not use: they are
checked twice, as the built-in ruleset (`kemet perft senet-kendall ...`)
and as a copy of the file whose id is prefixed with `ref-`. KEMET in the
environment names another program to check.

Readings taken where the documents leave room (each with the reason):
  * An entry with a throw of 1 is "a move made with" a 1: `again 1 ...`
    gives another throw after it even without `again ... enter`
    (rulesets.md, `again`; the entry uses the throw whole, PC6).
  * A backward count may pass the stop square (SP18 limits counts "from
    before the stop square"); houses limit forward moves only (SP18,
    K7: pieces on 28-30 go back).
  * A piece in the water that keeps it (`water W R`) leaves by bearing
    off as the bear-off part allows from W (SP3): listed `W:C`, or the
    exact or any count past 30.
  * A captured piece sent to "the lowest empty square" (first-empty)
    never goes onto a water square where nothing stays.
  * With `split`, a rethrow comes from the first step (in the order
    carried out) whose count ends on a rethrow square (SP7 is silent on
    two; no file combines them).
  * The limits of SP2 on which pieces may move all hold at once: with
    `must=S` and a piece in the water that keeps it, no piece may move
    (SP3 "moves no other piece", SP7 "only that piece").
  * A move that wins and leaves the mover's piece in the water that keeps
    it (a hit with `capture remove` of the last opposing piece there)
    passes the turn: `to=` is what the turn rules give (SP11, notation.md),
    and such a move ends the turn with no other throw (SP3, SP15, K8).
  * `option KEY A B C` with three numbers is the range MIN MAX DEFAULT;
    any other list is a list of values.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KEMET = os.environ.get("KEMET", os.path.join(ROOT, "build", "release", "kemet"))
OFF = 31
ANY = "any"

TEXT_STATEMENTS = {"title", "author", "about", "source", "gone", "in-hand",
                   "text"}
OTHER_STATEMENTS = {"players", "year", "levels", "board"}


class Err(Exception):
    pass


def bits(mask):
    out = []
    s = 0
    while mask:
        if mask & 1:
            out.append(s)
        mask >>= 1
        s += 1
    return out


def popcount(m):
    return bin(m).count("1")


def mask_of(squares):
    m = 0
    for s in squares:
        m |= 1 << s
    return m


# ---------------------------------------------------------------------------
# The ruleset file (docs/rulesets.md, "The format").

class RulesFile:
    def __init__(self, path, text=None):
        self.path = path
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        self.text = text
        self.id = None
        self.family = None
        self.options = []       # (key, values list or None, default, (min, max))
        self.parts = []         # (guards [(k, v)], name, words)
        first = True
        for n, raw in enumerate(text.split("\n"), 1):
            line = raw.rstrip("\r")
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            name, _, rest = s.partition(" ")
            if name in TEXT_STATEMENTS:
                continue
            words = []
            for w in rest.split():
                if w.startswith("#"):
                    break
                words.append(w)
            if first:
                if name != "kemet-rules" or words != ["1"]:
                    raise Err("%s: line %d: not 'kemet-rules 1'" % (path, n))
                first = False
                continue
            if name == "id":
                self.id = words[0]
            elif name == "family":
                self.family = words[0]
            elif name == "option":
                key, vals = words[0], words[1:]
                if len(vals) == 3 and all(v.isdigit() for v in vals):
                    lo, hi, d = map(int, vals)
                    self.options.append((key, None, str(d), (lo, hi)))
                else:
                    self.options.append((key, vals, vals[0], None))
            elif name == "if":
                guards = [tuple(g.split("=", 1)) for g in words[0].split(",")]
                self.parts.append((guards, words[1], words[2:]))
            elif name in OTHER_STATEMENTS:
                continue
            else:
                self.parts.append(([], name, words))
        if self.family != "senet":
            raise Err("%s: not a senet-family file" % path)

    def parse_spec(self, spec):
        base, colon, opts = spec.partition(":")
        if base != self.id:
            raise Err("ruleset %s is not %s" % (base, self.id))
        values = {k: d for k, _, d, _ in self.options}
        if colon:
            if not opts:
                raise Err("empty option list")
            for kv in opts.split(","):
                k, _, v = kv.partition("=")
                decl = [o for o in self.options if o[0] == k]
                if not decl:
                    raise Err("unknown option %s" % k)
                _, vals, _, rng = decl[0]
                if vals is not None and v not in vals:
                    raise Err("bad value %s=%s" % (k, v))
                if rng is not None and not (v.isdigit() and rng[0] <= int(v) <= rng[1]):
                    raise Err("bad value %s=%s" % (k, v))
                values[k] = v
        return values

    def spec_text(self, values):
        diff = ["%s=%s" % (k, values[k]) for k, _, d, _ in self.options
                if values[k] != d]
        return self.id + (":" + ",".join(diff) if diff else "")

    def rules(self, spec):
        values = self.parse_spec(spec)
        chosen = {}
        for guards, name, words in self.parts:
            if all(values.get(k) == v for k, v in guards):
                if name in chosen:
                    raise Err("part %s given twice under %s" % (name, spec))
                chosen[name] = words
        return Rules(chosen, self.spec_text(values))


# ---------------------------------------------------------------------------
# The parts (docs/rulesets.md, "Family `senet`").

class Rules:
    def __init__(self, p, spec):
        self.spec = spec
        if p.get("track") != ["30", "boustrophedon"]:
            raise Err("track must be '30 boustrophedon'")
        self.n = int(p["pieces"][0])
        w = p["setup"]
        if w[0] == "alternate":
            self.setup = (mask_of(range(1, 2 * self.n, 2)),
                          mask_of(range(2, 2 * self.n + 1, 2)))
        elif w[0] == "in-hand":
            self.setup = (0, 0)
        elif w[0] == "squares":
            self.setup = tuple(0 if x == "-" else mask_of(map(int, x.split(",")))
                               for x in w[1:3])
        else:
            raise Err("setup %s" % w)
        self.first = p["first"][0]
        self.wait = int(p["wait"][0]) if "wait" in p else 0
        w = p["throw"]
        if w[0] == "sticks":
            blank = int(w[2].split("=")[1])
            self.throws = tuple(sorted(set(range(1, int(w[1]) + 1)) | {blank}))
        elif w[0] == "die":
            self.throws = tuple(range(1, int(w[1]) + 1))
        else:
            raise Err("throw %s" % w)
        # again V ... [enter] [on SQUARE ...]
        self.again_vals, self.again_enter, self.again_on = set(), False, 0
        w = p.get("again", ["none"])
        if w != ["none"]:
            mode = "v"
            for x in w:
                if x == "enter":
                    self.again_enter = True
                elif x == "on":
                    mode = "on"
                elif mode == "on":
                    self.again_on |= 1 << int(x)
                else:
                    self.again_vals.add(int(x))
        # protect [pairs] [safe SQ ...] [marked SQ ...]
        self.pairs, self.safe, self.marked = False, 0, 0
        w = p.get("protect", ["none"])
        if w != ["none"]:
            mode = None
            for x in w:
                if x == "pairs":
                    self.pairs = True
                elif x in ("safe", "marked"):
                    mode = x
                elif mode == "safe":
                    self.safe |= 1 << int(x)
                else:
                    self.marked |= 1 << int(x)
        self.prot_mask = self.safe | self.marked
        self.block = "block" in p
        self.capture = p["capture"][0]
        self.lock = "lock" in p
        self.vacate = "vacate" in p
        w = p.get("enter")
        self.enter = None if w is None else ("must" if "must-move" in w else "plain")
        self.split = "split" in p
        # backward never | when-stuck [empty] [not-from SQ ...] [to-water SQ ...]
        self.backward, self.back_empty, self.not_from, self.to_water = False, False, 0, 0
        w = p.get("backward", ["never"])
        if w[0] == "when-stuck":
            self.backward = True
            mode = None
            for x in w[1:]:
                if x == "empty":
                    self.back_empty = True
                elif x in ("not-from", "to-water"):
                    mode = x
                elif mode == "not-from":
                    self.not_from |= 1 << int(x)
                else:
                    self.to_water |= 1 << int(x)
        self.stop = int(p["stop"][0]) if "stop" in p else 0
        # water W R | W first-empty | W hand | none
        self.W, self.wkind, self.rescue = 0, None, 0
        w = p.get("water", ["none"])
        if w != ["none"]:
            self.W = int(w[0])
            if w[1] in ("first-empty", "hand"):
                self.wkind = w[1]
            else:
                self.wkind, self.rescue = "keep", int(w[1])
        self.trap = "trap" in p
        # bear-off exact | any | SQ:COUNT ...
        w = p["bear-off"]
        self.house = {}
        self.stop_counts = None
        if w[0] in ("exact", "any"):
            self.bo_kind = w[0]
        else:
            self.bo_kind = "list"
            for x in w:
                sq, _, c = x.partition(":")
                cnt = ANY if c == "any" else {int(c)}
                if int(sq) == self.stop:
                    self.stop_counts = cnt
                else:
                    self.house[int(sq)] = cnt
        w = p.get("bear-off-when", [])
        self.bo_last = "last-row" in w
        self.bo_clear = "start-row-clear" in w
        w = p.get("rethrow", ["none"])
        self.rethrow = 0 if w == ["none"] else mask_of(map(int, w))
        self.end = p.get("end", ["first-off"])[0]
        self.keep_o = self.end == "score"


# ---------------------------------------------------------------------------
# Positions. A state is (to, m1, h1, o1, m2, h2, o2, must, w1, w2, winner):
# m1/m2 bit masks of squares 1-30, h hand, o borne off (kept only with
# `end score`, where the position shows it), must the must= square (0 for
# none), w1/w2 whether that player still waits (`wait`), winner None while
# the game goes on, else 0, 1 or 2.

def start_state(R):
    m1, m2 = R.setup
    h1, h2 = R.n - popcount(m1), R.n - popcount(m2)
    to = 1
    w1 = w2 = bool(R.wait)
    if R.first == "one-takes-black":             # JQ1, SP16
        front = max(bits(m2))
        m2 = (m2 & ~(1 << front)) | (1 << (front + 1))
        to = 2
        if R.wait == 1:                          # SP13
            w2 = False
    return (to, m1, h1, 0, m2, h2, 0, 0, w1, w2, None)


def parse_position(rf, text):
    toks = text.split()
    R = rf.rules(toks[0])
    f = {}
    for t in toks[1:]:
        k, _, v = t.partition("=")
        f[k] = v

    def sq(v):
        return 0 if v == "-" else mask_of(int(x) for x in v.split(","))
    wait = set(map(int, f["wait"].split(","))) if "wait" in f else set()
    st = (int(f["to"]), sq(f["p1"]), int(f.get("h1", 0)), int(f.get("o1", 0)),
          sq(f["p2"]), int(f.get("h2", 0)), int(f.get("o2", 0)),
          int(f.get("must", 0)), 1 in wait, 2 in wait,
          int(f["winner"]) if "winner" in f else None)
    return R, st


def fmt_position(R, st):
    to, m1, h1, o1, m2, h2, o2, must, w1, w2, winner = st
    out = [R.spec, "to=%d" % to]
    for m, h, o, k in ((m1, h1, o1, "1"), (m2, h2, o2, "2")):
        out.append("p%s=%s" % (k, ",".join(map(str, bits(m))) or "-"))
        if h:
            out.append("h%s=%d" % (k, h))
        if o and R.keep_o:
            out.append("o%s=%d" % (k, o))
    if winner is None:
        if must:
            out.append("must=%d" % must)
        if w1 or w2:
            out.append("wait=" + ",".join(s for s, w in (("1", w1), ("2", w2)) if w))
    else:
        out.append("winner=%d" % winner)
    return " ".join(out)


def view(st):
    """The side-to-move's node: (mine, mh, mo, theirs, th, tho, must, wme, wthem)."""
    to, m1, h1, o1, m2, h2, o2, must, w1, w2, _ = st
    if to == 1:
        return (m1, h1, o1, m2, h2, o2, must, w1, w2)
    return (m2, h2, o2, m1, h1, o1, must, w2, w1)


def unview(to, node, winner):
    mine, mh, mo, theirs, th, tho, must, wme, wthem = node
    if to == 1:
        return (1, mine, mh, mo, theirs, th, tho, must, wme, wthem, winner)
    return (2, theirs, th, tho, mine, mh, mo, must, wthem, wme, winner)


# ---------------------------------------------------------------------------
# Moves. A move is "pass", ("in",) for in-1, or a tuple of steps
# (s, t, kind): kind "sq" a count that lands on t (the water that keeps its
# piece included), "off" borne off, "fall" the trap's fall into the water
# (SP17), "pw" a count ending on a water square where no piece stays.

def lowest_empty(R, occ):
    for s in range(1, 31):
        if not (occ >> s) & 1 and not (s == R.W and R.wkind != "keep"):
            return s
    raise Err("no empty square")


class Ctx:
    """What one position's moves are judged on (the position before)."""

    def __init__(self, R, node):
        mine, mh, mo, theirs, th, tho, must, wme, wthem = node
        self.mine, self.theirs, self.mh = mine, theirs, mh
        self.occ = mine | theirs
        self.trip = theirs & (theirs >> 1) & (theirs >> 2)
        ok = True
        if R.bo_last and (mh or mine & ((1 << 21) - 1)):         # JQ9, SP14
            ok = False
        if R.bo_clear and mine & ((1 << 11) - 1):                  # KO5, SP14
            ok = False
        self.bo_ok = ok

    def locked(self, R, s):                                        # JQ2
        return R.lock and s <= 10 and (self.occ >> (s + 1)) & 1

    def hittable(self, R, t):                                      # SP4, SP6
        if R.capture == "none":
            return False
        b = 1 << t
        if R.prot_mask & b:
            return False
        if R.pairs and self.theirs & ((b << 1) | (b >> 1)):
            return False
        return True

    def blocked(self, lo, hi):
        """A block of three k, k+1, k+2 with lo < k and k+2 < hi (JQ5)."""
        if hi - 3 < lo + 1:
            return False
        rng = ((1 << (hi - 2)) - 1) & ~((1 << (lo + 1)) - 1)
        return bool(self.trip & rng)


def fwd_dest(R, c, s, v):
    """Where a forward count v from s goes, or None; the occupancy of a
    landing square is judged by the caller."""
    if s in R.house:                                    # SP18, K5
        cnt = R.house[s]
        if (cnt is ANY or v in cnt) and c.bo_ok:
            return (OFF, "off")
        return None
    if s == R.W and R.wkind == "keep":                  # SP3: only bearing off
        if R.bo_kind == "exact":
            ok = s + v == OFF
        elif R.bo_kind == "any":
            ok = s + v >= OFF
        else:
            ok = False
        return (OFF, "off") if ok and c.bo_ok else None
    if s == R.stop and R.stop_counts is not None and \
            (R.stop_counts is ANY or v in R.stop_counts):   # SP18, K4
        return (OFF, "off") if c.bo_ok else None
    t = s + v
    if R.stop and s < R.stop < t:                       # rule 8, K3, SP18
        if R.trap and not (c.occ >> R.W) & 1:           # SP17, KO4
            return (R.W, "fall")
        return None
    if t > 30:
        if (R.bo_kind == "exact" and t == OFF) or R.bo_kind == "any":
            return (OFF, "off") if c.bo_ok else None
        return None
    if t == R.W and R.wkind in ("first-empty", "hand"):
        return (t, "pw")
    return (t, "sq")


def back_dest(R, s, v):
    if s == R.W and R.wkind == "keep":                  # SP3, SP9
        return None
    if (R.not_from >> s) & 1:                           # PC5
        return None
    if (R.to_water >> s) & 1:                           # rule 10, K7
        t = R.W
    else:
        t = s - v
        if t < 1:                                       # K7
            return None
    if t == R.W and R.wkind in ("first-empty", "hand"):
        return (t, "pw")
    return (t, "sq")


def step_ok(R, c, s, t, kind, forward, own_ok):
    """A step's block, landing and hit (own_ok: an own piece on t is allowed,
    to be checked against the play's other steps)."""
    if R.block:
        if forward and c.blocked(s, t):
            return False
        if not forward and c.blocked(t, s):
            return False
    if kind == "sq":
        b = 1 << t
        if c.mine & b and not own_ok:
            return False
        if c.theirs & b:
            if not forward and R.back_empty:            # JQ8
                return False
            if not c.hittable(R, t):
                return False
    return True


def single_moves(R, c, movers, v, forward):
    out = []
    for s in movers:
        d = fwd_dest(R, c, s, v) if forward else back_dest(R, s, v)
        if d is None:
            continue
        t, kind = d
        if step_ok(R, c, s, t, kind, forward, False):
            out.append(((s, t, kind),))
    return out


def split_plays(R, c, movers, v, forward, need1):
    """Plays of throw v shared out among different pieces (SP8, PC1)."""
    opts = []
    for s in movers:
        o = []
        for d in range(1, v + 1):
            dd = fwd_dest(R, c, s, d) if forward else back_dest(R, s, d)
            if dd is None:
                continue
            t, kind = dd
            if step_ok(R, c, s, t, kind, forward, True):
                o.append((d, (s, t, kind)))
        opts.append(o)
    out = []
    steps = []
    n = len(movers)

    def rec(i, rem):
        if rem == 0:
            if steps:
                check()
            return
        if i == n:
            return
        rec(i + 1, rem)
        for d, st in opts[i]:
            if d > rem:
                break
            steps.append(st)
            rec(i + 1, rem - d)
            steps.pop()

    def check():
        if need1 and not any(s == 1 for s, _, _ in steps):
            return
        starts = mask_of(s for s, _, _ in steps)
        seen = 0
        for s, t, kind in steps:
            if kind == "off":
                continue
            b = 1 << t
            if seen & b:
                return
            seen |= b
            if kind == "sq" and c.mine & b and not starts & b:
                return
        out.append(tuple(steps))

    rec(0, v)
    return out


def is_entered(R, must):
    return R.enter == "must" and must == 1


def legal(R, node, v):
    """The legal moves of throw v at node (the side to move's view); ["pass"]
    when there is none."""
    mine, mh, mo, theirs, th, tho, must, wme, wthem = node
    if wme and v != R.wait:                             # SP13, KO3
        return ["pass"]
    c = Ctx(R, node)
    in_water = R.wkind == "keep" and (mine >> R.W) & 1
    entered = is_entered(R, must)
    # SP2: the pieces that may move are the rethrow's or the entered piece
    # alone (must=), the piece in the water alone, and pieces the lock
    # does not hold: every one of these that applies.
    movable = mine
    if must and (not entered or not R.split):
        movable &= 1 << must                            # SP7, PC10
    if in_water:
        movable &= 1 << R.W                             # SP3
    movers = [s for s in bits(movable) if not c.locked(R, s)]
    if R.split:
        if must and not entered:
            fwd = single_moves(R, c, movers, v, True)
        else:
            fwd = split_plays(R, c, movers, v, True, entered)
    else:
        fwd = single_moves(R, c, movers, v, True)
    if (R.enter and v == 1 and mh and not must and not in_water
            and not (c.occ >> 1) & 1):                  # PC6, SP1
        fwd.append(("in",))
    moves = fwd
    if not moves and R.backward and not entered and not in_water:   # SP9
        if R.split and not must:
            moves = split_plays(R, c, movers, v, False, False)
        else:
            moves = single_moves(R, c, movers, v, False)
    if R.vacate and R.marked:                           # SP10, BL6
        vac = [m for m in moves if m != ("in",)
               and any((R.marked >> s) & 1 for s, _, _ in m)]
        if vac:
            moves = vac
    return moves or ["pass"]


def prethrow(R, node):
    """Moves made instead of throwing: the rescue (SP3, K8)."""
    mine, mh, mo, theirs, th, tho, must, wme, wthem = node
    if (R.wkind == "keep" and (mine >> R.W) & 1 and not must and not wme
            and not ((mine | theirs) >> R.rescue) & 1):
        return [((R.W, R.rescue, "rescue"),)]
    return []


def play(R, node, v, mv):
    """Make move mv of throw v (v None: a move before the throw). Returns
    (same_player, child node, winner)."""
    mine, mh, mo, theirs, th, tho, must, wme, wthem = node
    if v is None:                                       # the rescue
        (s, t, _), = mv
        mine = (mine & ~(1 << s)) | (1 << t)
        return False, (theirs, th, tho, mine, mh, mo, 0, wthem, wme), None
    if wme and v == R.wait:                             # SP13
        wme = False
    if mv == "pass":                                    # G3, PC10
        if is_entered(R, must):
            mine &= ~2
            mh += 1
        return False, (theirs, th, tho, mine, mh, mo, 0, wthem, wme), None
    entry = mv == ("in",)
    landed_on = False
    rethrow_sq = 0
    if entry:
        mine |= 2
        mh -= 1
    else:
        backward = any(k != "off" and t < s for s, t, k in mv)
        order = sorted(mv, key=lambda x: x[0], reverse=not backward)
        for s, t, kind in order:
            mine &= ~(1 << s)
            if kind == "off":
                mo += 1
                continue
            if kind == "pw" or (kind == "fall" and R.wkind != "keep"):
                if R.wkind == "hand":                   # PC7
                    mh += 1
                else:                                   # JQ7
                    mine |= 1 << lowest_empty(R, mine | theirs)
                continue
            b = 1 << t
            if theirs & b:                              # SP4
                theirs &= ~b
                if R.capture == "swap":                 # K6
                    theirs |= 1 << s
                elif R.capture == "first-empty":        # JQ6
                    mine |= b
                    theirs |= 1 << lowest_empty(R, mine | theirs)
                elif R.capture == "remove":             # BL4
                    pass
                else:
                    raise Err("a hit with capture none")
            mine |= b
            if kind == "sq":
                if R.again_on & b:
                    landed_on = True
                if R.rethrow & b and not rethrow_sq:
                    rethrow_sq = t
    in_water = R.wkind == "keep" and (mine >> R.W) & 1
    again = (v in R.again_vals or (entry and R.again_enter) or landed_on) \
        and not in_water                                # SP15
    mine_left = popcount(mine) + mh
    theirs_left = popcount(theirs) + th
    winner = None
    if R.end == "score":                                # SP11, BL8
        if mine_left == 0 and theirs_left == 0:
            winner = 0 if mo == tho else ("me" if mo > tho else "them")
    else:
        if mine_left == 0 or (R.capture == "remove" and theirs_left == 0):
            winner = "me"
    if winner is not None:                              # wait= dropped
        if again:
            return True, (mine, mh, mo, theirs, th, tho, 0, False, False), winner
        return False, (theirs, th, tho, mine, mh, mo, 0, False, False), winner
    if rethrow_sq and not in_water:                     # SP7
        return True, (mine, mh, mo, theirs, th, tho, rethrow_sq, wme, wthem), None
    if entry and R.enter == "must":                     # PC10
        return True, (mine, mh, mo, theirs, th, tho, 1, wme, wthem), None
    if again:
        return True, (mine, mh, mo, theirs, th, tho, 0, wme, wthem), None
    return False, (theirs, th, tho, mine, mh, mo, 0, wthem, wme), None


def move_text(mv):
    if mv == "pass":
        return "pass"
    if mv == ("in",):
        return "in-1"
    return "+".join("%d-%s" % (s, "off" if k == "off" else t) for s, t, k in mv)


def move_key(text):
    """A move's text as a comparable key: a play is a set of steps (PC1)."""
    if text in ("pass", "in-1", "throw"):
        return text
    return frozenset(text.split("+"))


def state_after(R, st, v, mv):
    to = st[0]
    same, child, winner = play(R, view(st), v, mv)
    nto = to if same else 3 - to
    w = None
    if winner is not None:
        w = winner if winner == 0 else (to if winner == "me" else 3 - to)
    return unview(nto, child, w)


def moves_of(R, st, v):
    """[(text, move)] for throw v, or for "none" the choices before it."""
    node = view(st)
    if v is None:
        return [("throw", "throw")] + [(move_text(m), m) for m in prethrow(R, node)]
    return [(move_text(m), m) for m in legal(R, node, v)]


# ---------------------------------------------------------------------------
# perft, colour-symmetric: a node is the side to move's view.

def perft(R, st, depth):
    if st[10] is not None:
        return [1] * depth
    kids = {}
    memo = {}

    def norm(node):
        if not R.keep_o:
            node = node[:2] + (0,) + node[3:5] + (0,) + node[6:]
        return node

    def children(node):
        ch = kids.get(node)
        if ch is None:
            ch = []
            for mv in prethrow(R, node):
                same, nd, w = play(R, node, None, mv)
                ch.append(None if w is not None else norm(nd))
            for v in R.throws:
                for mv in legal(R, node, v):
                    same, nd, w = play(R, node, v, mv)
                    ch.append(None if w is not None else norm(nd))
            kids[node] = ch
        return ch

    def nmoves(node):
        ch = kids.get(node)
        if ch is not None:
            return len(ch)
        return len(prethrow(R, node)) + sum(len(legal(R, node, v)) for v in R.throws)

    def count(node, d):
        if d == 1:
            return nmoves(node)
        key = (node, d)
        r = memo.get(key)
        if r is None:
            r = 0
            for ch in children(node):
                r += 1 if ch is None else count(ch, d - 1)
            memo[key] = r
        return r

    root = norm(view(st))
    return [count(root, d) for d in range(1, depth + 1)]


# ---------------------------------------------------------------------------
# The program under check.

class Program:
    def __init__(self):
        self.calls = 0

    def run(self, args):
        self.calls += 1
        try:
            p = subprocess.run([KEMET] + args, capture_output=True, text=True)
        except OSError as e:
            raise Err("cannot run %s: %s" % (KEMET, e))
        return p.returncode, p.stdout, p.stderr.strip()

    def perft(self, rules_args, spec, depth, pos=None):
        rc, out, err = self.run(["perft"] + rules_args + [spec, str(depth)]
                                + ([pos] if pos else []))
        if rc != 0:
            return None, err
        return [int(l.rsplit(":", 1)[1]) for l in out.split("\n") if l.strip()], None

    def moves(self, rules_args, pos, throw):
        rc, out, err = self.run(["moves"] + rules_args + [pos, throw])
        if rc != 0:
            return None, err
        return [l for l in out.split("\n") if l.strip()], None

    def apply(self, rules_args, pos, throw, move):
        rc, out, err = self.run(["apply"] + rules_args + [pos, throw, move])
        if rc != 0:
            return None, err
        return out.strip(), None


# ---------------------------------------------------------------------------
# What `all` checks. Each file: its option sets (the first is checked to
# `depth` from the start, the others to depth 3), positions where its
# unusual parts matter (perft to the depth given, in the file's default
# options), and random games (per option set; every fourth position along
# them is compared move by move).

CASES = [
    ("tests/rulesets/parts-bell-pairs.rules", [""], 3, [
        # pairs protect where Bell's marked squares do not: 20/21 across
        # the row's end and 23/24; hits remove for good; the score
        ("to=1 p1=16,18,25 o1=4 p2=20,21,23,24 o2=3", 5),
        ("to=2 p1=22,23,29 o1=7 p2=19,25,26 o2=6", 6),
    ]),
    ("tests/rulesets/parts-bell-water.rules", [""], 3, [
        # the water keeps its piece on a marked square: 15 empty, the rescue
        ("to=1 p1=12,27 o1=6 p2=22,24,26 o2=4", 6),
        # 15 taken: no rescue; the 4 bears off from the water
        ("to=2 p1=15,27 o1=5 p2=23,26,29 o2=5", 6),
    ]),
    ("tests/rulesets/parts-jequier-swap.rules", [""], 4, [
        # a lock (9 behind 10), a pair across 10/11, a lone piece to swap
        ("to=1 p1=9,12,14,21 p2=10,11,15,22,25", 4),
        # bearing off once every piece is on 21-30; safe squares; the water
        ("to=1 p1=21,24,26,28,30 p2=13,22,25,29", 5),
    ]),
    ("tests/rulesets/parts-kendall-again14.rules", [""], 4, [
        # the 5 that bears off from 26 gives no other throw here
        ("to=1 p1=20,24,26,30 p2=21,22,27,28", 5),
    ]),
    ("tests/rulesets/parts-kendall-block.rules", [""], 4, [
        # blocks of three in the middle row and before the stop square
        ("to=1 p1=9,11,19 p2=12,13,14,23,24,25", 5),
        # a block on 26-28-... and the water
        ("to=2 p1=22,23,24,28 p2=17,21,26,27", 5),
    ]),
    ("tests/rulesets/parts-kendall-five.rules", [""], 4, [
        ("to=1 p1=22,26,28 p2=24,25,27,30", 5),
    ]),
    ("tests/rulesets/parts-kendall-hand.rules", [""], 6, [
        # entering with a 1 (another throw), square 1 taken by either side
        ("to=1 p1=3,5 h1=3 p2=1,2,4 h2=1", 5),
        # the water and pieces in hand: no entry while a piece is in it
        ("to=2 p1=24,27 h1=1 p2=1,26 h2=1", 5),
    ]),
    ("tests/rulesets/parts-kendall-remove.rules", [""], 5, [
        ("to=1 p1=22,25,26 p2=21,24,27,29", 5),
        # taking the opponent's last piece wins
        ("to=2 p1=23 p2=22,24", 6),
    ]),
    ("tests/rulesets/parts-piccione-protect.rules", [""], 6, [
        # shared-out throws that hit (swap), pairs that protect
        ("to=1 p1=3,5,9 h1=2 p2=4,10 h2=3", 4),
        # the entered piece's throw (must=1) among hits
        ("to=1 p1=1,4,9 h1=2 p2=2,3,12 h2=2 must=1", 4),
        # backward plays that hit; 28-30 never go back; the water to hand
        ("to=2 p1=13,14,26 h1=1 p2=16,24,28,29", 3),
    ]),
    ("data/rulesets/senet-kendall.rules",
     ["", "pieces=5,start=1,trap=1,homerow=1", "trap=1", "start=1",
      "pieces=5,homerow=1"], 4, [
        ("to=1 p1=5,21,24 p2=22,25,26,27", 5),
        ("to=1 p1=10,23,30 p2=24,28,29", 5),
    ]),
    ("data/rulesets/senet-robinson.rules",
     ["", "pieces=5,start=1,trap=1,homerow=1", "trap=1"], 4, [
        ("to=1 p1=20,22,24 p2=21,25,28,30", 5),
        ("to=1 p1=22,26 p2=24,28,30 must=26", 5),
    ]),
    ("data/rulesets/senet-bell.rules", [""], 3, [
        ("to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", 6),
    ]),
    ("data/rulesets/senet-jequier.rules", [""], 4, [
        ("to=1 p1=12,21 p2=14,15,16,25", 6),
    ]),
    ("data/rulesets/senet-piccione.rules", [""], 6, [
        ("to=2 p1=10 h1=4 p2=26,28 h2=3", 5),
        ("to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", 5),
    ]),
]

# Positions compared move by move (every throw, `none`, and the position
# after every move), each where two parts meet.
SPOTS = [
    ("tests/rulesets/parts-bell-pairs.rules", [
        "to=1 p1=- o1=5 p2=30 o2=5",            # BL8: no piece, every throw lost
        "to=2 p1=- o1=5 p2=30 o2=5",            # SP11: the last piece off, a draw
        "to=1 p1=17,19 o1=5 p2=20,21,22 o2=5",  # pairs across 20/21
        "to=1 p1=24,25 o1=6 p2=26,28 o2=5",     # vacate: none on a marked square
        "to=2 p1=24,25 o1=6 p2=26,28 o2=5",     # vacate with pairs on 24/25
        "to=1 p1=18,20 o1=8 p2=22 o2=9",        # the last piece taken: play on
        "to=2 p1=20 o1=8 p2=- o2=9",
    ]),
    ("tests/rulesets/parts-bell-water.rules", [
        "to=1 p1=27 o1=9 p2=25 o2=5",           # rescue, or 4 off from the water
        "to=2 p1=27 o1=9 p2=25 o2=5",           # the water's piece is marked: safe
        "to=2 p1=26,27 o1=8 p2=23,25 o2=5",
        "to=2 p1=- o1=9 p2=27 o2=9",            # score: the water's last piece
        "to=1 p1=15,27 o1=8 p2=24 o2=5",        # 15 taken: no rescue
    ]),
    ("tests/rulesets/parts-jequier-swap.rules", [
        "to=1 p1=9 p2=11,22",                   # a swap from the start row
        "to=1 p1=8,9 p2=10,12,22",              # locks
        "to=1 p1=1,2,3,4,24 p2=5,6,22,26",
        "to=1 p1=25,28,29 p2=22,24,30",         # backward to empty squares only
        "to=1 p1=21,23,30 p2=24,25,26,28",      # a block before bearing off
        "to=2 p1=1,2,3,4,5 p2=7,23,24",         # the water's lowest empty square
        "to=1 p1=7,28,29 p2=25,26,30",
    ]),
    ("tests/rulesets/parts-kendall-block.rules", [
        "to=1 p1=26 p2=27,28,29",               # a block bars 26-off and 26-30
        "to=1 p1=5,26 p2=27,28,29",
        "to=1 p1=12,28 p2=13,14,15,27",         # backward past a block
        "to=1 p1=17,28 p2=13,14,15,20",
    ]),
    ("tests/rulesets/parts-kendall-remove.rules", [
        "to=1 p1=20 p2=22",                     # taking the last piece wins
        "to=1 p1=21 p2=22",                     # ... with a 1: to= stays
        "to=1 p1=26 p2=27",                     # ... into the water (SP3, SP11)
        "to=1 p1=28 p2=27",                     # ... backward into the water
        "to=1 p1=28,30 p2=27",
        "to=1 p1=5,27 p2=24,26",
    ]),
    ("tests/rulesets/parts-kendall-again14.rules", [
        "to=1 p1=26 p2=27",
    ]),
    ("tests/rulesets/parts-kendall-hand.rules", [
        "to=1 p1=27 h1=2 p2=2 h2=6",            # no entry while in the water
        "to=1 p1=3 h1=2 p2=1 h2=6",             # square 1 taken: no entry, no hit
        "to=1 p1=2,3 h1=5 p2=4 h2=6",
        "to=1 p1=30 h1=1 p2=4 h2=6",            # the last on the board, one in hand
    ]),
    ("tests/rulesets/parts-piccione-protect.rules", [
        "to=1 p1=5,8 h1=3 p2=10 h2=4",          # 8-10 swaps, then 5-8 hits again
        "to=1 p1=5,8,13 h1=2 p2=10,15 h2=3",
        "to=1 p1=1,8,13 h1=2 p2=10,15 h2=3 must=1",
        "to=1 p1=1,2,3 h1=2 p2=4,5,6 h2=2 must=1",
        "to=1 p1=28,29,30 h1=2 p2=25,26 h2=3",
        "to=1 p1=7,28,29,30 h1=1 p2=4,5,6 h2=2",
        "to=1 p1=7,9,28 h1=2 p2=4,6,8 h2=2",
        "to=1 p1=12,24 h1=3 p2=13,14,25 h2=2",
        "to=1 p1=20,22 h1=3 p2=23,24,25 h2=2",
        "to=1 p1=24,25 h1=3 p2=26 h2=4",
        "to=1 p1=1,24,25 h1=2 p2=26 h2=4 must=1",
        "to=1 p1=1,5 h1=3 p2=2,3,4,6,7 must=1",
        "to=1 p1=29,30 p2=10 h2=4",
        "to=1 p1=30 p2=29 h2=4",
        "to=1 p1=11,13 h1=3 p2=12,14 h2=3",
        "to=1 p1=16,17 h1=3 p2=12,14 h2=3",     # backward hits, 15 gives a throw
        "to=1 p1=17 h1=4 p2=15,18,19 h2=2",
        "to=1 p1=2 h1=4 p2=1 h2=4",
        "to=1 p1=1,5 h1=3 p2=3 h2=4 must=1",    # the entered piece hits
        "to=1 p1=1,5 h1=3 p2=2,3 h2=3 must=1",
    ]),
    ("data/rulesets/senet-kendall.rules", [
        "to=1 p1=24 p2=27",
        "to=1 p1=27 p2=15",
        "to=1 p1=29 p2=27",                     # back into the water, a swap
        "to=1 p1=28 p2=26,27",                  # 26/27 a pair: no way back
    ]),
    ("data/rulesets/senet-robinson.rules", [
        "to=1 p1=22,26 p2=24,28,30 must=26",
        "to=1 p1=26,29 p2=27,28 must=26",       # the rethrow's piece backward
    ]),
]

# The documents' worked examples: (file, command, position or spec,
# throw, move, the documented output). The model must give it, and so must
# the program under the built-in id.
DOCS = [
    ("data/rulesets/senet-bell.rules", "start", "senet-bell", None, None,
     ["senet-bell to=1 p1=1,3,5,7,9,11,13,15,17,19 p2=2,4,6,8,10,12,14,16,18,20"]),
    ("data/rulesets/senet-bell.rules", "moves",
     "senet-bell to=1 p1=1,3,5,7,9,11,13,15,17,19 p2=2,4,6,8,10,12,14,16,18,20",
     "4", None, ["17-21", "19-23"]),
    ("data/rulesets/senet-bell.rules", "moves",
     "senet-bell to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "4", None, ["26-30"]),
    ("data/rulesets/senet-bell.rules", "moves",
     "senet-bell to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "2", None, ["12-14"]),
    ("data/rulesets/senet-bell.rules", "apply",
     "senet-bell to=1 p1=12,26 o1=3 p2=14,22,28 o2=2", "2", "12-14",
     ["senet-bell to=2 p1=14,26 o1=3 p2=22,28 o2=2"]),
    ("data/rulesets/senet-bell.rules", "apply",
     "senet-bell to=2 p1=- o1=6 p2=30 o2=5", "1", "30-off",
     ["senet-bell to=1 p1=- o1=6 p2=- o2=6 winner=0"]),
    ("data/rulesets/senet-piccione.rules", "start", "senet-piccione", None, None,
     ["senet-piccione to=1 p1=- h1=5 p2=- h2=5"]),
    ("data/rulesets/senet-piccione.rules", "apply",
     "senet-piccione to=1 p1=- h1=5 p2=- h2=5", "1", "in-1",
     ["senet-piccione to=1 p1=1 h1=4 p2=- h2=5 must=1"]),
    ("data/rulesets/senet-piccione.rules", "moves",
     "senet-piccione to=1 p1=1,3,14 h1=2 p2=2,5 h2=3", "2", None,
     ["14-16", "14-15+3-4"]),
    ("data/rulesets/senet-piccione.rules", "apply",
     "senet-piccione to=1 p1=1,3,14 h1=2 p2=2,5 h2=3", "2", "14-15+3-4",
     ["senet-piccione to=1 p1=1,4,15 h1=2 p2=2,5 h2=3"]),
    ("data/rulesets/senet-piccione.rules", "moves",
     "senet-piccione to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "4", None,
     ["1-5", "4-5+1-4"]),
    ("data/rulesets/senet-piccione.rules", "moves",
     "senet-piccione to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "3", None, ["pass"]),
    ("data/rulesets/senet-piccione.rules", "apply",
     "senet-piccione to=1 p1=1,4 h1=3 p2=2,3 h2=3 must=1", "3", "pass",
     ["senet-piccione to=2 p1=4 h1=4 p2=2,3 h2=3"]),
    ("data/rulesets/senet-piccione.rules", "moves",
     "senet-piccione to=2 p1=10 h1=4 p2=26,28 h2=3", "4", None,
     ["26-30", "28-30+26-28", "28-off+26-27"]),
    ("data/rulesets/senet-jequier.rules", "start", "senet-jequier", None, None,
     ["senet-jequier to=2 p1=1,3,5,7,9 p2=2,4,6,8,11"]),
    ("data/rulesets/senet-jequier.rules", "moves",
     "senet-jequier to=2 p1=1,3,5,7,9 p2=2,4,6,8,11", "2", None, ["11-13"]),
    ("data/rulesets/senet-jequier.rules", "apply",
     "senet-jequier to=1 p1=1,3,5,7,9 p2=2,4,6,8,11", "2", "9-11",
     ["senet-jequier to=2 p1=1,3,5,7,11 p2=2,4,6,8,9"]),
    ("data/rulesets/senet-jequier.rules", "moves",
     "senet-jequier to=1 p1=12,21 p2=14,15,16,25", "6", None, ["21-27"]),
    ("data/rulesets/senet-jequier.rules", "apply",
     "senet-jequier to=1 p1=12,21 p2=14,15,16,25", "6", "21-27",
     ["senet-jequier to=1 p1=1,12 p2=14,15,16,25"]),
    ("data/rulesets/senet-jequier.rules", "apply",
     "senet-jequier to=1 p1=12,21 p2=14,15,16,25", "4", "21-25",
     ["senet-jequier to=1 p1=12,25 p2=1,14,15,16"]),
    ("data/rulesets/senet-kendall.rules", "start", "senet-kendall:start=1,pieces=5",
     None, None,
     ["senet-kendall:pieces=5,start=1 to=1 p1=1,3,5,7,9 p2=2,4,6,8,10 wait=1,2"]),
    ("data/rulesets/senet-kendall.rules", "apply",
     "senet-kendall:start=1 to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14 wait=1,2",
     "1", "13-14",
     ["senet-kendall:start=1 to=1 p1=1,3,5,7,9,11,14 p2=2,4,6,8,10,12,13 wait=2"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall:trap=1 to=1 p1=24 p2=10", "4", None, ["24-27"]),
    ("data/rulesets/senet-kendall.rules", "apply",
     "senet-kendall:trap=1 to=1 p1=24 p2=10", "4", "24-27",
     ["senet-kendall:trap=1 to=2 p1=27 p2=10"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall to=1 p1=24 p2=10", "4", None, ["24-20"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall:homerow=1 to=1 p1=5,30 p2=12", "5", None, ["5-10"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall to=1 p1=5,27 p2=12", "none", None, ["throw", "27-15"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall to=1 p1=5,27 p2=12", "4", None, ["27-off"]),
    ("data/rulesets/senet-kendall.rules", "moves",
     "senet-kendall to=1 p1=5,27 p2=12", "3", None, ["pass"]),
]

# What the random games made happen, to show what they covered.
EVENTS = None


def event(name):
    if EVENTS is not None:
        EVENTS[name] = EVENTS.get(name, 0) + 1


def unview_side(st, player):
    return st[1] if player == 1 else st[4]


def note_events(R, st, v, mv, after):
    """Counts what a move did (for the summary of `all`)."""
    if v is not None and view(st)[7] and v != R.wait:
        event("waiting, throw lost")
        return
    if mv == "pass":
        event("pass")
        return
    if v is None:
        event("rescue")
        return
    if mv == ("in",):
        event("entry")
        return
    if len(mv) > 1:
        event("shared-out throw")
    for s, t, k in mv:
        if k == "off":
            event("bear-off")
        elif k == "fall":
            event("trap fall")
        elif k == "pw":
            event("water, sent on")
        elif t < s:
            event("backward")
        if k == "sq" and t == R.W:
            event("into the water")
    theirs_before = view(st)[3]
    theirs_after = unview_side(after, 3 - st[0])
    if theirs_after != theirs_before:
        event("hit")
    if after[0] == st[0] and not after[7] and after[10] is None:
        event("another throw")
    if after[7]:
        event("must=")
    if after[10] is not None:
        event("win")


class Checker:
    def __init__(self, games, verbose=True):
        self.prog = Program()
        self.games = games
        self.bad = 0
        self.compared = {"perft": 0, "positions": 0, "moves": 0, "apply": 0,
                         "docs": 0}
        self.tmp = tempfile.mkdtemp(prefix="senet-parts-ref-")
        self.verbose = verbose
        self.files = {}

    def say(self, *a):
        print(*a)
        sys.stdout.flush()

    def fail(self, *a):
        self.bad += 1
        print("BAD", *a)
        sys.stdout.flush()

    def open(self, path):
        """The file as the model reads it, the --rules arguments, and the
        built-in id when the file takes one (then the program reads a copy
        whose id is ref-ID: a file may not take a built-in id)."""
        if path in self.files:
            return self.files[path]
        rf = RulesFile(path)
        builtin = None
        args = ["--rules", path]
        if os.path.abspath(os.path.dirname(path)) == os.path.join(ROOT, "data", "rulesets"):
            lines = rf.text.split("\n")
            for i, l in enumerate(lines):
                w = l.split()
                if w[:2] == ["id", rf.id]:
                    lines[i] = l.replace(rf.id, "ref-" + rf.id, 1)
                    break
            copy = os.path.join(self.tmp, "ref-" + os.path.basename(path))
            with open(copy, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            builtin = rf.id
            rf = RulesFile(copy)
            args = ["--rules", copy]
        self.files[path] = (rf, args, builtin)
        return self.files[path]

    def check_perft(self, rf, args, spec, depth, pos=None, builtin=None):
        R = rf.rules(spec)
        st = parse_position(rf, "%s %s" % (R.spec, pos))[1] if pos else start_state(R)
        t0 = time.time()
        mine = perft(R, st, depth)
        dt = time.time() - t0
        targets = [(args, R.spec)]
        if builtin:
            targets.append(([], builtin + R.spec[len(rf.id):]))
        for a, sp in targets:
            theirs, err = self.prog.perft(a, sp, depth, "%s %s" % (sp, pos) if pos else None)
            self.compared["perft"] += 1
            where = "%s %d %s" % (sp, depth, pos or "(start)")
            if theirs != mine:
                self.fail("perft %s: program %s, model %s %s" % (where, theirs, mine, err or ""))
            elif self.verbose:
                self.say("ok   perft %s: %s (model %.1fs)" % (where, mine[-1], dt))

    def compare_position(self, R, args, st):
        """The moves of every throw and the choices before it; False at the
        first difference."""
        pos = fmt_position(R, st)
        self.compared["positions"] += 1
        ok = True
        for v in [None] + list(R.throws):
            tv = "none" if v is None else str(v)
            mine = [t for t, _ in moves_of(R, st, v)]
            theirs, err = self.prog.moves(args, pos, tv)
            self.compared["moves"] += 1
            if theirs is None:
                self.fail("moves '%s' %s: program error: %s" % (pos, tv, err))
                return False
            if len(set(map(move_key, theirs))) != len(theirs):
                self.fail("moves '%s' %s: the program lists a move twice: %s"
                          % (pos, tv, " ".join(theirs)))
                ok = False
            if sorted(map(str, map(sorted_key, mine))) != \
                    sorted(map(str, map(sorted_key, theirs))):
                self.fail("moves '%s' %s:\n      program: %s\n      model:   %s"
                          % (pos, tv, " ".join(sorted(theirs)), " ".join(sorted(mine))))
                ok = False
        return ok

    def compare_apply(self, R, args, st, v, text, mv):
        pos = fmt_position(R, st)
        tv = "none" if v is None else str(v)
        mine = fmt_position(R, state_after(R, st, v, mv)) if mv != "throw" else pos
        theirs, err = self.prog.apply(args, pos, tv, text)
        self.compared["apply"] += 1
        if theirs != mine:
            self.fail("apply '%s' %s %s:\n      program: %s\n      model:   %s"
                      % (pos, tv, text, theirs if theirs else err, mine))
            return False
        return True

    def compare_all(self, R, args, st):
        ok = self.compare_position(R, args, st)
        for v in [None] + list(R.throws):
            for text, mv in moves_of(R, st, v):
                ok &= self.compare_apply(R, args, st, v, text, mv)
        return ok

    def random_games(self, rf, args, spec, games, seed, every=4, max_plies=600):
        R = rf.rules(spec)
        rnd = random.Random(seed)
        for g in range(games):
            st = start_state(R)
            for ply in range(max_plies):
                if st[10] is not None:
                    break
                pre = moves_of(R, st, None)[1:]
                v = rnd.choice(R.throws)
                ms = moves_of(R, st, v)
                if ply % every == 0:
                    if not self.compare_position(R, args, st):
                        break
                    good = True
                    for text, mv in ms:
                        good &= self.compare_apply(R, args, st, v, text, mv)
                    for text, mv in pre:
                        good &= self.compare_apply(R, args, st, None, text, mv)
                    if not good:
                        break
                if pre and rnd.random() < 0.5:
                    v, (text, mv) = None, rnd.choice(pre)
                else:
                    text, mv = rnd.choice(ms)
                after = state_after(R, st, v, mv)
                note_events(R, st, v, mv, after)
                st = after

    def check_docs(self, path):
        rf, args, builtin = self.open(path)
        for f, cmd, pos, throw, move, want in DOCS:
            if f != path:
                continue
            self.compared["docs"] += 1
            # the model, reading the file under its own id
            orf = RulesFile(f)
            if cmd == "start":
                R = orf.rules(pos)
                got = [fmt_position(R, start_state(R))]
                args_p = ["start", pos]
            else:
                R, st = parse_position(orf, pos)
                v = None if throw == "none" else int(throw)
                if cmd == "moves":
                    got = [t for t, _ in moves_of(R, st, v)]
                    args_p = ["moves", pos, throw]
                else:
                    mv = [m for t, m in moves_of(R, st, v) if move_key(t) == move_key(move)]
                    got = [fmt_position(R, state_after(R, st, v, mv[0]))] if mv else ["illegal"]
                    args_p = ["apply", pos, throw, move]
            rc, out, err = self.prog.run(args_p)
            prog = [l for l in out.split("\n") if l.strip()] if rc == 0 else [err]
            key = lambda xs: sorted(map(str, map(sorted_key, xs)))
            if key(got) != key(want):
                self.fail("the documented example %s %s: the model gives %s, the "
                          "document %s" % (cmd, " ".join(args_p[1:]), got, want))
            if key(prog) != key(want):
                self.fail("the documented example %s %s: the program gives %s, the "
                          "document %s" % (cmd, " ".join(args_p[1:]), prog, want))

    def check_file(self, path, specs, depth, positions):
        rf, args, builtin = self.open(path)
        t0 = time.time()
        for i, opt in enumerate(specs):
            spec = rf.id + (":" + opt if opt else "")
            self.check_perft(rf, args, spec, depth if not opt else min(depth, 3),
                             builtin=builtin)
            if not opt:
                for pos, d in positions:
                    self.check_perft(rf, args, spec, d, pos, builtin=builtin)
        for p, poss in SPOTS:
            if p == path:
                for pos in poss:
                    R, st = parse_position(rf, "%s %s" % (rf.id, pos))
                    self.compare_all(R, args, st)
        self.check_docs(path)
        for i, opt in enumerate(specs):
            spec = rf.id + (":" + opt if opt else "")
            self.random_games(rf, args, spec, self.games if not opt else max(1, self.games // 2),
                              seed=zlib.crc32((path + opt).encode()))
        self.say("     %s: %.1fs" % (path, time.time() - t0))


def sorted_key(text):
    k = move_key(text)
    return sorted(k) if isinstance(k, frozenset) else [k]


def main(argv):
    global EVENTS
    os.chdir(ROOT)
    sys.setrecursionlimit(10000)
    if len(argv) >= 2 and argv[1] in ("perft", "moves", "apply"):
        rf = RulesFile(argv[2])
        if argv[1] == "perft":
            R = rf.rules(argv[3])
            st = parse_position(rf, argv[5])[1] if len(argv) > 5 else start_state(R)
            for d, n in enumerate(perft(R, st, int(argv[4])), 1):
                print("perft %s %d: %d" % (R.spec, d, n))
            return 0
        R, st = parse_position(rf, argv[3])
        v = None if argv[4] == "none" else int(argv[4])
        ms = moves_of(R, st, v)
        if argv[1] == "moves":
            print("\n".join(t for t, _ in ms))
            return 0
        want = move_key(argv[5])
        for t, m in ms:
            if move_key(t) == want:
                print(fmt_position(R, st) if m == "throw" else
                      fmt_position(R, state_after(R, st, v, m)))
                return 0
        print("illegal move: %s" % argv[5], file=sys.stderr)
        return 2
    args = argv[1:]
    games = 2
    if args[:1] == ["--games"]:
        games, args = int(args[1]), args[2:]
    if not args:
        print(__doc__)
        return 2
    ck = Checker(games=games)
    EVENTS = {}
    t0 = time.time()
    if args == ["all"]:
        todo = list(CASES)
        listed = {c[0] for c in CASES}
        for name in sorted(os.listdir(os.path.join(ROOT, "tests", "rulesets"))):
            rel = "tests/rulesets/" + name
            if name.startswith("parts-") and name.endswith(".rules") and rel not in listed:
                todo.append((rel, [""], 3, []))         # a file added since
    else:
        todo = []
        for a in args:
            rel = os.path.relpath(os.path.abspath(a), ROOT)
            found = [c for c in CASES if c[0] == rel]
            todo.extend(found or [(rel, [""], 3, [])])
    try:
        for path, specs, depth, positions in todo:
            ck.check_file(path, specs, depth, positions)
    finally:
        shutil.rmtree(ck.tmp, ignore_errors=True)
    c = ck.compared
    print("random games made: " + ", ".join("%s %d" % kv for kv in sorted(EVENTS.items())))
    print("%s: %d perft comparisons, %d documented examples, %d positions compared "
          "(%d move lists, %d positions after a move), %d program runs, %.0fs"
          % ("FAILED (%d)" % ck.bad if ck.bad else "all agree", c["perft"], c["docs"],
             c["positions"], c["moves"], c["apply"], ck.prog.calls, time.time() - t0))
    return 1 if ck.bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Err as e:
        print("error: %s" % e, file=sys.stderr)
        sys.exit(2)
