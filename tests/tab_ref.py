#!/usr/bin/env python3
"""Independent reference model of kemet ruleset `tab-58` (Tab on the 58-hole
board), written from reconstructions.md section 0 (R1-R8) and section 6
(rules 1-10, TB1-TB13, Notation), rulings.md (G1-G6, H1-H3) and notation.md.

Options: marks=none|throw|safe, lines=none|parallel, dice=sticks|d4|d6
(lines=crossover1 is not modelled).

Usage:
  tab_ref.py start [SPEC]
  tab_ref.py moves 'POSITION' THROW     (THROW: comma sequence in throw order,
                                          or `none` when left= is present)
  tab_ref.py apply 'POSITION' THROW MOVE
  tab_ref.py perft SPEC DEPTH ['POSITION'] [--divide]
"""
import sys

BASE = "tab-58"
NPIECES = 5
LOOP = 59
OPTION_ORDER = ["marks", "lines", "dice"]
OPTION_VALUES = {"marks": ["none", "throw", "safe"],
                 "lines": ["none", "parallel"],
                 "dice": ["sticks", "d4", "d6"]}
OPTION_DEFAULT = {"marks": "none", "lines": "none", "dice": "sticks"}
VALUES = {"sticks": (1, 2, 3, 4, 6), "d4": (1, 2, 3, 4), "d6": (1, 2, 3, 4, 5, 6)}
AGAIN = {"sticks": (1, 4, 6), "d4": (1, 4), "d6": (1, 4, 6)}
MAX_THROWS = 8  # TB13
# marked holes in a player's path numbers (section 6 "Marked holes", TB6)
MARKED = frozenset({1, 6, 8, 10, 15, 20, 25, 30, 35, 40, 45, 50, 52, 54, 59})
# rule 10: line first hole -> end, in path numbers, own direction only
PARALLEL = {6: 20, 8: 10, 40: 54, 50: 52}


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


def phys(pl, sq):
    """Physical hole id of player pl's path square sq: P1's numbering."""
    if pl == 1 or sq == 30:
        return sq
    return LOOP + 1 - sq


# state: (to, p1, l1, p2, l2, left, again, winner)
#   p1/p2/l1/l2/left: sorted tuples; again: 0/1; winner: 0 none, 1, 2
def parse_position(text, spec_override=None):
    toks = text.split()
    if not toks:
        raise Err("empty position")
    if spec_override is not None and toks[0] == BASE:
        opts = dict(spec_override)
    else:
        opts = parse_spec(toks[0])
        if spec_override is not None and opts != spec_override:
            raise Err("position's ruleset differs from %s" % spec_str(spec_override))
    fields = {}
    for t in toks[1:]:
        if "=" not in t:
            raise Err("malformed field: %s" % t)
        k, v = t.split("=", 1)
        if k not in ("to", "p1", "l1", "p2", "l2", "left", "again", "winner"):
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

    def sqlist(k):
        v = fields.get(k)
        if v is None:
            return []
        if v == "-":
            return []
        return [parse_int(x, k) for x in v.split(",")]

    ps, ls = [], []
    holes = set()
    for pl in (1, 2):
        sq = sqlist("p%d" % pl)
        for s in sq:
            if not 1 <= s <= LOOP:
                raise Err("square out of range in p%d: %d" % (pl, s))
        if len(set(sq)) != len(sq):
            raise Err("duplicate square in p%d" % pl)
        if len(sq) > NPIECES:
            raise Err("too many pieces for player %d" % pl)
        for s in sq:
            h = phys(pl, s)
            if h in holes:
                raise Err("two pieces on one hole")
            holes.add(h)
        lk = sqlist("l%d" % pl)
        if len(set(lk)) != len(lk):
            raise Err("duplicate square in l%d" % pl)
        for s in lk:
            if s not in sq or not 1 <= s <= 5:
                raise Err("bad locked square in l%d: %d" % (pl, s))
        ps.append(tuple(sorted(sq)))
        ls.append(tuple(sorted(lk)))
    left = ()
    if "left" in fields:
        left = tuple(sorted(parse_int(x, "left") for x in fields["left"].split(",")))
        for v in left:
            if v not in VALUES[opts["dice"]]:
                raise Err("left value not a value of the device: %d" % v)
    again = 0
    if "again" in fields:
        if fields["again"] != "1":
            raise Err("again must be 1")
        if opts["marks"] != "throw" or not left:
            raise Err("again=1 needs marks=throw and left=")
        again = 1
    winner = 0
    if "winner" in fields:
        winner = parse_int(fields["winner"], "winner")
        if winner not in (1, 2):
            raise Err("winner must be 1 or 2")
        if left or again:
            raise Err("winner= with left/again")
    return opts, (to, ps[0], ls[0], ps[1], ls[1], left, again, winner)


