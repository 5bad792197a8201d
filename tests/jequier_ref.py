#!/usr/bin/env python3
"""Independent reference model of kemet ruleset `senet-jequier` (Gustave
Jequier's Senet), written from reconstructions.md section 0 (R1-R8) and
section 3 (rules 1-10, rulings JQ1-JQ11, notation and worked examples),
rulings.md (G1-G6, K1) and notation.md only, without reading the C sources.

It counts the game tree as `kemet perft` does (interface and perft semantics
copied from tests/bell_ref.py and tests/carter_ref.py): at each ply, for each
distinct value of the four sticks "0 counts 6" (1, 2, 3, 4, 6, unweighted),
each legal move gives a child, a `pass` (no legal move) is one child; a
finished game or depth 0 is a leaf.

Usage:
  jequier_ref.py moves 'POSITION' THROW
  jequier_ref.py apply 'POSITION' THROW MOVE
  jequier_ref.py start [SPEC]
  jequier_ref.py perft SPEC DEPTH ['POSITION']
  jequier_ref.py score 'POSITION'      (points of the winner, rule 10 / JQ11)
  jequier_ref.py value 'POSITION'      (the mover's exact chance, one piece a side)
  jequier_ref.py --selftest [N]        (fast generator vs a naive one)

Readings taken where the text leaves room:
  * Lock (rule 2, JQ2): a piece on 1-10 with square s+1 occupied (either
    colour) has no move at all, forward or backward; it cannot serve as a
    "forward move" for rule 7 either.
  * Protection (rule 4, JQ3, JQ4) is judged on the position before the move;
    neighbours are t-1 and t+1 on the track (10/11 and 20/21 adjacent); no
    square 0 / 31 exists.
  * Blocks (JQ5) are the opponent's pieces only, strictly between the start
    and the end of the count (bear-off end = 31).
  * A forward count reaching 31+ is a move only while all the mover's pieces
    are on 21-30 (JQ9); otherwise that piece has no forward move with this
    throw (it does not stop short on 30).
  * Backward moves (rule 7, JQ8) only when no piece has a forward move
    (bear-off included); to an empty square >= 1, never capturing; a
    backward count ending on 27 is the water (JQ7).
  * Sent-back pieces (JQ6, JQ7) go to the lowest empty square judged after
    the move: the mover's square of departure is empty, its landing square
    full.
  * Extra throw (rule 9, JQ10): a move with 1, 4 or 6 keeps `to=`; any other
    move, and every pass, gives the turn to the opponent.  The game-ending
    bear-off keeps `to=` as the turn rules give it (notation.md), and adds
    `winner=`.
  * Positions: at most five pieces a side, squares 1-30 except 27 (R6), no
    shared square; a side with no piece on the board must be the winner=
    side, and the loser must still have a piece on the board.
"""
import sys

BASE = "senet-jequier"
NPIECES = 5
THROWS = (1, 2, 3, 4, 6)            # four sticks, "0 counts 6" (R4)
AGAIN = frozenset((1, 4, 6))        # rule 9
SAFE = frozenset((20, 26, 28, 29))  # JQ4
WATER = 27                          # rule 6, JQ7
OFF = 31                            # bearing off counts as square 31 (JQ5)
FIELDS = ("to", "p1", "p2", "winner")
BOARD = ((1 << 31) - 1) & ~1        # bits 1..30
ROW12 = ((1 << 21) - 1) & ~1        # bits 1..20
SAFE_MASK = sum(1 << s for s in SAFE)


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
        raise Err("unknown option key: %s" % k)   # senet-jequier has no options
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


# state: (to, m1, m2, winner); m1/m2 bitmasks (bit s = square s),
# winner None while the game goes on, else 1 or 2.
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
    for pl in (1, 2):
        v = fields["p%d" % pl]
        sq = [] if v == "-" else [parse_int(x, "p%d" % pl) for x in v.split(",")]
        for s in sq:
            if not 1 <= s <= 30:
                raise Err("square out of range in p%d: %d" % (pl, s))
            if s == WATER:
                raise Err("a piece on the water (27) in p%d (R6)" % pl)
        if len(set(sq)) != len(sq):
            raise Err("two pieces on one square in p%d" % pl)
        if len(sq) > NPIECES:
            raise Err("too many pieces for player %d" % pl)
        masks.append(sum(1 << s for s in sq))
    if masks[0] & masks[1]:
        raise Err("both players on square %d" % squares_of(masks[0] & masks[1])[0])
    winner = None
    if "winner" in fields:
        winner = parse_int(fields["winner"], "winner")
        if winner not in (1, 2):
            raise Err("winner must be 1 or 2")
        if masks[winner - 1]:
            raise Err("winner %d still has pieces on the board" % winner)
        if not masks[2 - winner]:
            raise Err("both players have borne off every piece")
    else:
        for pl in (1, 2):
            if not masks[pl - 1]:
                raise Err("player %d has borne off every piece but no winner= given" % pl)
    return {}, (to, masks[0], masks[1], winner)


