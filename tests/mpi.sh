#!/bin/sh
# mpi.sh KEMET MPIRUN - the heavy commands give the same output under
# mpirun with 3 ranks (and 2 threads each) as one process with 1 thread:
# match (text and JSON, paired and luck-adjusted) and sim, apart from the
# lines that report time.
set -eu
kemet=$1
mpirun=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run3() {
    "$mpirun" --oversubscribe --allow-run-as-root -n 3 "$kemet" "$@"
}
untimed() { grep -v -e ' s on ' -e 'time per move' -e '^ *[0-9.]* s$' -e 'games/s' -e 'games per second' -e 'seconds' "$1" || true; }
check() { # COMMAND ARGS...: one process vs three ranks
    name=$1
    "$kemet" "$@" --threads 1 >"$dir/$name.1"
    run3 "$@" --threads 2 >"$dir/$name.3"
    untimed "$dir/$name.1" >"$dir/$name.1u"
    untimed "$dir/$name.3" >"$dir/$name.3u"
    if ! cmp -s "$dir/$name.1u" "$dir/$name.3u"; then
        echo "mpi: $name differs between 1 process and 3 ranks:" >&2
        diff "$dir/$name.1u" "$dir/$name.3u" >&2 || true
        exit 1
    fi
    [ -s "$dir/$name.1u" ] || { echo "mpi: $name printed nothing" >&2; exit 1; }
    echo "ok - $name: the same for 1 process and 3 ranks"
}
check match senet-kendall --p1 greedy --p2 expectimax:200 --games 61 --seed 5
# paired throws and each game's luck travel with the outcomes
check match dogs-jackals --p1 greedy --p2 expectimax:200 --games 32 --paired --luck
# JSON on one line: drop the time per move
sed_json() { sed 's/"seconds_per_move":\[[^]]*\]//' "$1"; }
"$kemet" match dogs-jackals --p1 random --p2 greedy --games 40 --json --threads 1 >"$dir/j1"
run3 match dogs-jackals --p1 random --p2 greedy --games 40 --json --threads 2 >"$dir/j3"
[ "$(sed_json "$dir/j1")" = "$(sed_json "$dir/j3")" ] || { echo "mpi: match --json differs" >&2; exit 1; }
echo "ok - match --json: the same"
check sim lions-jackals --games 300 --seed 9
# one line from rank 0 only: the other ranks print nothing
n=$(run3 match senet-kendall --p1 random --p2 random --games 6 --json | wc -l)
[ "$n" -eq 1 ] || { echo "mpi: $n lines from 3 ranks (rank 0 alone prints)" >&2; exit 1; }
echo "ok - rank 0 alone prints"
# any other command runs once, on rank 0
n=$(run3 start senet-kendall 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || { echo "mpi: start printed $n lines under 3 ranks" >&2; exit 1; }
echo "ok - other commands run on rank 0 alone"
# analyze: the self-play traces (with each game's win estimates, luck and
# landings), the ladder, probes and SkillTrace dealt over the ranks; the report written by rank 0 alone
A="analyze senet-kendall chien-chacal --games 60 --pilot 6 --max-games 20 --strong expectimax:300 --ladder random,greedy,expectimax:300 --trace-games 2 --trace-base 4 --format json --tables off"
"$kemet" $A --threads 1 >"$dir/a1" 2>/dev/null
run3 $A --threads 2 --output "$dir/a3" 2>/dev/null
# the same but for the run's own record (its command, processes, threads
# and times)
sed_an() { tr -d '\n' <"$1" | sed -e 's/"run":{[^}]*}//' -e 's/"time":{[^}]*}//g'; }
[ "$(sed_an "$dir/a1")" = "$(sed_an "$dir/a3")" ] || { echo "mpi: analyze differs between 1 process and 3 ranks" >&2; exit 1; }
grep -q '"processes":3' "$dir/a3" || { echo "mpi: analyze does not record its 3 ranks" >&2; exit 1; }
[ ! -e "$dir/a3.tmp" ] || { echo "mpi: analyze left its temporary file" >&2; exit 1; }
echo "ok - analyze: the same report, written once"
# tune: each game's samples gathered in game order, the same fit
"$kemet" tune senet-kendall chien-chacal --games 60 --rounds 2 --threads 1 >"$dir/t1" 2>/dev/null
run3 tune senet-kendall chien-chacal --games 60 --rounds 2 --threads 2 >"$dir/t3" 2>/dev/null
cmp "$dir/t1" "$dir/t3" || { echo "mpi: tune differs between 1 process and 3 ranks" >&2; exit 1; }
echo "ok - tune: the same weights"
# train: each batch's games dealt, every game's weight changes gathered in
# game order: the same network, written once by rank 0
T="train dogs-jackals --games 120 --batch 7 --hidden 8 --seed 9 --quiet"
"$kemet" $T --threads 1 >"$dir/n1"
run3 $T --threads 2 --output "$dir/n3"
cmp "$dir/n1" "$dir/n3" || { echo "mpi: train differs between 1 process and 3 ranks" >&2; exit 1; }
[ "$(ls "$dir" | grep -c '^n3')" -eq 1 ] || { echo "mpi: train left other files" >&2; exit 1; }
echo "ok - train: the same network, written once"
# progress: rank 0 reports the whole job's games, not its own share
# (a job of some 6 s on two cores; lines every 0.2 s from 0.2 s, the ranks'
# counts exchanged twice a second: the first line comes after about 0.5 s,
# so the job may run ten times as fast and still show it)
KEMET_PROGRESS=0.2 "$mpirun" --oversubscribe --allow-run-as-root -x KEMET_PROGRESS -n 3 "$kemet" \
    match senet-kendall --p1 expectimax:12000 --p2 greedy --games 60 --threads 1 2>"$dir/p" >/dev/null
tail -n 1 "$dir/p" | grep -q ': 60/60, ' || { echo "mpi: no whole-job progress:" >&2; cat "$dir/p" >&2; exit 1; }
echo "ok - progress counts the whole job ($(wc -l <"$dir/p") lines, the last: $(tail -n 1 "$dir/p" | sed 's/^ *//'))"
# solve: every level's values made in shares (whole blocks) by the ranks
# and exchanged each sweep: the same table file, written once by rank 0
"$kemet" solve dogs-jackals --pieces 2 --threads 1 --output "$dir/s1.kemettb" >/dev/null 2>&1
run3 solve dogs-jackals --pieces 2 --threads 2 --output "$dir/s3.kemettb" >"$dir/s3.out" 2>/dev/null
cmp "$dir/s1.kemettb" "$dir/s3.kemettb" || { echo "mpi: solve differs between 1 process and 3 ranks" >&2; exit 1; }
grep -q "3 ranks" "$dir/s3.out" || { echo "mpi: solve did not say it ran on 3 ranks" >&2; exit 1; }
[ "$(ls "$dir" | grep -c '^s3.kemettb')" -eq 1 ] || { echo "mpi: solve left other files" >&2; exit 1; }
echo "ok - solve: the same table, written once"
# train --endgame: the section fitted to that table's values, the examples
# dealt like games: the same network
E="train dogs-jackals --endgame --from $dir/n1 --table $dir/s1.kemettb --examples 5 --games 60 --batch 7 --hidden 4 --seed 3 --quiet"
"$kemet" $E --threads 1 >"$dir/e1"
run3 $E --threads 2 --output "$dir/e3"
cmp "$dir/e1" "$dir/e3" || { echo "mpi: train --endgame differs between 1 process and 3 ranks" >&2; exit 1; }
grep -q " pieces=2$" "$dir/e3" || { echo "mpi: train --endgame wrote no section" >&2; exit 1; }
echo "ok - train --endgame: the same network with its section"
