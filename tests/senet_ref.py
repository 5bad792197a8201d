#!/usr/bin/env python3
"""senet_ref.py - an independent model of Kendall's Senet (rules 1-14,
K1-K10), Robinson's rethrow and Kendall's four options (KO1-KO7), written
from docs/rules/senet.md and the rulings, not from src/lib/senet/kendall.c. It
counts the game tree as `kemet perft` does, to check the perft counts of
tests/golden/perft.txt for the option rulesets by a second program:

    python3 tests/senet_ref.py 'senet-kendall:trap=1' 4
    python3 tests/senet_ref.py all      # every option line of perft.txt

A ply is a move made instead of throwing, or a throw value (1-5) with one
of its legal moves (pass when there is none); a finished game counts as one
position at every depth beyond it.
"""
import sys

WATER, REBIRTH, BEAUTY = 27, 15, 26


def parse_spec(spec):
    base, _, opts = spec.partition(":")
    o = {"pieces": 7, "start": 0, "trap": 0, "homerow": 0}
    if opts:
        for kv in opts.split(","):
            k, v = kv.split("=")
            o[k] = int(v)
    o["robinson"] = base == "senet-robinson"
    return o


def start(o):
    n = o["pieces"]
    p1 = frozenset(range(1, 2 * n + 1, 2))
    p2 = frozenset(range(2, 2 * n + 1, 2))
    wait = frozenset({1, 2}) if o["start"] else frozenset()
    # (to, pieces of player 1, of player 2, must, wait, winner)
    return (1, p1, p2, 0, wait, 0)


def parse_pos(text):
    f = dict(t.split("=") for t in text.split()[1:])
    sq = lambda s: frozenset() if s == "-" else frozenset(map(int, s.split(",")))
    wait = frozenset(map(int, f["wait"].split(","))) if "wait" in f else frozenset()
    return (int(f["to"]), sq(f["p1"]), sq(f["p2"]), int(f.get("must", 0)),
            wait, int(f.get("winner", 0)))


def guarded(opp, s):
    """An opponent piece on s with an opponent neighbour on the track (K2)."""
    return s in opp and (s - 1 in opp or s + 1 in opp)


def can_land(own, opp, s):
    return s not in own and not guarded(opp, s)


def moves(o, pos, t):
    """The legal moves (from, to) for throw t; to 0 is off the board."""
    to, p1, p2, must, wait, _ = pos
    own, opp = (p1, p2) if to == 1 else (p2, p1)
    if o["start"] and to in wait and t != 1:
        return []                                   # KO3
    no_off = o["homerow"] and any(s <= 10 for s in own)   # KO5
    if WATER in own:                                # rule 11, K8
        return [(WATER, 0)] if t == 4 and not no_off else []
    pieces = [must] if must else sorted(own)
    fwd = []
    for s in pieces:
        if s <= 25:
            d = s + t
            if d <= BEAUTY:                          # rule 8, K3
                if can_land(own, opp, d):
                    fwd.append((s, d))
            elif o["trap"] and WATER not in own and WATER not in opp:
                fwd.append((s, WATER))              # KO4
        elif s == BEAUTY:                           # K4
            if t == 5:
                if not no_off:
                    fwd.append((s, 0))
            elif can_land(own, opp, s + t):
                fwd.append((s, s + t))
        elif s == 28:
            if t == 3 and not no_off:
                fwd.append((s, 0))
        elif s == 29:
            if t == 2 and not no_off:
                fwd.append((s, 0))
        elif s == 30:
            if not no_off:
                fwd.append((s, 0))
    if fwd:
        return fwd
    back = []                                       # rule 7, K7
    for s in pieces:
        if s >= 28:
            d = WATER                               # rule 10
        else:
            d = s - t
            if d < 1:
                continue
        if can_land(own, opp, d):
            back.append((s, d))
    return back


def make(o, pos, t, mv):
    to, p1, p2, must, wait, _ = pos
    own, opp = (set(p1), set(p2)) if to == 1 else (set(p2), set(p1))
    if t == 1:
        wait = wait - {to}                          # KO3
    nmust, nto, winner = 0, 3 - to, 0
    if mv is not None:
        f, d = mv
        own.discard(f)
        if d:
            if d in opp:                            # rule 13: swap
                opp.discard(d)
                opp.add(f)
            own.add(d)
        if t:
            bonus = t in (1, 4, 5)
            if not own:                             # rule 14, KO2
                winner = to
                nto = to if bonus else 3 - to
                wait = frozenset()
            elif o["robinson"] and d == BEAUTY:
                nmust, nto = BEAUTY, to
            elif WATER in own:
                nto = 3 - to                        # rule 9, K8
            elif bonus:
                nto = to                            # rule 12, K9
    own, opp = frozenset(own), frozenset(opp)
    q1, q2 = (own, opp) if to == 1 else (opp, own)
    return (nto, q1, q2, nmust, frozenset(wait), winner)


def prethrow(o, pos):
    to, p1, p2, must, wait, _ = pos
    own = p1 if to == 1 else p2
    if o["start"] and to in wait:
        return []
    if must == 0 and WATER in own and REBIRTH not in (p1 | p2):
        return [(WATER, REBIRTH)]
    return []


def perft(o, pos, depth, memo):
    if depth == 0 or pos[5]:
        return 1
    key = (pos, depth)
    if key in memo:
        return memo[key]
    n = 0
    for mv in prethrow(o, pos):
        n += perft(o, make(o, pos, 0, mv), depth - 1, memo)
    for t in range(1, 6):
        ms = moves(o, pos, t)
        for mv in ms or [None]:
            n += perft(o, make(o, pos, t, mv), depth - 1, memo)
    memo[key] = n
    return n


def run(spec, depth, position=None):
    o = parse_spec(spec)
    pos = parse_pos(position) if position else start(o)
    return perft(o, pos, depth, {})


def main():
    if sys.argv[1:] == ["all"]:
        here = __file__.rsplit("/", 1)[0]
        bad = 0
        for line in open(here + "/golden/perft.txt"):
            w = line.split()
            if not w or w[0].startswith("#") or ":" not in w[0]:
                continue
            got = run(w[0], int(w[1]), " ".join(w[3:]) or None)
            ok = got == int(w[2])
            bad += not ok
            print(("ok  " if ok else "BAD ") + line.strip(),
                  "" if ok else "(model: %d)" % got)
        sys.exit(1 if bad else 0)
    spec, depth = sys.argv[1], int(sys.argv[2])
    print(run(spec, depth, sys.argv[3] if len(sys.argv) > 3 else None))


if __name__ == "__main__":
    main()