def fmt_position(opts, st):
    to, m1, m2, winner = st
    out = [spec_str(opts), "to=%d" % to,
           "p1=" + (",".join(map(str, squares_of(m1))) if m1 else "-"),
           "p2=" + (",".join(map(str, squares_of(m2))) if m2 else "-")]
    if winner is not None:
        out.append("winner=%d" % winner)
    return " ".join(out)


def start_state():
    # Set-up: white (1) on 1,3,5,7,9, black (2) on 2,4,6,8,10; JQ1: black's
    # opening 1 plays 10-11 and black throws again.
    m1 = sum(1 << s for s in (1, 3, 5, 7, 9))
    m2 = sum(1 << s for s in (2, 4, 6, 8, 11))
    return (2, m1, m2, None)


def lowest_empty(occ):
    free = BOARD & ~occ
    return (free & -free).bit_length() - 1


def blocked(theirs, lo, hi):
    """JQ5: a k with lo < k and k+2 < hi and k, k+1, k+2 all the opponent's."""
    if hi - lo < 4:
        return False
    triple = theirs & (theirs >> 1) & (theirs >> 2)
    mask = ((1 << (hi - 2)) - 1) & ~((1 << (lo + 1)) - 1)
    return (triple & mask) != 0


def rel_moves(mine, theirs, v):
    """Legal (from, to) pairs for the side owning `mine`, throw v, ascending
    by FROM; to == OFF for a bear-off. Empty list: the throw is lost."""
    occ = mine | theirs
    allhome = (mine & ROW12) == 0                      # JQ9
    pieces = squares_of(mine)
    fwd = []
    for s in pieces:
        if s <= 10 and (occ >> (s + 1)) & 1:           # rule 2, JQ2
            continue
        t = s + v
        if t >= OFF:                                    # rule 8
            if allhome and not blocked(theirs, s, OFF):
                fwd.append((s, OFF))
            continue
        if (mine >> t) & 1:                             # never on its own piece
            continue
        if (theirs >> t) & 1:                           # rule 4: protected?
            if (SAFE_MASK >> t) & 1 or (theirs >> (t - 1)) & 1 or (theirs >> (t + 1)) & 1:
                continue
        if blocked(theirs, s, t):                       # rule 3, JQ5
            continue
        fwd.append((s, t))
    if fwd:
        return fwd
    back = []                                           # rule 7, JQ8
    for s in pieces:
        if s <= 10 and (occ >> (s + 1)) & 1:
            continue
        t = s - v
        if t < 1 or (occ >> t) & 1:                     # empty squares only
            continue
        if blocked(theirs, t, s):
            continue
        back.append((s, t))
    return back


def rel_apply(mine, theirs, s, t):
    """Return (text, new_mine, new_theirs, won)."""
    nm = mine & ~(1 << s)
    nt = theirs
    if t == OFF:
        return "%d-off" % s, nm, nt, nm == 0
    if t == WATER:                                      # rule 6, JQ7
        nm |= 1 << lowest_empty(nm | nt | (1 << WATER))
    else:
        nm |= 1 << t
        if (nt >> t) & 1:                               # rule 5, JQ6 capture
            nt &= ~(1 << t)
            nt |= 1 << lowest_empty(nm | nt)
    return "%d-%d" % (s, t), nm, nt, False


def gen_moves(opts, st, v):
    """[(text, child_state)] ascending by FROM; [('pass', ...)] when none."""
    to, m1, m2, winner = st
    if winner is not None:
        raise Err("the game is over")
    mine, theirs = (m1, m2) if to == 1 else (m2, m1)
    res = []
    for s, t in rel_moves(mine, theirs, v):
        text, nm, nt, won = rel_apply(mine, theirs, s, t)
        nto = to if v in AGAIN else 3 - to             # rule 9; notation.md
        a, b = (nm, nt) if to == 1 else (nt, nm)
        res.append((text, (nto, a, b, to if won else None)))
    if not res:
        res.append(("pass", (3 - to, m1, m2, None)))   # JQ10
    return res


