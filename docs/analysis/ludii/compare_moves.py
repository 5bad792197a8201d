#!/usr/bin/env python3
"""compare_moves.py - Ludii's legal moves beside kemet's, position by
position.

usage: compare_moves.py KEMET SPEC < LudiiMoves output

For each line LudiiMoves.java printed (a position of a Ludii game, the
throw and Ludii's legal moves) asks `KEMET moves 'SPEC POSITION' THROW`
and compares the two sets of moves. Kendall's choice before the throw
(rule 11, K8: 27-15 instead of throwing) is a move beside the throw in the
edited Ludii copy, so for Kendall kemet's pre-throw moves (`moves P none`)
join the set. Prints each position where the sets differ (the first 20)
and the count.
"""
import subprocess
import sys


def throw_of(spec, pips):
    """The throw of Ludii's dice: four sticks count 0 as 5 (Kendall) or 6
    (Jequier); Bell's die is its face."""
    if spec.startswith("senet-bell"):
        return pips
    if pips:
        return pips
    return 6 if spec.startswith("senet-jequier") else 5


def position(spec, f):
    mover, p1, p2, s1, s2, v1, v2 = f[:7]
    pos = f"{spec} to={mover} p1={p1}"
    if spec.startswith("senet-bell") and s1 != "0":
        pos += f" o1={s1}"
    pos += f" p2={p2}"
    if spec.startswith("senet-bell") and s2 != "0":
        pos += f" o2={s2}"
    if "start=1" in spec:  # KO3: who has not yet thrown a 1
        wait = [p for p, v in ((1, v1), (2, v2)) if v != "1"]
        if wait:
            pos += " wait=" + ",".join(map(str, wait))
    return pos


def main():
    kemet, spec = sys.argv[1], sys.argv[2]
    n = bad = 0
    for line in sys.stdin:
        f = line.rstrip("\n").split("|")
        pos, thr = position(spec, f), throw_of(spec, int(f[7]))
        ludii = set(f[8].split())
        r = subprocess.run([kemet, "moves", pos, str(thr)],
                           capture_output=True, text=True)
        ours = set(r.stdout.split()) if r.returncode == 0 else {
            "error: " + r.stderr.strip()}
        if spec.startswith("senet-kendall"):
            r = subprocess.run([kemet, "moves", pos, "none"],
                               capture_output=True, text=True)
            ours |= set(r.stdout.split()) - {"throw"}
        n += 1
        if ours != ludii:
            bad += 1
            if bad <= 20:
                print(f"{pos} throw {thr}: kemet {sorted(ours)}, "
                      f"Ludii {sorted(ludii)}")
    print(f"{spec}: {n} positions, {bad} with other moves")


if __name__ == "__main__":
    main()
