#!/usr/bin/env python3
"""Independent reference model of kemet ruleset `senet-piccione` (Peter
Piccione's Senet, CADACO "King Tut's Game"), written from reconstructions.md
section 0 (R1-R8) and section 2 (rules 1-10, rulings PC1-PC12, notation and
worked examples), rulings.md (G1-G6, K1) and notation.md only, without
reading the C sources.

It counts the game tree as `kemet perft` does (interface and perft semantics
copied from tests/bell_ref.py and tests/jequier_ref.py): at each ply, for each
distinct value of the four sticks "0 counts 5" (1, 2, 3, 4, 5, unweighted),
each legal move (play) gives a child, a `pass` (no legal play) is one child;
a finished game or depth 0 is a leaf.  Piccione has no choice before the
throw.  Two different plays that give the same position are two moves.

Usage:
  piccione_ref.py moves 'POSITION' THROW
  piccione_ref.py apply 'POSITION' THROW MOVE
  piccione_ref.py start [SPEC]
  piccione_ref.py perft SPEC DEPTH ['POSITION']
  piccione_ref.py value 'POSITION'   (the mover's exact chance, one piece a side)
  piccione_ref.py --selftest [N]     (fast generator vs a naive sequential one)

Order of `moves` (agreed with the C side): `in-1` first when legal; then the
plays by number of steps, fewest first; among plays with the same number of
steps, the steps in their written order (forward plays: descending FROM;
backward plays: ascending FROM) compared step by step, each step by FROM
ascending, then TO ascending, `off` after every square.

Readings taken where the text leaves room:
  * A play (PC1-PC3) is a set of steps on different pieces of the mover,
    each d >= 1, the d summing to the throw; forward targets s+d <= 31
    (31 = off, exact: rule 7/PC4), backward targets s-d >= 1, pieces on 28-30
    never backward (rule 5).  Targets <= 30 pairwise different (27 included,
    PC7); each target <= 30 other than 27 must be empty before the move or
    the start of another step of the play.  An opponent's piece is never a
    legal target (rule 3: no capture, one piece a square).
  * Rule 7's "bearing off is never compulsory" only says a bear-off is a
    choice among the forward plays; it removes no play.
  * Direction (rule 4, PC5): the forward plays of the throw are in-1 (when
    legal) and every forward play; backward plays are legal only when there
    is none of those.  No play at all: `pass`, the throw is lost and the turn
    passes, even after a 5 (PC9).
  * must=1 (rule 9, PC10): the legal plays are exactly the forward plays that
    contain a step from square 1 (other steps forward too); no entering, no
    backward play.  None: `pass`, the piece on 1 goes to hand, the turn
    passes.  After a legal play must= is dropped and PC8 applies as usual.
  * Extra throw (rule 8, PC8): after a play (not a pass) with throw 5, or
    in-1, or with a part ending on 15 or 26 (forward or backward), to= stays;
    at most one extra throw.  A part ending on 27 (R6, PC7) sends the piece
    to its owner's hand and neither earns nor cancels anything.
  * The game ends when the mover has no piece on the board and none in hand
    (rule 10); to= is then what the turn rules give (notation.md): the mover
    again after a 5 (a winning play can have no part ending on 15/26/27),
    the opponent otherwise; winner= is added and must= dropped.
  * Positions: squares 1-30 except 27 (R6), no shared square, board + hand
    <= 5 a side.  h1=0/h2=0 are read (and printed without them).  must= only
    as must=1 with a piece of the player to move on 1 (PC12).  winner=N needs
    player N to have nothing on the board or in hand and the loser to have
    something left; without winner= both players must have something left.
"""
import sys

BASE = "senet-piccione"
NPIECES = 5
THROWS = (1, 2, 3, 4, 5)            # four sticks, "0 counts 5" (R4, G2)
WATER = 27                          # rule 6
OFF = 31                            # bear-off target (rule 7)
BONUS = (15, 26)                    # rule 8
FIELDS = ("to", "p1", "h1", "p2", "h2", "must", "winner")
BOARD = ((1 << 31) - 1) & ~1        # bits 1..30


class Err(Exception):
    pass


def parse_spec(tok):
    if tok == BASE:
        return {}
    if tok.startswith(BASE + ":"):
        rest = tok[len(BASE) + 1:]
        if rest == "":
            raise Err("empty option list")
        k = rest.split(",")[0].split("=")[0]
        raise Err("unknown option key: %s" % k)   # senet-piccione has no options
    raise Err("unknown ruleset: %s" % tok)


def spec_str(opts):
    return BASE


