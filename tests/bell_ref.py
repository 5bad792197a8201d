#!/usr/bin/env python3
"""Independent reference model of kemet ruleset `senet-bell` (R. C. Bell's
Senet), written from reconstructions.md section 0 (R1-R8) and section 1
(rules 1-8, rulings BL1-BL8, notation), rulings.md (G1-G6) and notation.md
only, without reading the C sources.

It counts the game tree as `kemet perft` does (the interface and the perft
semantics copy tests/carter_ref.py), a second program to check the perft
counts and move lists of the C implementation.

Usage:
  bell_ref.py moves 'POSITION' THROW
  bell_ref.py apply 'POSITION' THROW MOVE
  bell_ref.py start [SPEC]
  bell_ref.py perft SPEC DEPTH ['POSITION']
  bell_ref.py --selftest     (fast leaf counter vs gen_moves, random positions)

THROW is 1-4 (the d4, R4).  `moves P none` prints `throw` and `apply P none
throw` prints P unchanged (notation.md): Bell has no pre-throw choice.

Readings taken where the text leaves room (see the notes at each place):
  * Bearing off is square 31: from s with exactly 31-s (rule 6, BL7); a count
    past 31 is no move.  Square 30 is an ordinary, unmarked square (BL1).
  * Rule 5 (BL6): if some piece on 26-29 has a legal move for this throw
    (a bear-off included), only pieces on 26-29 may move.
  * A position with no piece of either player on the board must carry
    winner= (the game ended, rule 8), and winner= must agree with o1/o2 and
    requires both boards empty; anything else is malformed.
  * Fields are read in any order and the squares of p1/p2 in any order
    (notation.md "reads them in any order"); the output is canonical.
"""
import sys

BASE = "senet-bell"
NPIECES = 10
THROWS = (1, 2, 3, 4)              # one four-sided die (R4, Bell)
MARKED = (26, 27, 28, 29)          # BL1
OFF = 31                           # rule 6: from s, exactly 31-s bears off
FIELDS = ("to", "p1", "o1", "p2", "o2", "winner")   # R3 canonical order
MARKED_MASK = 0
for _s in MARKED:
    MARKED_MASK |= 1 << _s


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
        raise Err("unknown option key: %s" % k)  # senet-bell has no options
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


# state: (to, m1, o1, m2, o2, winner)
#   m1/m2: bitmask of squares (bit s = square s, 1-30)
#   o1/o2: pieces borne off (the score)
#   winner: None while the game goes on, else 0 (draw), 1 or 2
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
    offs = []
    for pl in (1, 2):
        v = fields["p%d" % pl]
        if v == "-":
            sq = []
        else:
            sq = [parse_int(x, "p%d" % pl) for x in v.split(",")]
        for s in sq:
            if not 1 <= s <= 30:
                raise Err("square out of range in p%d: %d" % (pl, s))
        if len(set(sq)) != len(sq):
            raise Err("two pieces on one square in p%d" % pl)
        o = parse_int(fields["o%d" % pl], "o%d" % pl) if ("o%d" % pl) in fields else 0
        if len(sq) + o > NPIECES:
            raise Err("too many pieces for player %d (board + borne off > %d)"
                      % (pl, NPIECES))
        m = 0
        for s in sq:
            m |= 1 << s
        masks.append(m)
        offs.append(o)
    if masks[0] & masks[1]:
        raise Err("both players on square %d" % squares_of(masks[0] & masks[1])[0])
    winner = None
    empty = masks[0] == 0 and masks[1] == 0
    if "winner" in fields:
        winner = parse_int(fields["winner"], "winner")
        if winner not in (0, 1, 2):
            raise Err("winner must be 0, 1 or 2")
        if not empty:
            raise Err("winner= given while pieces are still on the board")
        right = 0 if offs[0] == offs[1] else (1 if offs[0] > offs[1] else 2)
        if winner != right:
            raise Err("winner=%d disagrees with the score o1=%d o2=%d"
                      % (winner, offs[0], offs[1]))
    elif empty:
        raise Err("no piece on the board but no winner= given (the game is over)")
    return {}, (to, masks[0], offs[0], masks[1], offs[1], winner)


def fmt_position(opts, st):
    to, m1, o1, m2, o2, winner = st
    out = [spec_str(opts), "to=%d" % to]
    out.append("p1=" + (",".join(map(str, squares_of(m1))) if m1 else "-"))
    if o1:
        out.append("o1=%d" % o1)
    out.append("p2=" + (",".join(map(str, squares_of(m2))) if m2 else "-"))
    if o2:
        out.append("o2=%d" % o2)
    if winner is not None:
        out.append("winner=%d" % winner)
    return " ".join(out)


def start_state():
    m1 = m2 = 0
    for s in range(1, 21):
        if s % 2:
            m1 |= 1 << s        # BL2: player 1 on the odd squares 1-19
        else:
            m2 |= 1 << s        # player 2 on the even squares 2-20
    return (1, m1, 0, m2, 0, None)   # BL3: `kemet start` prints to=1


