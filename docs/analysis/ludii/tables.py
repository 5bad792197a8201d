#!/usr/bin/env python3
"""tables.py - this folder's data set from the runs' raw outputs.

Reads rulesets.txt and undone.txt (the map of Ludii's rulesets to kemet's
specs), ludii.csv, ludii-undone.csv and ludii-seed2.csv (LudiiRandom.java),
kemet.csv and
kemet-prethrow.csv (kemet_random.c) and kemet-sim.jsonl (`kemet sim
--json`); writes data.csv (every figure of both programs with its 95%
interval, a line per ruleset and per copy with departures undone),
summary.csv (a line per kemet spec, for the report) and the tables of
README.md between its markers <!-- tables --> and <!-- /tables -->.

A figure "differs" where the 95% interval of the difference of the two
programs' values excludes 0 (the two intervals' half-widths combined as
independent normal errors). About one such flag in twenty is expected by
chance alone where the programs play the same game.
"""
import csv
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))

FIGS = [  # (name in data.csv, value column in both programs' CSV, interval)
    ("turns", "turns_mean", "turns"),
    ("p1", "p1_share", "p1"),
    ("completion", "completion", "completion"),
    ("drawishness", "drawishness", "drawishness"),
    ("balance", "balance", "balance"),
    ("branching", "branching", "branching"),
    ("choices", "choices", "choices"),
]
# The figures whose agreement decides agrees_when_undone (the outcome of
# the games); the branching factor and the choices count moves as each
# program's move model offers them (README.md).
OUTCOME = ("turns", "p1", "completion", "drawishness")

# The rule behind each difference, by kemet spec (README.md gives the
# evidence). The option and dice variants take their base reading's.
KENDALL = ("Ludii has no backward move from 28-30 (K7), gives the starting "
           "player the front piece (rules 2-3) and departs from K1, K6, K8 "
           "and K9.")
CAUSES = {
    "senet-kendall": KENDALL,
    "senet-kendall:start": ("As the base game (K7, rules 2-3, K1, K6, K8, "
                            "K9), and Ludii exempts player 1 from waiting "
                            "for a 1 (KO3)."),
    "senet-kendall:opts": ("As the base game: K7, rules 2-3, K1, K6, K8 and "
                           "K9."),
    "senet-bell": "Ludii never enforces rule 5, a piece on a marked square "
                  "moves first (BL6).",
    "senet-piccione": "Ludii plays a divided throw part by part (PC1-PC5, "
                      "PC10), has no backward move and no throw after a 5 "
                      "(PC8).",
    "senet-jequier": "Ludii scores a win with a last 1, 4 or 6 as a 0-0 draw "
                     "(JQ11) and departs from JQ3-JQ10.",
    "carter-sticks": "Ludii's sticks count 0-4 and lose a 0, the text "
                     "counts it 5 (CC1).",
    "carter-marked": "Ludii gives no second throw on reaching the apex "
                     "(CC6).",
    "carter-marked-sticks": "Ludii's sticks lose a 0 (CC1) and give no "
                            "second throw at the apex (CC6).",
    "carter-none": "None: Ludii's code follows the rule text.",
    "tab-58": "Ludii lacks the home-row passing rule (TB4), which changes "
              "only the moves offered.",
    "tab-58:none": "Ludii lacks the home-row passing rule (TB4).",
    "tab-58:throw": "Ludii keeps a value that reaches a throw-again mark "
                    "instead of giving a new turn (TB7).",
    "tab-58:safe": "Ludii leaves hole 1 of each side out of the safe "
                   "marks (TB6).",
    "tab-58:d6": "Its d6 never plays a 5 or a 6 (TB11).",
}


def cause(spec):
    base, _, opts = spec.partition(":")
    if base == "senet-kendall":
        if not opts:
            return CAUSES[base]
        return CAUSES["senet-kendall:start" if "start=1" in opts
                      else "senet-kendall:opts"]
    if base.startswith("senet-"):
        return CAUSES[base]
    if base == "hounds-jackals-carter":
        sticks, marked = "dice=" not in opts, "board=marked" in opts
        if sticks and marked:
            return CAUSES["carter-marked-sticks"]
        if sticks:
            return CAUSES["carter-sticks"]
        return CAUSES["carter-marked" if marked else "carter-none"]
    # Tab: the marks' rule if any, the d6's too
    out = [CAUSES["tab-58:throw"] if "marks=throw" in opts else
           CAUSES["tab-58:safe"] if "marks=safe" in opts else
           CAUSES["tab-58"]]
    if "dice=d6" in opts:  # one sentence: the d6's rule joined on
        d6 = CAUSES["tab-58:d6"]
        first = CAUSES["tab-58:none"] if out[0] == CAUSES["tab-58"] else out[0]
        out = [first.rstrip(".") + "; and " + d6[0].lower() + d6[1:]]
    return " ".join(out)


