#!/usr/bin/env python3
"""Independent reference model of kemet ruleset `hounds-jackals-carter`
(Carnarvon & Carter's 58 Holes), written from reconstructions.md section 5,
section 0 (R1-R8), rulings.md (G1-G6, H1-H3) and notation.md only.

It counts the game tree as `kemet perft` does, a second program to check
the perft counts of tests/golden/perft.txt for hounds-jackals-carter.

Usage:
  carter_ref.py moves 'POSITION' THROW
  carter_ref.py apply 'POSITION' THROW MOVE
  carter_ref.py start [SPEC]
  carter_ref.py perft SPEC DEPTH ['POSITION']

Set CARTER_LINE_THROUGH=1 in the environment to use the alternative (non-
default) reading in which the hole where a count ends (20 or 10) need not be
empty when the line is then taken (the piece only rests at the far end).
"""
import os
import sys

BASE = "hounds-jackals-carter"
NPIECES = 5
OPTION_ORDER = ["board", "dice"]
OPTION_VALUES = {"board": ["lines", "marked", "plain"], "dice": ["sticks", "d4", "d6"]}
OPTION_DEFAULT = {"board": "lines", "dice": "sticks"}
THROWS = {"sticks": (1, 2, 3, 4, 5), "d4": (1, 2, 3, 4), "d6": (1, 2, 3, 4, 5, 6)}
# second-throw holes, by board (30 means: bearing off by reaching the apex)
SECOND = {"lines": frozenset({15, 25}),
          "marked": frozenset({1, 6, 8, 10, 15, 20, 25, 30}),
          "plain": frozenset()}
LINES = {20: 6, 10: 8}  # count end -> far end, lines board only, backward only

LINE_THROUGH = os.environ.get("CARTER_LINE_THROUGH", "") == "1"


class Err(Exception):
    pass


def parse_spec(tok):
    if tok == BASE:
        return dict(OPTION_DEFAULT)
    if not tok.startswith(BASE + ":"):
        raise Err("unknown ruleset: %s" % tok)
    rest = tok[len(BASE) + 1:]
    if rest == "":
        raise Err("empty option list")
    opts = dict(OPTION_DEFAULT)
    seen = set()
    for kv in rest.split(","):
        if "=" not in kv:
            raise Err("malformed option: %s" % kv)
        k, v = kv.split("=", 1)
        if k not in OPTION_VALUES:
            raise Err("unknown option key: %s" % k)
        if k in seen:
            raise Err("repeated option: %s" % k)
        seen.add(k)
        if v == "crossover1" and k == "board":
            raise Err("board=crossover1 is not modelled by this reference")
        if v not in OPTION_VALUES[k]:
            raise Err("unknown value for %s: %s" % (k, v))
        opts[k] = v
    return opts


def spec_str(opts):
    parts = ["%s=%s" % (k, opts[k]) for k in OPTION_ORDER if opts[k] != OPTION_DEFAULT[k]]
    return BASE + (":" + ",".join(parts) if parts else "")


def parse_int(s, what):
    if not s.isdigit():
        raise Err("not a number in %s: %r" % (what, s))
    return int(s)


# state: (to, p1 tuple, h1, p2 tuple, h2, winner)   winner 0 = none
def parse_position(text, spec_override=None):
    toks = text.split()
    if not toks:
        raise Err("empty position")
    if spec_override is not None and toks[0] == BASE:
        opts = dict(spec_override)
    else:
        opts = parse_spec(toks[0])
        if spec_override is not None and opts != spec_override:
            raise Err("position's ruleset %s differs from %s" % (toks[0], spec_str(spec_override)))
    fields = {}
    for t in toks[1:]:
        if "=" not in t:
            raise Err("malformed field: %s" % t)
        k, v = t.split("=", 1)
        if k not in ("to", "p1", "h1", "p2", "h2", "winner"):
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
    ps = []
    hs = []
    for pl in (1, 2):
        v = fields["p%d" % pl]
        if v == "-":
            sq = []
        else:
            sq = [parse_int(x, "p%d" % pl) for x in v.split(",")]
        for s in sq:
            if not 1 <= s <= 29:
                raise Err("square out of range in p%d: %d" % (pl, s))
        if len(set(sq)) != len(sq):
            raise Err("two pieces on one hole in p%d" % pl)
        h = parse_int(fields["h%d" % pl], "h%d" % pl) if ("h%d" % pl) in fields else 0
        if len(sq) + h > NPIECES:
            raise Err("too many pieces for player %d" % pl)
        ps.append(tuple(sorted(sq)))
        hs.append(h)
    winner = 0
    if "winner" in fields:
        winner = parse_int(fields["winner"], "winner")
        if winner not in (1, 2):
            raise Err("winner must be 1 or 2")
        if ps[winner - 1] or hs[winner - 1]:
            raise Err("winner %d still has pieces" % winner)
    else:
        for pl in (1, 2):
            if not ps[pl - 1] and hs[pl - 1] == 0:
                raise Err("player %d has borne off every piece but no winner= given" % pl)
    return opts, (to, ps[0], hs[0], ps[1], hs[1], winner)