def parse_int(s, what):
    if not (s.isascii() and s.isdigit()):
        raise Err("not a number in %s: %r" % (what, s))
    return int(s)


def squares_of(mask):
    out = []
    s = 1
    m = mask >> 1
    while m:
        if m & 1:
            out.append(s)
        m >>= 1
        s += 1
    return out


# state: (to, m1, h1, m2, h2, must, winner)
#   m1/m2 bitmasks (bit s = square s), h1/h2 pieces in hand,
#   must True/False (must=1), winner None while the game goes on, else 1/2.
def parse_position(text, spec_override=None):
    toks = text.split()
    if not toks:
        raise Err("empty position")
    parse_spec(toks[0])
    fields = {}
    for t in toks[1:]:
        if "=" not in t:
            raise Err("malformed field: %s" % t)
        k, v = t.split("=", 1)
        if k not in FIELDS:
            raise Err("unknown field: %s" % k)
        if k in fields:
            raise Err("repeated field: %s" % k)
        fields[k] = v
    for k in ("to", "p1", "p2"):
        if k not in fields:
            raise Err("missing field: %s" % k)
    to = parse_int(fields["to"], "to")
    if to not in (1, 2):
        raise Err("to must be 1 or 2")
    masks = []
    hands = []
    for pl in (1, 2):
        v = fields["p%d" % pl]
        sq = [] if v == "-" else [parse_int(x, "p%d" % pl) for x in v.split(",")]
        for s in sq:
            if not 1 <= s <= 30:
                raise Err("square out of range in p%d: %d" % (pl, s))
            if s == WATER:
                raise Err("a piece on the water (27) in p%d (R6, PC12)" % pl)
        if len(set(sq)) != len(sq):
            raise Err("two pieces on one square in p%d" % pl)
        h = parse_int(fields["h%d" % pl], "h%d" % pl) if ("h%d" % pl) in fields else 0
        if len(sq) + h > NPIECES:
            raise Err("too many pieces for player %d (board + hand > %d)" % (pl, NPIECES))
        masks.append(sum(1 << s for s in sq))
        hands.append(h)
    if masks[0] & masks[1]:
        raise Err("both players on square %d" % squares_of(masks[0] & masks[1])[0])
    must = False
    if "must" in fields:
        m = parse_int(fields["must"], "must")
        if m != 1:
            raise Err("must= can only be 1 in senet-piccione (PC10)")
        if not (masks[to - 1] >> 1) & 1:
            raise Err("must=1 but player %d has no piece on square 1 (PC12)" % to)
        must = True
    winner = None
    left = [bool(masks[i]) or hands[i] > 0 for i in (0, 1)]
    if "winner" in fields:
        winner = parse_int(fields["winner"], "winner")
        if winner not in (1, 2):
            raise Err("winner must be 1 or 2")
        if must:
            raise Err("winner= together with must= (R3)")
        if left[winner - 1]:
            raise Err("winner %d still has pieces on the board or in hand" % winner)
        if not left[2 - winner]:
            raise Err("both players have borne off every piece")
    else:
        for pl in (1, 2):
            if not left[pl - 1]:
                raise Err("player %d has borne off every piece but no winner= given" % pl)
    return {}, (to, masks[0], hands[0], masks[1], hands[1], must, winner)


def fmt_position(opts, st):
    to, m1, h1, m2, h2, must, winner = st
    out = [spec_str(opts), "to=%d" % to,
           "p1=" + (",".join(map(str, squares_of(m1))) if m1 else "-")]
    if h1:
        out.append("h1=%d" % h1)
    out.append("p2=" + (",".join(map(str, squares_of(m2))) if m2 else "-"))
    if h2:
        out.append("h2=%d" % h2)
    if must:
        out.append("must=1")
    if winner is not None:
        out.append("winner=%d" % winner)
    return " ".join(out)


def start_state():
    return (1, 0, NPIECES, 0, NPIECES, False, None)


# ---------------------------------------------------------------------------
# Plays.  A play is a tuple of steps (s, t) in written order; t == OFF for a
# bear-off; ("in",) marks in-1 and () marks pass.