# kemet.csv, ludii-undone.csv, and the undone copies played again with
# seed 2 (ludii-seed2.csv): where a copy's outcome figures fell outside the
# interval with seed 1, its games of both seeds are judged together
KEMET, UNDONE, SEED2 = {}, {}, {}


def undone_row(spec):
    return UNDONE[spec]


def pooled(a, b):
    """The figures of two runs of one copy as one run: each mean weighted
    by its games, its half-width from the two (independent) half-widths."""
    na, nb = int(a["games"]), int(b["games"])
    out = {"games": str(na + nb)}
    for name, col, iv in FIGS:
        va, vb, ha, hb = float(a[col]), float(b[col]), half(a, iv), half(b, iv)
        v = (na * va + nb * vb) / (na + nb)
        h = math.hypot(na * ha, nb * hb) / (na + nb)
        out[col], out[iv + "_lo"], out[iv + "_hi"] = v, v - h, v + h
    return out


def rows(name):
    with open(os.path.join(HERE, name)) as f:
        lines = [l for l in f if not l.startswith("#") and l.strip()]
    return [l.rstrip("\n").split("|") for l in lines]


def read_csv(name, key):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r[key]: r for r in csv.DictReader(f)}


def half(r, iv):
    return (float(r[iv + "_hi"]) - float(r[iv + "_lo"])) / 2


def differs(a, b, col, iv):
    """Whether a[col] and b[col] differ beyond the interval of their
    difference."""
    va, vb, ha, hb = float(a[col]), float(b[col]), half(a, iv), half(b, iv)
    if any(math.isnan(x) for x in (va, vb, ha, hb)):
        return False
    return abs(va - vb) > math.hypot(ha, hb)


def fmt(x, d=3):
    x = float(x)
    return "nan" if math.isnan(x) else f"{x:.{d}f}"