def fmt_position(opts, st):
    to, p1, h1, p2, h2, winner = st
    out = [spec_str(opts), "to=%d" % to]
    out.append("p1=" + (",".join(map(str, p1)) if p1 else "-"))
    if h1:
        out.append("h1=%d" % h1)
    out.append("p2=" + (",".join(map(str, p2)) if p2 else "-"))
    if h2:
        out.append("h2=%d" % h2)
    if winner:
        out.append("winner=%d" % winner)
    return " ".join(out)


def start_state():
    return (1, (), NPIECES, (), NPIECES, 0)


def gen_moves(opts, st, v):
    """Return list of (text, child_state), sorted: entries first, then by FROM.
    'pass' alone when nothing else is legal."""
    to, p1, h1, p2, h2, winner = st
    if winner:
        raise Err("the game is over")
    board = opts["board"]
    second = SECOND[board]
    mine = p1 if to == 1 else p2
    hand = h1 if to == 1 else h2
    occ = set(mine)
    res = []

    def make(new_mine, new_hand, count_end):
        # count_end: the hole the count (or entry) ended on; 30 = bore off
        again = count_end in second
        won = (not new_mine) and new_hand == 0
        nxt = to if again else 3 - to
        w = to if won else 0
        nm = tuple(sorted(new_mine))
        if to == 1:
            return (nxt, nm, new_hand, p2, h2, w)
        return (nxt, p1, h1, nm, new_hand, w)

    # entry from hand: the hand is hole 0 (CC2)
    if hand > 0 and v not in occ and v <= 29:
        # an entry lands on hole v (v <= 6): never a line end (10, 20)
        res.append(("in-%d" % v, make(list(mine) + [v], hand - 1, v)))
    for s in mine:
        t = s + v
        if t > 30:
            continue  # rule 4 / CC7: no count past 30
        rest = [x for x in mine if x != s]  # G6: the hole left counts as empty
        rest_occ = set(rest)
        if t == 30:
            res.append(("%d-off" % s, make(rest, hand, 30)))
            continue
        final = t
        if board == "lines" and t in LINES:
            far = LINES[t]
            if LINE_THROUGH:
                # alternative reading: the count end need not be empty if the
                # line is taken
                if far not in rest_occ:
                    final = far
                elif t in rest_occ:
                    continue
            else:
                if t in rest_occ:
                    continue  # may not land on an occupied hole
                if far not in rest_occ:
                    final = far
        elif t in rest_occ:
            continue
        res.append(("%d-%d" % (s, final), make(rest + [final], hand, t)))
    if not res:
        res.append(("pass", (3 - to, p1, h1, p2, h2, 0)))
    return res


def check_throw(opts, s):
    v = parse_int(s, "throw")
    if v not in THROWS[opts["dice"]]:
        raise Err("impossible throw for dice=%s: %s" % (opts["dice"], s))
    return v


def perft_all(opts, st, depth):
    throws = THROWS[opts["dice"]]
    memo = {}
    movecache = {}

    def children(s):
        c = movecache.get(s)
        if c is None:
            c = []
            for v in throws:
                c.extend(ch for _, ch in gen_moves(opts, s, v))
            movecache[s] = c
        return c

    def count(s, d):
        if d == 0 or s[5]:
            return 1
        key = (s, d)
        r = memo.get(key)
        if r is None:
            r = sum(count(ch, d - 1) for ch in children(s))
            memo[key] = r
        return r

    return [count(st, d) for d in range(1, depth + 1)]


def main(argv):
    if len(argv) < 2:
        raise Err("usage: carter_ref.py moves|apply|start|perft ...")
    cmd = argv[1]
    if cmd == "moves" and len(argv) == 4:
        opts, st = parse_position(argv[2])
        if st[5]:
            raise Err("the game is over")
        v = check_throw(opts, argv[3])
        return "\n".join(m for m, _ in gen_moves(opts, st, v))
    if cmd == "apply" and len(argv) == 5:
        opts, st = parse_position(argv[2])
        if st[5]:
            raise Err("the game is over")
        v = check_throw(opts, argv[3])
        for m, ch in gen_moves(opts, st, v):
            if m == argv[4]:
                return fmt_position(opts, ch)
        raise Err("illegal move: %s" % argv[4])
    if cmd == "start" and len(argv) in (2, 3):
        opts = parse_spec(argv[2]) if len(argv) == 3 else dict(OPTION_DEFAULT)
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