def _plays_dir(mine, theirs, v, forward, need1):
    """All legal plays of throw v in one direction (PC1), each a tuple of
    steps in written order."""
    pcs = squares_of(mine)
    if not forward:
        pcs = [s for s in pcs if s < 28]                # rule 5
        pcs.reverse()                                   # enumerate high..low
    # forward: enumerate low..high, then reverse each play for written order
    res = []
    steps = []
    n = len(pcs)

    def rec(i, rem):
        if rem == 0:
            if steps:
                check()
            return
        if i == n:
            return
        rec(i + 1, rem)
        s = pcs[i]
        for d in range(1, rem + 1):
            t = s + d if forward else s - d
            if t > OFF or t < 1:
                break
            steps.append((s, t))
            rec(i + 1, rem - d)
            steps.pop()

    def check():
        if need1 and steps[0][0] != 1:                  # PC10
            return
        starts = 0
        for s, _ in steps:
            starts |= 1 << s
        seen = 0
        for s, t in steps:
            if t == OFF:
                continue
            b = 1 << t
            if seen & b:                                # targets differ
                return
            seen |= b
            if t == WATER:
                continue                                # 27 is always empty
            if theirs & b:
                return
            if (mine & b) and not (starts & b):
                return
        # steps were found low..high (forward) or high..low (backward):
        # reversed, they are in written order (descending / ascending FROM)
        res.append(tuple(steps[::-1]))

    rec(0, v)
    return res


def legal_plays(mine, mh, theirs, must, v):
    """The legal plays in `moves` order; [()] (pass) when none."""
    if must:
        plays = _plays_dir(mine, theirs, v, True, True)
        entry = []
    else:
        plays = _plays_dir(mine, theirs, v, True, False)
        entry = [("in",)] if (v == 1 and mh > 0 and not ((mine | theirs) >> 1) & 1) else []  # PC6: square 1 empty of either side
        if not plays and not entry:
            plays = _plays_dir(mine, theirs, v, False, False)
    plays.sort(key=lambda p: (len(p), p))
    res = entry + plays
    return res if res else [()]


def apply_play(mine, mh, theirs, must, v, play):
    """Return (new_mine, new_mh, kind) where kind is 'pass', 'again', 'next'
    or 'won'."""
    if play == ():
        if must:                                         # PC10: back to hand
            return mine & ~2, mh + 1, "pass"
        return mine, mh, "pass"                          # PC9
    if play == ("in",):
        return mine | 2, mh - 1, "again"                 # rule 1, must=1 follows
    nm = mine
    nh = mh
    bonus = v == 5
    for s, _ in play:
        nm &= ~(1 << s)
    for s, t in play:
        if t == OFF:
            continue
        if t == WATER:
            nh += 1                                      # rule 6, PC7
            continue
        nm |= 1 << t
        if t in BONUS:
            bonus = True
    if nm == 0 and nh == 0:
        return nm, nh, "won" if not bonus else "won-again"
    return nm, nh, "again" if bonus else "next"


def play_text(play):
    if play == ():
        return "pass"
    if play == ("in",):
        return "in-1"
    return "+".join("%d-%s" % (s, "off" if t == OFF else t) for s, t in play)


def gen_moves(opts, st, v):
    """[(text, child_state)] in `moves` order."""
    to, m1, h1, m2, h2, must, winner = st
    if winner is not None:
        raise Err("the game is over")
    if to == 1:
        mine, mh, theirs, th = m1, h1, m2, h2
    else:
        mine, mh, theirs, th = m2, h2, m1, h1
    out = []
    for play in legal_plays(mine, mh, theirs, must, v):
        nm, nh, kind = apply_play(mine, mh, theirs, must, v, play)
        nmust = play == ("in",)
        w = None
        if kind == "won":
            nto, w = 3 - to, to
        elif kind == "won-again":
            nto, w = to, to
        elif kind == "again":
            nto = to
        else:
            nto = 3 - to
        if to == 1:
            ch = (nto, nm, nh, theirs, th, nmust, w)
        else:
            ch = (nto, theirs, th, nm, nh, nmust, w)
        out.append((play_text(play), ch, play))
    return out


def parse_move(text):
    """A move's text as a play key: 'pass', 'in', or a frozenset of steps."""
    if text == "pass":
        return "pass"
    if text == "in-1":
        return "in"
    steps = []
    for part in text.split("+"):
        a, sep, b = part.partition("-")
        if not sep:
            raise Err("malformed move: %s" % text)
        s = parse_int(a, "move")
        t = OFF if b == "off" else parse_int(b, "move")
        if not (1 <= s <= 30 and 1 <= t <= OFF):
            raise Err("square out of range in move: %s" % text)
        if b != "off" and t == OFF:
            raise Err("malformed move (bearing off is written off): %s" % text)
        steps.append((s, t))
    if len(set(s for s, _ in steps)) != len(steps):
        raise Err("illegal move (a piece moves twice, PC2): %s" % text)
    return frozenset(steps)


def play_key(play):
    if play == ():
        return "pass"
    if play == ("in",):
        return "in"
    return frozenset(play)