def main():
    kemet = read_csv("kemet.csv", "spec")
    KEMET.update(kemet)
    UNDONE.update(read_csv("ludii-undone.csv", "label"))
    SEED2.update(read_csv("ludii-seed2.csv", "label"))
    prethrow = read_csv("kemet-prethrow.csv", "spec")
    ludii = read_csv("ludii.csv", "label")
    undone = read_csv("ludii-undone.csv", "label")
    sim = {}
    with open(os.path.join(HERE, "kemet-sim.jsonl")) as f:
        for line in f:
            j = json.loads(line)
            sim[j["ruleset"]] = j
    published = [(r[0], r[1], r[2], "") for r in rows("rulesets.txt")]
    copies = [(r[0], r[1], r[2], "undone/" + r[5]) for r in rows("undone.txt")]

    data, found = [], {}
    for kind, lines, src in (("published", published, ludii),
                             ("undone", copies, undone)):
        for spec, game, ruleset, edits in lines:
            k, l = kemet.get(spec), src.get(spec)
            if not k or not l:
                continue
            # the edited Kendall copy makes the choice before the throw a
            # state of its own: its branching and choices are set beside
            # kemet's counted the same way (kemet_random --prethrow)
            kb = k
            if kind == "undone" and spec in prethrow:
                kb = dict(k)
                for c in ("branching", "choices"):
                    for x in ("", "_lo", "_hi"):
                        kb[c + x] = prethrow[spec][c + x]
            d = {"kind": kind, "spec": spec, "ludii_game": game,
                 "ludii_ruleset": ruleset.replace("Ruleset/", ""),
                 "edits": edits, "kemet_games": k["games"],
                 "ludii_games": l["games"]}
            flags = []
            for name, col, iv in FIGS:
                for prog, r in (("kemet", kb), ("ludii", l)):
                    d[f"{prog}_{name}"] = r[col]
                    d[f"{prog}_{name}_lo"] = r[iv + "_lo"]
                    d[f"{prog}_{name}_hi"] = r[iv + "_hi"]
                if differs(kb, l, col, iv):
                    flags.append(name)
            d["kemet_prethrow_counted"] = "yes" if kb is not k else ""
            for prog, r in (("kemet", k), ("ludii", l)):
                d[f"{prog}_turns_median"] = r["turns_median"]
                for c in ("p1_wins", "p2_wins", "draws", "stopped"):
                    d[f"{prog}_{c}"] = r[c]
            d["ludii_agent_advantage_p1"] = l["ludii_advantage_p1"]
            d["ludii_seconds"] = l["seconds"]
            s = sim[spec]
            d["sim_turns_mean"] = s["mean_turns"]
            d["sim_p1_wins"] = s["wins"][0]
            d["sim_draws"] = s["draws"]
            d["sim_stopped"] = s["stopped"]
            d["differs"] = " ".join(flags)
            d["cause"] = cause(spec)
            data.append(d)
            found[(kind, spec)] = d

    with open(os.path.join(HERE, "data.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(data[0].keys()))
        w.writeheader()
        w.writerows(data)
    write_summary(published, found)
    write_readme(published, found)
    write_short(found)


def write_summary(published, found):
    with open(os.path.join(HERE, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["spec", "ludii_ruleset", "kemet_turns", "kemet_turns_lo",
                    "kemet_turns_hi", "ludii_turns", "ludii_turns_lo",
                    "ludii_turns_hi", "kemet_p1", "kemet_p1_lo", "kemet_p1_hi",
                    "ludii_p1", "ludii_p1_lo", "ludii_p1_hi", "undone_turns",
                    "undone_p1", "agrees_when_undone", "cause"])
        for spec, _, _, _ in published:
            p = found.get(("published", spec))
            if not p:
                continue
            u = found.get(("undone", spec))
            row = [spec, p["ludii_ruleset"]]
            for name, d in (("turns", 2), ("p1", 4)):
                for prog in ("kemet", "ludii"):
                    row += [fmt(p[f"{prog}_{name}{x}"], d)
                            for x in ("", "_lo", "_hi")]
            if u:
                agree = not set(u["differs"].split()) & set(OUTCOME)
                s2 = SEED2.get(spec)
                if not agree and s2:  # both seeds' games together
                    both = pooled(undone_row(spec), s2)
                    agree = not any(differs(KEMET[spec], both, col, iv)
                                    for name, col, iv in FIGS
                                    if name in OUTCOME)
                row += [fmt(u["ludii_turns"], 2), fmt(u["ludii_p1"], 4),
                        "yes" if agree else "no"]
            else:
                row += ["", "", "not-undone"]
            w.writerow(row + [p["cause"]])


def cell(d, prog, name, digits, scale=1.0):
    v = float(d[f"{prog}_{name}"]) * scale
    h = (float(d[f"{prog}_{name}_hi"]) - float(d[f"{prog}_{name}_lo"])) / 2
    h *= scale
    if math.isnan(v):
        return "-"
    return f"{v:.{digits}f}" if math.isnan(h) else f"{v:.{digits}f} ±{h:.{digits}f}"


FAMILIES = [
    ("Kendall's Senet and its options", "senet-kendall"),
    ("Bell's Senet", "senet-bell"),
    ("Piccione's Senet", "senet-piccione"),
    ("Jéquier's Senet", "senet-jequier"),
    ("Carnarvon & Carter's 58 holes", "hounds-jackals-carter"),
    ("Tab on the 58 holes", "tab-58"),
]


def write_readme(published, found):
    out = ["Each reading: kemet's figures, then Ludii's as published, then",
           "Ludii's with the departures undone (where undone); ± half the",
           "width of the 95% interval; **bold** where Ludii's figure differs",
           "from kemet's beyond the interval of the difference. Draws and",
           "stopped games in % of the games.", ""]
    for title, base in FAMILIES:
        out.append(f"### {title}\n")
        out.append("| kemet spec | program | games | turns | player 1 wins | "
                   "draws % | stopped % | BranchingFactor |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for spec, _, _, _ in published:
            if spec.split(":")[0] != base:
                continue
            p, u = found.get(("published", spec)), found.get(("undone", spec))
            if not p:
                continue
            for prog, d in (("kemet", p), ("Ludii", p), ("Ludii undone", u)):
                if d is None:
                    continue
                side = "kemet" if prog == "kemet" else "ludii"
                flags = set(d["differs"].split()) if side == "ludii" else set()
                if prog == "kemet":
                    d = dict(p)  # published kemet figures, no pre-throw count
                mark = " †" if prog == "Ludii undone" and \
                    d["kemet_prethrow_counted"] else ""

                def c(name, digits, scale=1.0):
                    s = cell(d, side, name, digits, scale)
                    return f"**{s}**" if name in flags else s
                draws = c("drawishness", 1, 100)
                stopped = 100 - float(d[f"{side}_completion"]) * 100
                sh = half(
                    {"x_lo": d[f"{side}_completion_lo"],
                     "x_hi": d[f"{side}_completion_hi"]}, "x") * 100
                st = f"{stopped:.1f} ±{sh:.1f}"
                if "completion" in flags:
                    st = f"**{st}**"
                name = f"`{spec}`" if prog == "kemet" else ""
                out.append(
                    f"| {name} | {prog}{mark} | {d[side + '_games']} | "
                    f"{c('turns', 1)} | {c('p1', 3)} | {draws} | {st} | "
                    f"{c('branching', 3)} |")
        out.append("")
    out.append("† Beside this row kemet's BranchingFactor is counted as the "
               "edited copy counts Kendall's choice before the throw "
               "(`kemet_random --prethrow`): data.csv.")
    path = os.path.join(HERE, "README.md")
    text = open(path).read()
    new = re.sub(r"(<!-- tables -->\n).*?(<!-- /tables -->)",
                 lambda m: m.group(1) + "\n".join(out) + "\n" + m.group(2),
                 text, flags=re.S)
    with open(path, "w") as f:
        f.write(new)


# The short table at the top of README.md: the base readings and the
# boards and marks whose rules depart, with the rule in a few words.
SHORT = [
    ("senet-kendall", "Kendall's Senet", "no return from 28-30 (K7); K1, K6, K8, K9"),
    ("senet-bell", "Bell's Senet", "rule 5 never enforced (BL6)"),
    ("senet-piccione", "Piccione's Senet", "the divided throw (PC1-PC5, PC10); not undone"),
    ("senet-jequier", "Jéquier's Senet", "0-0 draws (JQ11), rethrows (JQ10)"),
    ("hounds-jackals-carter", "Carnarvon & Carter", "sticks count 0-4 (CC1)"),
    ("hounds-jackals-carter:board=marked,dice=d4", "Carter, marked, d4", "no throw at the apex (CC6)"),
    ("hounds-jackals-carter:dice=d4", "Carter, d4", "none"),
    ("tab-58", "Tab", "home-row passing (TB4): choices only"),
    ("tab-58:marks=throw", "Tab, throw-again marks", "the value kept (TB7)"),
    ("tab-58:marks=safe", "Tab, safe marks", "hole 1 unmarked (TB6)"),
]


def write_short(found):
    out = ["| reading (kemet spec) | turns: kemet / Ludii / undone | "
           "player 1 wins: kemet / Ludii / undone | the rule behind the "
           "difference |", "|---|---|---|---|"]
    for spec, label, rule in SHORT:
        p, u = found.get(("published", spec)), found.get(("undone", spec))
        if not p:
            continue
        turns = f"{float(p['kemet_turns']):.1f} / {float(p['ludii_turns']):.1f}"
        p1 = f"{float(p['kemet_p1']):.3f} / {float(p['ludii_p1']):.3f}"
        if u:
            turns += f" / {float(u['ludii_turns']):.1f}"
            p1 += f" / {float(u['ludii_p1']):.3f}"
        else:
            turns += " / -"
            p1 += " / -"
        out.append(f"| {label} (`{spec}`) | {turns} | {p1} | {rule} |")
    path = os.path.join(HERE, "README.md")
    text = open(path).read()
    new = re.sub(r"(<!-- short -->\n).*?(<!-- /short -->)",
                 lambda m: m.group(1) + "\n".join(out) + "\n" + m.group(2),
                 text, flags=re.S)
    with open(path, "w") as f:
        f.write(new)


if __name__ == "__main__":
    main()