def fmt_list(t):
    return ",".join(map(str, t))


def fmt_position(opts, st):
    to, p1, l1, p2, l2, left, again, winner = st
    out = [spec_str(opts), "to=%d" % to]
    out.append("p1=" + (fmt_list(p1) if p1 else "-"))
    if l1:
        out.append("l1=" + fmt_list(l1))
    out.append("p2=" + (fmt_list(p2) if p2 else "-"))
    if l2:
        out.append("l2=" + fmt_list(l2))
    if left:
        out.append("left=" + fmt_list(left))
    if again:
        out.append("again=1")
    if winner:
        out.append("winner=%d" % winner)
    return " ".join(out)


def start_state():
    h = (1, 2, 3, 4, 5)
    return (1, h, h, h, h, (), 0, 0)


def fwd(s, v):
    return (s - 1 + v) % LOOP + 1


def single_moves(opts, st, v):
    """Moves of player `to` using one value v: list of
    (text, new_mine, new_lock, new_opp, new_opp_lock, count_end)."""
    to, p1, l1, p2, l2 = st[:5]
    mine, lock, opp, olock = (p1, l1, p2, l2) if to == 1 else (p2, l2, p1, l1)
    safe = opts["marks"] == "safe"
    lines = PARALLEL if opts["lines"] == "parallel" else {}
    mine_set = set(mine)
    # opponent's pieces, by my path number
    opp_at = {}
    for q in opp:
        opp_at[30 if q == 30 else LOOP + 1 - q] = q
    # rule 6 / TB5: position before the move
    all_in_start_row = all(55 <= s <= 59 for s in mine)
    res = []
    for s in mine:
        locked = s in lock
        if locked and v != 1:
            continue  # rule 3
        if 55 <= s <= 59 and not all_in_start_row:
            continue  # rule 6
        rest = mine_set - {s}  # G6: the hole left counts as empty
        # rule 5 / TB4: holes strictly between may not be own 1-5 with own piece
        blocked = False
        x = s
        for _ in range(v - 1):
            x = fwd(x, 1)
            if x <= 5 and x in rest:
                blocked = True
                break
        if blocked:
            continue
        t = fwd(s, v)
        if t in rest:
            continue  # rule 4
        captured = []
        if t in opp_at:
            if safe and t in MARKED:
                continue  # rule 8
            captured.append(opp_at[t])
        final = t
        text = "%d-%d" % (s, t)
        if t in lines:  # rule 10
            e = lines[t]
            ok = True
            if e in rest:
                ok = False
            elif e in opp_at and safe and e in MARKED:
                ok = False
            if ok:
                if e in opp_at:
                    captured.append(opp_at[e])
                final = e
                text = "%d-%d-%d" % (s, t, e)
        new_mine = tuple(sorted(list(rest) + [final]))
        new_lock = tuple(x for x in lock if x != s)
        new_opp = tuple(q for q in opp if q not in captured)
        new_olock = tuple(q for q in olock if q not in captured)
        res.append((text, new_mine, new_lock, new_opp, new_olock, t))
    return res


def usable(opts, st, values):
    return any(single_moves(opts, st, v) for v in set(values))


def remove_one(vals, v):
    l = list(vals)
    l.remove(v)
    return tuple(l)


def gen_moves(opts, st, values, earned):
    """All legal moves for the remaining `values` (tuple) of the player to
    move; `earned` = again already earned this turn. Returns list of
    (text, child_state); [('pass', child)] when none."""
    to, p1, l1, p2, l2, _, _, winner = st
    if winner:
        raise Err("the game is over")
    res = {}
    for v in sorted(set(values)):
        for text, nm, nl, no, nol, cend in single_moves(opts, st, v):
            if text in res:
                continue
            again = earned or (opts["marks"] == "throw" and cend in MARKED)
            if to == 1:
                base = (to, nm, nl, no, nol)
            else:
                base = (to, no, nol, nm, nl)
            rem = remove_one(values, v)
            if not no:  # TB9: last opponent piece captured
                nxt = to if again else 3 - to
                child = (nxt,) + base[1:] + ((), 0, to)
            elif rem and usable(opts, base + ((), 0, 0), rem):
                child = base + (rem, 1 if again else 0, 0)
            else:
                nxt = to if again else 3 - to
                child = (nxt,) + base[1:] + ((), 0, 0)
            res[text] = child
    if not res:
        nxt = to if earned else 3 - to
        return [("pass", (nxt, p1, l1, p2, l2, (), 0, 0))]
    return sorted(res.items())