def check_throw(opts, s):
    v = parse_int(s, "throw")
    if v not in THROWS:
        raise Err("impossible throw for the sticks (1-5): %s" % s)
    return v


# ---------------------------------------------------------------------------
def perft_all(opts, st, depth):
    """Colour-symmetric: a node is (mine, mh, theirs, th, must)."""
    memo = {}
    kids = {}

    def children(node):
        c = kids.get(node)
        if c is None:
            mine, mh, theirs, th, must = node
            c = []
            for v in THROWS:
                for play in legal_plays(mine, mh, theirs, must, v):
                    nm, nh, kind = apply_play(mine, mh, theirs, must, v, play)
                    if kind.startswith("won"):
                        c.append(None)                   # leaf
                    elif kind == "again":
                        c.append((nm, nh, theirs, th, play == ("in",)))
                    else:
                        c.append((theirs, th, nm, nh, False))
            kids[node] = c
        return c

    nleaf = {}

    def leaves(node):
        # d == 1: the number of children, without keeping them
        r = nleaf.get(node)
        if r is None:
            c = kids.get(node)
            if c is not None:
                r = len(c)
            else:
                mine, mh, theirs, th, must = node
                r = sum(len(legal_plays(mine, mh, theirs, must, v)) for v in THROWS)
            nleaf[node] = r
        return r

    def count(node, d):
        if d == 0:
            return 1
        if d == 1:
            return leaves(node)
        key = (node, d)
        r = memo.get(key)
        if r is None:
            r = 0
            for ch in children(node):
                r += 1 if ch is None else count(ch, d - 1)
            memo[key] = r
        return r

    to, m1, h1, m2, h2, must, winner = st
    if winner is not None:
        return [1] * depth
    node = (m1, h1, m2, h2, must) if to == 1 else (m2, h2, m1, h1, must)
    return [count(node, d) for d in range(1, depth + 1)]


# ---------------------------------------------------------------------------
# A deliberately different generator for --selftest: plays are found by
# carrying out steps one at a time in every order (each step onto a square
# empty at that moment), then deduplicated as sets.
def naive_plays(mine, mh, theirs, must, v):
    def comps(pieces, v):
        # all assignments of parts >= 1 to ordered tuples of distinct pieces
        out = []

        def rec(used, rem, acc):
            if rem == 0:
                if acc:
                    out.append(list(acc))
                return
            for p in pieces:
                if p in used:
                    continue
                for d in range(1, rem + 1):
                    rec(used | {p}, rem - d, acc + [(p, d)])
        rec(frozenset(), v, [])
        return out

    def run(direction):
        found = set()
        pcs = sorted(mine)
        if direction < 0:
            pcs = [p for p in pcs if p not in (28, 29, 30)]
        for seq in comps(pcs, v):
            board = {p: "m" for p in mine}
            board.update({p: "o" for p in theirs})
            ok = True
            steps = []
            for p, d in seq:
                t = p + direction * d
                if t < 1 or t > 31:
                    ok = False
                    break
                del board[p]
                if t <= 30:
                    if t in board:
                        ok = False
                        break
                    board[t] = "m"
                steps.append((p, t))
            if not ok:
                continue
            # (a part ending on 27 marks it taken above, so a second part may
            # not end there too, PC7)
            if must and direction > 0 and 1 not in [s for s, _ in steps]:
                continue
            found.add(frozenset(steps))
        return found

    if must:
        f = run(1)
        return f if f else {"pass"}
    f = run(1)
    if v == 1 and mh > 0 and 1 not in mine:
        f.add("in")
    if not f:
        f = run(-1)
    return f if f else {"pass"}


def selftest(n=3000, seed=1):
    import random
    rnd = random.Random(seed)
    squares = [s for s in range(1, 31) if s != 27]
    for i in range(n):
        k1 = rnd.randint(1, 5)
        k2 = rnd.randint(0, 5)
        pool = squares
        r = rnd.random()
        if r < 0.3:
            pool = [s for s in squares if s >= 18]
        elif r < 0.5:
            pool = [s for s in squares if s <= 14]
        if len(pool) < k1 + k2:
            pool = squares
        sq = rnd.sample(pool, k1 + k2)
        mine, theirs = set(sq[:k1]), set(sq[k1:])
        mh = rnd.randint(0, 5 - k1)
        must = 1 in mine and rnd.random() < 0.5
        mm = sum(1 << s for s in mine)
        tm = sum(1 << s for s in theirs)
        for v in THROWS:
            fast = legal_plays(mm, mh, tm, must, v)
            keys = [play_key(p) for p in fast]
            if len(set(keys)) != len(keys):
                raise Err("selftest: duplicate plays")
            slow = naive_plays(mine, mh, theirs, must, v)
            if set(keys) != slow:
                raise Err("selftest mismatch: mine=%s theirs=%s mh=%d must=%s v=%d\n%s\n%s"
                          % (sorted(mine), sorted(theirs), mh, must, v,
                             sorted(map(str, keys)), sorted(map(str, slow))))
    return "selftest ok (%d positions x 5 throws)" % n