def gen_moves(opts, st, v):
    """Return the list of (text, child_state) for throw v, ascending by FROM
    (one move per piece at most, so TO needs no ordering); ['pass'] alone
    when nothing is legal (G3)."""
    to, m1, o1, m2, o2, winner = st
    if winner is not None:
        raise Err("the game is over")
    if to == 1:
        mine, mo, theirs, to_ = m1, o1, m2, o2
    else:
        mine, mo, theirs, to_ = m2, o2, m1, o1
    occ = mine | theirs
    cand = []            # (from, to-or-OFF)
    for s in squares_of(mine):
        t = s + v
        if t > OFF:
            continue                      # BL7: exact count only
        if t == OFF:
            cand.append((s, OFF))         # rule 6: bear off
            continue
        bit = 1 << t
        # G6: the square just left counts as empty; with v >= 1, t != s.
        if mine & bit:
            continue                      # rule 2: never on its own piece
        if (bit & MARKED_MASK) and (occ & bit):
            continue                      # rule 2 / rule 4: marked square held
        cand.append((s, t))               # empty, or an unmarked opponent
    # rule 5 / BL6: a marked-square piece that can move has priority
    if any((1 << s) & MARKED_MASK for s, _ in cand):
        cand = [(s, t) for s, t in cand if (1 << s) & MARKED_MASK]
    res = []
    for s, t in cand:
        nm = mine & ~(1 << s)
        nth = theirs
        no = mo
        if t == OFF:
            no += 1                       # rule 6: scores one point
            text = "%d-off" % s
        else:
            nm |= 1 << t
            nth &= ~(1 << t)              # rule 3 / BL4: capture, out for good
            text = "%d-%d" % (s, t)
        w = None
        if nm == 0 and nth == 0:          # rule 8: nobody on the board
            if to == 1:
                a, b = no, to_
            else:
                a, b = to_, no
            w = 0 if a == b else (1 if a > b else 2)
        if to == 1:
            ch = (2, nm, no, nth, to_, w)
        else:
            ch = (1, nth, to_, nm, no, w)
        res.append((text, ch))
    if not res:
        res.append(("pass", (3 - to, m1, o1, m2, o2, None)))
    return res


def check_throw(opts, s):
    v = parse_int(s, "throw")
    if v not in THROWS:
        raise Err("impossible throw for the d4: %s" % s)
    return v


BOARD_MASK = ((1 << 31) - 1) & ~1        # squares 1-30


def count_leaf_moves(st):
    """The number of children of st summed over the four throws (a pass
    counting one), by bit operations: the same rules as gen_moves, used at
    the last ply of perft only (checked against gen_moves by --selftest)."""
    to, m1, o1, m2, o2, winner = st
    if to == 1:
        mine, occ = m1, m1 | m2
    else:
        mine, occ = m2, m1 | m2
    free = BOARD_MASK & ~mine & ~(MARKED_MASK & occ)   # legal landing squares
    mk = mine & MARKED_MASK
    total = 0
    for v in THROWS:
        offbit = (1 << (OFF - v))
        n = ((mk << v) & free).bit_count() + (1 if mk & offbit else 0)
        if n == 0:
            n = ((mine << v) & free).bit_count() + (1 if mine & offbit else 0)
        total += n if n else 1
    return total


def perft_all(opts, st, depth):
    memo = {}

    def children(s):
        c = []
        for v in THROWS:
            c.extend(ch for _, ch in gen_moves(opts, s, v))
        return c

    def count(s, d):
        if d == 0 or s[5] is not None:
            return 1
        if d == 1:
            return count_leaf_moves(s)
        key = (s, d)
        r = memo.get(key)
        if r is None:
            r = sum(count(ch, d - 1) for ch in children(s))
            memo[key] = r
        return r

    return [count(st, d) for d in range(1, depth + 1)]


def selftest(n=20000, seed=1):
    """Compare count_leaf_moves with gen_moves on random positions."""
    import random
    rnd = random.Random(seed)
    for i in range(n):
        sq = rnd.sample(range(1, 31), rnd.randint(1, 20))
        k = rnd.randint(0, len(sq))
        a, b = sq[:k], sq[k:]
        if len(a) > 10 or len(b) > 10:
            continue
        m1 = sum(1 << x for x in a)
        m2 = sum(1 << x for x in b)
        st = (rnd.choice((1, 2)), m1, 0, m2, 0, None)
        slow = sum(len(gen_moves({}, st, v)) for v in THROWS)
        if slow != count_leaf_moves(st):
            raise Err("selftest mismatch at %s" % fmt_position({}, st))
    return "selftest ok"


def main(argv):
    if len(argv) < 2:
        raise Err("usage: bell_ref.py moves|apply|start|perft ...")
    cmd = argv[1]
    if cmd == "--selftest":
        return selftest()
    if cmd == "moves" and len(argv) == 4:
        opts, st = parse_position(argv[2])
        if st[5] is not None:
            raise Err("the game is over")
        if argv[3] == "none":
            return "throw"
        v = check_throw(opts, argv[3])
        return "\n".join(m for m, _ in gen_moves(opts, st, v))
    if cmd == "apply" and len(argv) == 5:
        opts, st = parse_position(argv[2])
        if st[5] is not None:
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
