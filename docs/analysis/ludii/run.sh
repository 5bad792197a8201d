#!/bin/sh
# run.sh - remakes this folder's measurement of Ludii beside kemet
# (README.md says what each step does and how long it took).
#
#   docs/analysis/ludii/run.sh build    Ludii's classes and the driver
#   docs/analysis/ludii/run.sh ludii    Ludii's rulesets as published -> ludii.csv
#   docs/analysis/ludii/run.sh undone   the copies with departures undone
#                                       -> ludii-undone.csv
#   docs/analysis/ludii/run.sh kemet    kemet's side -> kemet.csv
#   docs/analysis/ludii/run.sh tables   data.csv and figures.csv
#
# LUDII (default /tmp/ludii) holds Ludii's source (src/), its classes
# (classes/) and the compiled driver (driver/); KEMET the kemet program
# (default build/release/kemet of this checkout). Every run is on one core
# at the lowest priority. Nothing here is part of kemet's build or tests.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
LUDII=${LUDII:-/tmp/ludii}
KEMET=${KEMET:-$top/build/release/kemet}
COMMIT=93ed32184d8cb94e9c9fe2a06a606ca967317e6d # PadLex/Ludii, 1 August 2023
cp="$LUDII/classes:$LUDII/src/Common/lib/json-20180813.jar"
cp="$cp:$LUDII/src/Common/lib/jfreesvg-3.4.jar"
cp="$cp:$LUDII/src/Common/lib/Trove4j_ApacheCommonsRNG.jar:$LUDII/src/Common/res"
run_java() { nice -n 19 taskset -c 0 java -Xmx2g -cp "$cp:$LUDII/driver" LudiiRandom "$@"; }

# Every line of FILE but comments, on stdin of the loop that follows.
rows() { grep -v '^#' "$1"; }

case "${1:-}" in
build)
    # LUDII_GIT: the bare repository of github.com/PadLex/Ludii (a mirror of
    # github.com/Ludeme/Ludii); only the folders the game engine needs.
    mkdir -p "$LUDII/src" "$LUDII/classes" "$LUDII/driver"
    git --git-dir="$LUDII_GIT" --work-tree="$LUDII/src" checkout "$COMMIT" -- \
        Common Core Language
    (cd "$LUDII/src" && find Common/src Core/src Language/src -name '*.java') \
        >"$LUDII/sources.txt"
    (cd "$LUDII/src" && nice -n 19 javac -parameters -encoding UTF-8 -J-Xmx2g \
        -nowarn -cp "$cp" -d "$LUDII/classes" @"$LUDII/sources.txt")
    javac -encoding UTF-8 -cp "$cp" -d "$LUDII/driver" "$here/LudiiRandom.java"
    ;;
ludii)
    out="$here/ludii.csv"
    header=--header
    rm -f "$out"
    rows "$here/rulesets.txt" | while IFS='|' read -r spec game ruleset games skip; do
        run_java --game "$game" --ruleset "$ruleset" --games "$games" --seed 1 \
            --cap 1000 --skip "$skip" --label "$spec" $header >>"$out"
        header=
    done
    ;;
undone)
    cd "$here" # the edits are named as undone/FILE in the output
    out="$here/ludii-undone.csv"
    header=--header
    rm -f "$out"
    rows "$here/undone.txt" | while IFS='|' read -r spec game ruleset games skip edits; do
        run_java --game "$game" --ruleset "$ruleset" --games "$games" --seed 1 \
            --cap 1000 --skip "$skip" --label "$spec" --edits "undone/$edits" \
            $header >>"$out"
        header=
    done
    ;;
kemet)
    # kemet sim, as the report runs it, and kemet_random.c for the same
    # figures with their intervals (the library of the same build)
    cc -O2 -w -I"$top/include" -I"$(dirname "$KEMET")/include" \
        "$here/kemet_random.c" "$(dirname "$KEMET")/libkemet.a" -lm -lpthread \
        -o "$LUDII/kemet_random"
    rm -f "$here/kemet-sim.jsonl" "$here/kemet.csv"
    header=--header
    rows "$here/rulesets.txt" | while IFS='|' read -r spec game ruleset games skip; do
        nice -n 19 taskset -c 0 "$KEMET" sim "$spec" --games 20000 --seed 1 \
            --threads 1 --tables off --json >>"$here/kemet-sim.jsonl"
        nice -n 19 taskset -c 0 "$LUDII/kemet_random" "$spec" 20000 1 1000 $header \
            >>"$here/kemet.csv"
        header=
    done
    ;;
*)
    echo "usage: $0 build|ludii|undone|kemet|tables" >&2
    exit 2
    ;;
esac