def check_throw(opts, s):
    v = parse_int(s, "throw")
    if v not in THROWS:
        raise Err("impossible throw for the sticks (1, 2, 3, 4, 6): %s" % s)
    return v


def score(st):
    to, m1, m2, winner = st
    if winner is None:
        raise Err("the game is not over")
    loser = m2 if winner == 1 else m1
    pts = 0
    for s in squares_of(loser):
        pts += 3 if s <= 10 else (2 if s <= 20 else 1)   # rule 10
    return pts


def perft_all(opts, st, depth):
    """The rules are colour-symmetric, so a node is keyed by (mover's pieces,
    opponent's pieces)."""
    memo = {}
    kids = {}

    def children(mine, theirs):
        c = kids.get((mine, theirs))
        if c is None:
            c = []
            for v in THROWS:
                mv = rel_moves(mine, theirs, v)
                if not mv:
                    c.append((theirs, mine, 0))          # pass: other side
                    continue
                again = v in AGAIN
                for s, t in mv:
                    _, nm, nt, won = rel_apply(mine, theirs, s, t)
                    if won:
                        c.append((0, 0, 2))              # leaf
                    elif again:
                        c.append((nm, nt, 1))
                    else:
                        c.append((nt, nm, 1))
            kids[(mine, theirs)] = c
        return c

    def count(mine, theirs, d):
        if d == 0:
            return 1
        if d == 1:
            return len(children(mine, theirs))
        key = (mine, theirs, d)
        r = memo.get(key)
        if r is None:
            r = 0
            for a, b, kind in children(mine, theirs):
                r += 1 if kind == 2 else count(a, b, d - 1)
            memo[key] = r
        return r

    to, m1, m2, winner = st
    if winner is not None:
        return [1] * depth
    mine, theirs = (m1, m2) if to == 1 else (m2, m1)
    return [count(mine, theirs, d) for d in range(1, depth + 1)]


# ---------------------------------------------------------------------------
# A deliberately naive second generator, on lists, for --selftest.
def naive_moves(to, p1, p2, v):
    mine = list(p1 if to == 1 else p2)
    opp = list(p2 if to == 1 else p1)
    board = {}
    for s in mine:
        board[s] = "m"
    for s in opp:
        board[s] = "o"

    def locked(s):
        return 1 <= s <= 10 and (s + 1) in board

    def passes_block(a, b):      # a < b: any three opp in a row strictly inside
        for k in range(a + 1, b - 2):
            if all(board.get(k + i) == "o" for i in range(3)):
                return True
        return False

    def protected(t):
        return t in (20, 26, 28, 29) or board.get(t - 1) == "o" or board.get(t + 1) == "o"

    out = []
    for s in sorted(mine):
        if locked(s):
            continue
        t = s + v
        if t > 30:
            if all(x >= 21 for x in mine) and not passes_block(s, 31):
                out.append((s, "off"))
            continue
        occ = board.get(t)
        if occ == "m" or (occ == "o" and protected(t)) or passes_block(s, t):
            continue
        out.append((s, t))
    if not out:
        for s in sorted(mine):
            if locked(s):
                continue
            t = s - v
            if t >= 1 and t not in board and not passes_block(t, s):
                out.append((s, t))
    res = []
    for s, t in out:
        m2_ = [x for x in mine if x != s]
        o2_ = list(opp)
        if t == "off":
            text = "%d-off" % s
        else:
            text = "%d-%d" % (s, t)
            if t == 27:
                used = set(m2_) | set(o2_) | {27}
                m2_.append(min(x for x in range(1, 31) if x not in used))
            else:
                m2_.append(t)
                if t in o2_:
                    o2_.remove(t)
                    used = set(m2_) | set(o2_)
                    o2_.append(min(x for x in range(1, 31) if x not in used))
        won = not m2_
        nto = to if v in (1, 4, 6) else 3 - to
        a, b = (m2_, o2_) if to == 1 else (o2_, m2_)
        res.append((text, (nto, tuple(sorted(a)), tuple(sorted(b)), to if won else None)))
    if not res:
        res.append(("pass", (3 - to, tuple(sorted(p1)), tuple(sorted(p2)), None)))
    return res