def throw_sequences(dice):
    """All legal throw sequences of a turn (rule 1, TB13)."""
    vals = VALUES[dice]
    again = AGAIN[dice]
    ends = [v for v in vals if v not in again]
    out = []

    def rec(prefix):
        n = len(prefix)
        if n == MAX_THROWS - 1:
            for v in vals:
                out.append(prefix + (v,))
            return
        for v in ends:
            out.append(prefix + (v,))
        for v in again:
            rec(prefix + (v,))

    rec(())
    return out


def throw_outcomes(dice):
    return sorted(set(tuple(sorted(s)) for s in throw_sequences(dice)))


def parse_throw(opts, st, s):
    """Returns the values tuple and the earned flag."""
    left, again = st[5], st[6]
    if left:
        if s != "none":
            raise Err("left= present: THROW must be none")
        return left, again
    if s == "none":
        return None, 0  # the pre-throw choice: only `throw`
    seq = [parse_int(x, "throw") for x in s.split(",")]
    dice = opts["dice"]
    if len(seq) > MAX_THROWS or not seq:
        raise Err("impossible throw")
    for i, v in enumerate(seq):
        if v not in VALUES[dice]:
            raise Err("impossible throw value %d" % v)
        last = i == len(seq) - 1
        if not last and v not in AGAIN[dice]:
            raise Err("impossible throw: %d ends the throwing" % v)
        if last and len(seq) < MAX_THROWS and v in AGAIN[dice]:
            raise Err("impossible throw: %d throws again" % v)
    return tuple(sorted(seq)), 0


def children_all(opts, st, outcomes):
    """(label, move, child) for every ply from st."""
    if st[5]:
        return [("none", m, c) for m, c in gen_moves(opts, st, st[5], st[6])]
    out = []
    for o in outcomes:
        for m, c in gen_moves(opts, st, o, 0):
            out.append((",".join(map(str, o)), m, c))
    return out


def perft_all(opts, st, depth, divide=False):
    outcomes = throw_outcomes(opts["dice"])
    memo = {}
    kids = {}

    def children(s):
        c = kids.get(s)
        if c is None:
            c = [ch for _, _, ch in children_all(opts, s, outcomes)]
            kids[s] = c
        return c

    def count(s, d):
        if d == 0 or s[7]:
            return 1
        key = (s, d)
        r = memo.get(key)
        if r is None:
            r = 0
            for ch in children(s):
                r += count(ch, d - 1)
            memo[key] = r
        return r

    counts = [count(st, d) for d in range(1, depth + 1)]
    div = []
    if divide and depth >= 1 and not st[7]:
        for lab, m, ch in children_all(opts, st, outcomes):
            div.append((lab, m, count(ch, depth - 1)))
    return counts, div


def main(argv):
    if len(argv) < 2:
        raise Err("usage: tab_ref.py moves|apply|start|perft ...")
    cmd = argv[1]
    if cmd == "moves" and len(argv) == 4:
        opts, st = parse_position(argv[2])
        if st[7]:
            raise Err("the game is over")
        vals, earned = parse_throw(opts, st, argv[3])
        if vals is None:
            return "throw"
        return "\n".join(m for m, _ in gen_moves(opts, st, vals, earned))
    if cmd == "apply" and len(argv) == 5:
        opts, st = parse_position(argv[2])
        if st[7]:
            raise Err("the game is over")
        vals, earned = parse_throw(opts, st, argv[3])
        if vals is None:
            if argv[4] == "throw":
                return fmt_position(opts, st)
            raise Err("illegal move before throwing: %s" % argv[4])
        for m, ch in gen_moves(opts, st, vals, earned):
            if m == argv[4]:
                return fmt_position(opts, ch)
        raise Err("illegal move: %s" % argv[4])
    if cmd == "start" and len(argv) in (2, 3):
        opts = parse_spec(argv[2]) if len(argv) == 3 else dict(OPTION_DEFAULT)
        return fmt_position(opts, start_state())
    if cmd == "perft" and len(argv) >= 4:
        args = [a for a in argv[2:] if a != "--divide"]
        divide = len(args) != len(argv) - 2
        opts = parse_spec(args[0])
        depth = parse_int(args[1], "depth")
        if len(args) == 3:
            _, st = parse_position(args[2], spec_override=opts)
        else:
            st = start_state()
        sys.setrecursionlimit(10000)
        counts, div = perft_all(opts, st, depth, divide)
        lines = ["%s %s %d" % (lab, m, c) for lab, m, c in div]
        name = spec_str(opts)
        lines += ["perft %s %d: %d" % (name, d, c) for d, c in enumerate(counts, 1)]
        return "\n".join(lines)
    raise Err("bad command line")


if __name__ == "__main__":
    try:
        out = main(sys.argv)
    except Err as e:
        sys.stderr.write("error: %s\n" % e)
        sys.exit(2)
    if out:
        print(out)