# ---------------------------------------------------------------------------
# The exact value of a position with one piece a side, on the board or in
# hand (to check kemet's endgame tables): the mover's chance to win when
# both play to win, by value iteration over every such node (mine, mh,
# theirs, th, must). The sticks' chances: 4, 6, 4, 1 and 1 in 16 for 1, 2,
# 3, 4 and 5 (R4).
WEIGHT = {1: 4 / 16, 2: 6 / 16, 3: 4 / 16, 4: 1 / 16, 5: 1 / 16}


def solve_one():
    sides = [(1 << s, 0) for s in range(1, 31) if s != WATER] + [(0, 1)]
    nodes = []
    for m, mh in sides:
        for t, th in sides:
            if m and m == t:
                continue
            nodes.append((m, mh, t, th, False))
            if m == 2:
                nodes.append((m, mh, t, th, True))
    V = {n: 0.5 for n in nodes}
    while True:
        change = 0.0
        for node in nodes:
            mine, mh, theirs, th, must = node
            v = 0.0
            for t, w in WEIGHT.items():
                best = 0.0
                for play in legal_plays(mine, mh, theirs, must, t):
                    nm, nh, kind = apply_play(mine, mh, theirs, must, t, play)
                    if kind.startswith("won"):
                        c = 1.0
                    elif kind == "again":
                        c = V[(nm, nh, theirs, th, play == ("in",))]
                    else:
                        c = 1 - V[(theirs, th, nm, nh, False)]
                    best = max(best, c)
                v += w * best
            change = max(change, abs(v - V[node]))
            V[node] = v
        if change < 1e-13:
            return V


def main(argv):
    if len(argv) < 2:
        raise Err("usage: piccione_ref.py moves|apply|start|perft ...")
    cmd = argv[1]
    if cmd == "--selftest":
        return selftest(int(argv[2]) if len(argv) > 2 else 3000)
    if cmd == "moves" and len(argv) == 4:
        opts, st = parse_position(argv[2])
        if st[6] is not None:
            raise Err("the game is over")
        if argv[3] == "none":
            return "throw"
        v = check_throw(opts, argv[3])
        return "\n".join(m for m, _, _ in gen_moves(opts, st, v))
    if cmd == "apply" and len(argv) == 5:
        opts, st = parse_position(argv[2])
        if st[6] is not None:
            raise Err("the game is over")
        if argv[3] == "none":
            if argv[4] == "throw":
                return fmt_position(opts, st)
            raise Err("illegal move before the throw: %s" % argv[4])
        v = check_throw(opts, argv[3])
        want = parse_move(argv[4])
        for _, ch, play in gen_moves(opts, st, v):
            if play_key(play) == want:
                return fmt_position(opts, ch)
        raise Err("illegal move: %s" % argv[4])
    if cmd == "start" and len(argv) in (2, 3):
        opts = parse_spec(argv[2]) if len(argv) == 3 else {}
        return fmt_position(opts, start_state())
    if cmd == "value" and len(argv) == 3:
        _, st = parse_position(argv[2])
        to, m1, h1, m2, h2, must, winner = st
        if winner is not None or bin(m1).count("1") + h1 != 1 or bin(m2).count("1") + h2 != 1:
            raise Err("value: a game going on with one piece a side")
        node = (m1, h1, m2, h2, must) if to == 1 else (m2, h2, m1, h1, must)
        return "%.9f" % solve_one()[node]
    if cmd == "perft" and len(argv) in (4, 5):
        opts = parse_spec(argv[2])
        depth = parse_int(argv[3], "depth")
        if len(argv) == 5:
            _, st = parse_position(argv[4], spec_override=opts)
        else:
            st = start_state()
        sys.setrecursionlimit(10000)
        counts = perft_all(opts, st, depth)
        name = spec_str(opts)
        return "\n".join("perft %s %d: %d" % (name, d, c) for d, c in enumerate(counts, 1))
    raise Err("bad command line")


if __name__ == "__main__":
    try:
        out = main(sys.argv)
    except Err as e:
        sys.stderr.write("error: %s\n" % e)
        sys.exit(2)
    if out:
        print(out)
