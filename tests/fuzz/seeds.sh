#!/bin/sh
# seeds.sh KEMET - remakes the fuzz targets' seed corpora (tests/fuzz/corpus)
# from the program's own output: every ruleset's start and a few positions
# and records from short seeded games, the board files, the weights and
# the networks. The reproducers in tests/fuzz/regress are kept by hand.
set -eu
K=$1
here=$(cd "$(dirname "$0")" && pwd)
c=$here/corpus
rm -rf "$c"
mkdir -p "$c/position" "$c/move" "$c/board" "$c/record" "$c/weights" "$c/rules" "$c/report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for r in $("$K" rules | awk '{print $1}'); do
    "$K" start "$r" > "$c/position/start-$r"
    "$K" play "$r" --p1 random --p2 greedy --seed $((i + 3)) \
        --record "$tmp/$r.rec" > /dev/null
    # the record, cut to its first 12 plies so that the corpus stays small
    head -n 18 "$tmp/$r.rec" > "$c/record/$r"
    # a position some plies in, from the record's moves
    "$K" replay "$tmp/$r.rec" | tail -n 1 | sed "s/^final position: //" > "$c/position/end-$r" || true
    # move and throw text: ruleset index, plies, seed, then the text
    printf "$(printf '\\%03o\\%03o\\%03o' "$i" 9 "$i")%s" "pass" > "$c/move/$r-pass"
    printf "$(printf '\\%03o\\%03o\\%03o' "$i" 5 "$i")%s" "1-4" > "$c/move/$r-step"
    printf "$(printf '\\%03o\\%03o\\%03o' "$i" 20 "$i")%s" "3,2" > "$c/move/$r-throw"
    i=$((i + 1))
done
# the built-in ruleset files, each under an id of its own (a file may not
# take a built-in's)
for f in "$here"/../../data/rulesets/*.rules; do
    id=$(basename "$f" .rules)
    sed "s/^id $id\$/id fz-$id/" "$f" > "$c/rules/$id"
done
# Kendall's options: every option on, and a waiting player
"$K" start senet-kendall:pieces=5,start=1,trap=1,homerow=1 > "$c/position/start-senet-kendall-options"
echo "senet-robinson:start=1,trap=1 to=1 p1=3,26 p2=5,27 must=26 wait=2" > "$c/position/mid-senet-robinson-options"
echo "senet-kendall:homerow=1,trap=1 to=2 p1=5,24 p2=3,27,29 wait=1" > "$c/position/bad-senet-kendall-wait"
printf '\000%s' "$(cat "$here/../../data/boards/washburne.board")" > "$c/board/washburne"
printf '\002%s' "$(cat "$here/../../data/boards/lions-jackals.board")" > "$c/board/lions-jackals"
printf '\000%s' "$(cat "$here/../../data/eval.weights")" > "$c/weights/eval"
printf '\001%s' "$(head -c 4000 "$here/../../data/nets/chien-chacal.net")" > "$c/weights/net-head"
# a small network with an endgame section (kemet train --endgame)
Kabs=$(cd "$(dirname "$K")" && pwd)/$(basename "$K")
(cd "$tmp" &&
    "$Kabs" train chien-chacal --games 1 --hidden 2 --output tiny.net --quiet &&
    "$Kabs" solve chien-chacal --pieces 1 --output one.kemettb > /dev/null 2>&1 &&
    "$Kabs" train chien-chacal --endgame --from tiny.net --table one.kemettb \
        --examples 2 --games 4 --batch 2 --hidden 2 --output end.net --quiet)
printf '\001%s' "$(cat "$tmp/end.net")" > "$c/weights/net-endgame"
# the analysis report's data (kemet analyze --format json): the smallest
# runs, one of them with a variant
A="--games 2 --strong greedy --ladder random,greedy --trace-games 0 --pilot 2 --max-games 2 --tables off --format json"
"$K" analyze dogs-jackals $A > "$c/report/one" 2>/dev/null
"$K" analyze lions-jackals-quick $A --sweep lions-jackals-quick:dual=0..0 > "$c/report/variant" 2>/dev/null
