#!/bin/sh
# run.sh - remakes this folder's measurement of Ludii beside kemet from
# scratch (README.md says what each step does and how long it takes).
#
#   docs/analysis/ludii/run.sh build    Ludii's classes and the two Java
#                                       drivers (LUDII_GIT needed)
#   docs/analysis/ludii/run.sh ludii    Ludii's rulesets as published
#                                       (rulesets.txt) -> ludii.csv
#   docs/analysis/ludii/run.sh undone   the copies with the departures undone
#                                       (undone.txt) -> ludii-undone.csv
#   docs/analysis/ludii/run.sh seed2    three undone copies again with seed 2
#                                       -> ludii-seed2.csv
#   docs/analysis/ludii/run.sh moves    the edited Senet copies' legal moves
#                                       beside kemet's -> moves.txt
#   docs/analysis/ludii/run.sh kemet    kemet (built here) and kemet_random.c
#                                       -> kemet-sim.jsonl, kemet.csv,
#                                       kemet-prethrow.csv
#   docs/analysis/ludii/run.sh tables   data.csv, summary.csv, README's tables
#   docs/analysis/ludii/run.sh all      every step above, in this order
#
# LUDII (default /tmp/ludii) receives Ludii's source (src/), its classes
# (classes/), the compiled drivers (driver/) and kemet_random; LUDII_GIT is
# a clone or bare mirror of github.com/PadLex/Ludii (a copy of
# github.com/Ludeme/Ludii). KEMET_BUILD (default build/release of this
# checkout) is where kemet and its library are built, as `./run build`
# builds them. Every game runs on one thread at the lowest priority.
# Nothing here is part of kemet's build, tests or CI.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
LUDII=${LUDII:-/tmp/ludii}
KEMET_BUILD=${KEMET_BUILD:-$top/build/release}
# absolute, as some steps change directory
case "$LUDII" in /*) ;; *) LUDII=$PWD/$LUDII ;; esac
case "$KEMET_BUILD" in /*) ;; *) KEMET_BUILD=$PWD/$KEMET_BUILD ;; esac
KEMET=$KEMET_BUILD/kemet
COMMIT=93ed32184d8cb94e9c9fe2a06a606ca967317e6d # PadLex/Ludii, 1 August 2023
cp="$LUDII/classes:$LUDII/src/Common/lib/json-20180813.jar"
cp="$cp:$LUDII/src/Common/lib/jfreesvg-3.4.jar"
cp="$cp:$LUDII/src/Common/lib/Trove4j_ApacheCommonsRNG.jar:$LUDII/src/Common/res"
java_1() {
    nice -n 19 java -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -Xmx2g \
        -cp "$cp:$LUDII/driver" "$@"
}

# Every line of FILE but comments, on stdin of the loop that follows.
rows() { grep -v '^#' "$1"; }

step() {
    case "$1" in
    build)
        : "${LUDII_GIT:?set LUDII_GIT to a clone of github.com/PadLex/Ludii}"
        rm -rf "$LUDII/src" "$LUDII/classes" "$LUDII/driver"
        mkdir -p "$LUDII/src" "$LUDII/classes" "$LUDII/driver"
        # only the folders the game engine needs
        # (checked out with an index of its own: git archive would read the
        # whole tree, and a mirror may lack its largest files)
        GIT_INDEX_FILE="$LUDII/index" git --git-dir="$LUDII_GIT" \
            --work-tree="$LUDII/src" checkout "$COMMIT" -- Common Core Language
        rm -f "$LUDII/index"
        (cd "$LUDII/src" && find Common/src Core/src Language/src -name '*.java') \
            >"$LUDII/sources.txt"
        # -parameters: Ludii's compiler reads the ludemes' argument names
        (cd "$LUDII/src" && nice -n 19 javac -parameters -encoding UTF-8 \
            -J-Xmx2g -J-XX:ActiveProcessorCount=1 -nowarn \
            -cp "$LUDII/src/Common/lib/*" -d "$LUDII/classes" @"$LUDII/sources.txt")
        javac -encoding UTF-8 -cp "$cp" -d "$LUDII/driver" \
            "$here/LudiiRandom.java" "$here/LudiiMoves.java"
        ;;
    ludii)
        out="$here/ludii.csv"
        header=--header
        rm -f "$out"
        rows "$here/rulesets.txt" | while IFS='|' read -r spec game ruleset games skip; do
            java_1 LudiiRandom --game "$game" --ruleset "$ruleset" --games "$games" \
                --seed 1 --cap 1000 --skip "$skip" --label "$spec" $header >>"$out"
            header=
        done
        ;;
    undone)
        cd "$here" # the edits are named as undone/FILE in the output
        out="$here/ludii-undone.csv"
        header=--header
        rm -f "$out"
        rows "$here/undone.txt" | while IFS='|' read -r spec game ruleset games skip edits; do
            java_1 LudiiRandom --game "$game" --ruleset "$ruleset" --games "$games" \
                --seed 1 --cap 1000 --skip "$skip" --label "$spec" \
                --edits "undone/$edits" $header >>"$out"
            header=
        done
        ;;
    seed2)
        # the undone copies whose outcome figures fell outside the interval
        # with seed 1, played again with seed 2 (README.md)
        cd "$here"
        out="$here/ludii-seed2.csv"
        rm -f "$out"
        java_1 LudiiRandom --game "58 Holes.lud" \
            --ruleset "Ruleset/Carnarvon and Carter (Suggested)" --games 20000 --seed 2 \
            --cap 1000 --skip Opening --label hounds-jackals-carter \
            --edits undone/carter.edits --header >>"$out"
        java_1 LudiiRandom --game Senet.lud \
            --ruleset "Ruleset/Kendall Starting Throw Home Row (Scholarly)" --games 6000 \
            --seed 2 --cap 1000 --skip Opening --label senet-kendall:start=1,homerow=1 \
            --edits undone/kendall.edits >>"$out"
        java_1 LudiiRandom --game "58 Holes.lud" \
            --ruleset "Ruleset/Tab Parallel Connections D4 (Suggested)" --games 6000 \
            --seed 2 --cap 1000 --skip Opening,GetMoves \
            --label tab-58:marks=safe,lines=parallel,dice=d4 --edits undone/tab.edits >>"$out"
        ;;
    moves)
        # the legal moves of the edited copies of the base Senet readings,
        # position by position in ten random games of each, beside kemet's
        cd "$here"
        out="$here/moves.txt"
        rm -f "$out"
        rows "$here/undone.txt" | grep -E '^senet-(kendall|bell|jequier)\|' |
            while IFS='|' read -r spec game ruleset games skip edits; do
                java_1 LudiiMoves --ruleset "$ruleset" --edits "undone/$edits" \
                    --games 10 --seed 1 |
                    python3 "$here/compare_moves.py" "$KEMET" "$spec" >>"$out"
            done
        ;;
    kemet)
        # kemet and its library as `./run build` makes them, then kemet sim
        # (as the report runs it) and kemet_random.c (the same games'
        # figures with their intervals) for every spec of rulesets.txt
        cmake -S "$top" -B "$KEMET_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
        cmake --build "$KEMET_BUILD" -j 2 --target kemet kemetshared >/dev/null
        mkdir -p "$LUDII"
        # the shared library: the static one holds link-time-optimised
        # objects, which a link with -Wall would compile (and judge) again
        cc -std=c17 -O2 -Wall -Wextra -Wpedantic -Werror -I"$top/include" \
            -I"$KEMET_BUILD/include" "$here/kemet_random.c" -L"$KEMET_BUILD" \
            -Wl,-rpath,"$KEMET_BUILD" -lkemet -lm -o "$LUDII/kemet_random"
        rm -f "$here/kemet-sim.jsonl" "$here/kemet.csv" "$here/kemet-prethrow.csv"
        header=--header
        ph=--header
        rows "$here/rulesets.txt" | while IFS='|' read -r spec game ruleset games skip; do
            nice -n 19 "$KEMET" sim "$spec" --games 20000 --seed 1 --threads 1 \
                --tables off --json >>"$here/kemet-sim.jsonl"
            nice -n 19 "$LUDII/kemet_random" "$spec" 20000 1 1000 $header \
                >>"$here/kemet.csv"
            case "$spec" in senet-kendall*)
                # counted as the edited copy of Kendall counts the choice
                # before the throw (kemet_random.c, --prethrow)
                nice -n 19 "$LUDII/kemet_random" "$spec" 20000 1 1000 --prethrow \
                    $ph >>"$here/kemet-prethrow.csv"
                ph=
                ;;
            esac
            header=
        done
        ;;
    tables)
        python3 "$here/tables.py"
        ;;
    *)
        echo "usage: $0 build|ludii|undone|seed2|moves|kemet|tables|all" >&2
        exit 2
        ;;
    esac
}

if [ "${1:-}" = all ]; then
    for s in build ludii undone seed2 moves kemet tables; do
        echo "run.sh: $s" >&2
        step "$s"
    done
else
    step "${1:-}"
fi