def selftest(n=30000, seed=1):
    import random
    rnd = random.Random(seed)
    squares = [s for s in range(1, 31) if s != 27]
    for _ in range(n):
        k1 = rnd.randint(1, 5)
        k2 = rnd.randint(1, 5)
        if rnd.random() < 0.5:            # crowd the top row / bottom row
            pool = [s for s in squares if s <= 14] if rnd.random() < 0.5 else [s for s in squares if s >= 18]
            if len(pool) < k1 + k2:
                pool = squares
        else:
            pool = squares
        sq = rnd.sample(pool, k1 + k2)
        p1, p2 = sorted(sq[:k1]), sorted(sq[k1:])
        to = rnd.choice((1, 2))
        st = (to, sum(1 << s for s in p1), sum(1 << s for s in p2), None)
        for v in THROWS:
            fast = [(m, (c[0], tuple(squares_of(c[1])), tuple(squares_of(c[2])), c[3]))
                    for m, c in gen_moves({}, st, v)]
            slow = naive_moves(to, p1, p2, v)
            if fast != slow:
                raise Err("selftest mismatch at %s throw %d:\n%s\n%s"
                          % (fmt_position({}, st), v, fast, slow))
    return "selftest ok (%d positions x 5 throws)" % n


# ---------------------------------------------------------------------------
# The exact value of a position with one piece a side (to check kemet's
# endgame tables): V(mine, theirs), the mover's chance to win when both
# play to win, by value iteration over every such position. The sticks'
# chances: 4, 6, 4, 1 and 1 in 16 for 1, 2, 3, 4 and 6 (R4).
WEIGHT = {1: 4 / 16, 2: 6 / 16, 3: 4 / 16, 4: 1 / 16, 6: 1 / 16}


def solve_one():
    sqs = [s for s in range(1, 31) if s != WATER]
    states = [(1 << a, 1 << b) for a in sqs for b in sqs if a != b]
    V = {st: 0.5 for st in states}
    while True:
        change = 0.0
        for mine, theirs in states:
            v = 0.0
            for t, w in WEIGHT.items():
                mv = rel_moves(mine, theirs, t)
                if not mv:
                    v += w * (1 - V[(theirs, mine)])
                    continue
                best = 0.0
                for s, e in mv:
                    _, nm, nt, won = rel_apply(mine, theirs, s, e)
                    if won:
                        c = 1.0
                    elif t in AGAIN:
                        c = V[(nm, nt)]
                    else:
                        c = 1 - V[(nt, nm)]
                    best = max(best, c)
                v += w * best
            change = max(change, abs(v - V[(mine, theirs)]))
            V[(mine, theirs)] = v
        if change < 1e-13:
            return V


def main(argv):
    if len(argv) < 2:
        raise Err("usage: jequier_ref.py moves|apply|start|perft|score ...")
    cmd = argv[1]
    if cmd == "--selftest":
        return selftest(int(argv[2]) if len(argv) > 2 else 30000)
    if cmd == "moves" and len(argv) == 4:
        opts, st = parse_position(argv[2])
        if st[3] is not None:
            raise Err("the game is over")
        if argv[3] == "none":
            return "throw"
        v = check_throw(opts, argv[3])
        return "\n".join(m for m, _ in gen_moves(opts, st, v))
    if cmd == "apply" and len(argv) == 5:
        opts, st = parse_position(argv[2])
        if st[3] is not None:
            raise Err("the game is over")
        if argv[3] == "none":
            if argv[4] == "throw":
                return fmt_position(opts, st)
            raise Err("illegal move before the throw: %s" % argv[4])
        v = check_throw(opts, argv[3])
        for m, ch in gen_moves(opts, st, v):
            if m == argv[4]:
                return fmt_position(opts, ch)
        raise Err("illegal move: %s" % argv[4])
    if cmd == "value" and len(argv) == 3:
        _, st = parse_position(argv[2])
        to, m1, m2, winner = st
        if winner is not None or bin(m1).count("1") != 1 or bin(m2).count("1") != 1:
            raise Err("value: a game going on with one piece a side")
        mine, theirs = (m1, m2) if to == 1 else (m2, m1)
        return "%.9f" % solve_one()[(mine, theirs)]
    if cmd == "score" and len(argv) == 3:
        _, st = parse_position(argv[2])
        return str(score(st))
    if cmd == "start" and len(argv) in (2, 3):
        opts = parse_spec(argv[2]) if len(argv) == 3 else {}
        return fmt_position(opts, start_state())
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
