#!/usr/bin/env bash
# Runs every command of docs/benchmarks.md's table and prints the figures its "Today" column holds, so that the
# table can be refreshed in one go.
#
#   bash bench/all.sh [GROUP ...]
#
# GROUPs, in the table's order: command table postgres render instructions playouts modules scoring standin
# (default: all of them; `standin` alone takes an hour or more, `instructions` several minutes a game).
# Environment: REPO (default: this checkout), PY (default $REPO/.venv/bin/python), RUNS (timed runs of each timing
# command, default 3; the stand-in and instruction counts run once), OUT (folder for every run's full output,
# default a new /tmp/bench-XXXXXX).
# Each figure is printed as `FIGURE: median (runs: a, b, c)`; run it on an otherwise quiet machine.

set -uo pipefail
REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
PY=${PY:-$REPO/.venv/bin/python}
RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d /tmp/bench-XXXXXX)}
cd "$REPO" || exit 1
mkdir -p "$OUT"

median() {  # the median of the numbers given, as the table shows them
    "$PY" -c 'import statistics, sys; print(f"{statistics.median(float(x) for x in sys.argv[1:]):g}")' "$@"
}

joined() { local IFS=,; echo "$*" | sed 's/,/, /g'; }

bench() {  # bench NAME ARGS...: run `python bench/ARGS`, keep its output as $OUT/NAME.txt, print the file's path
    local name=$1; shift
    local file="$OUT/$name.txt" start=$SECONDS
    if ! "$PY" "$@" >"$file" 2>&1; then
        echo "FAILED: $PY $* (output in $file)" >&2
    fi
    echo "  ran $* in $((SECONDS - start)) s" >&2
    echo "$file"
}

figure() {  # figure LABEL UNIT VALUES...: print the median and the runs
    local label=$1 unit=$2; shift 2
    if [ $# -eq 0 ]; then echo "$label: no value (see $OUT)"; return; fi
    echo "$label: $(median "$@")$unit (runs: $(joined "$@"))"
}

group_command() {
    local p95=() med=()
    for k in $(seq "$RUNS"); do
        f=$(bench "command-$k" bench/command.py --commands 200 --seed 7)
        line=$(grep '^p95: ' "$f" | tail -1)
        p95+=($(sed -n 's/^p95: \([0-9.]*\) ms .*/\1/p' <<<"$line"))
        med+=($(sed -n 's/.*(median \([0-9.]*\) ms)$/\1/p' <<<"$line"))
    done
    figure "Discord command end to end, p95" " ms" "${p95[@]}"
    figure "Discord command end to end, median" " ms" "${med[@]}"
}

table_runs() {  # table_runs KIND ARGS...: bench/table.py's p95 per count of stored games
    local kind=$1; shift
    local p10=() p10k=()
    for k in $(seq "$RUNS"); do
        f=$(bench "table-$kind-$k" bench/table.py "$@")
        p10+=($(sed -n 's/^commands\/s: .*, p95: \([0-9.]*\) ms, .*(10 games, .*/\1/p' "$f"))
        p10k+=($(sed -n 's/^commands\/s: .*, p95: \([0-9.]*\) ms, .*(10,000 games, .*/\1/p' "$f"))
    done
    figure "Table command, $kind, p95 with 10 stored games" " ms" "${p10[@]}"
    figure "Table command, $kind, p95 with 10,000 stored games" " ms" "${p10k[@]}"
}

group_table() { table_runs sqlite --games 3; }

group_postgres() { table_runs postgresql --postgres --games 3; }

group_render() {
    local keyper=() keythedral=() keyflower=()
    for k in $(seq "$RUNS"); do
        f=$(bench "render-$k" bench/render.py --runs 30 --seed 3)
        keyper+=($(sed -n 's/^| keyper | \([0-9.]*\) ms .*/\1/p' "$f"))
        keythedral+=($(sed -n 's/^| keythedral | \([0-9.]*\) ms .*/\1/p' "$f"))
        keyflower+=($(sed -n 's/^| keyflower | \([0-9.]*\) ms .*/\1/p' "$f"))
    done
    figure "Table image, Keyper" " ms" "${keyper[@]}"
    figure "Table image, Keythedral" " ms" "${keythedral[@]}"
    figure "Table image, Keyflower" " ms" "${keyflower[@]}"
}

group_instructions() {
    local f
    f=$(bench instructions-keyper bench/instructions.py)
    echo "Instructions a play command, Keyper: $(sed -n 's/^instructions: \([0-9,]*\) .*/\1/p' "$f")"
    for game in keythedral keyflower; do
        f=$(bench "instructions-$game" bench/instructions.py --game "$game" --games 1 --seed 3)
        echo "Instructions a play command, ${game^}: $(sed -n 's/^instructions: \([0-9,]*\) .*/\1/p' "$f")"
    done
}

playout_median() {  # playout_median NAME ARGS...: RUNS runs of bench/playouts.py; prints the per-run medians
    local name=$1; shift
    local values=()
    for k in $(seq "$RUNS"); do
        f=$(bench "$name-$k" bench/playouts.py "$@")
        values+=($(sed -n 's/^median \([0-9.]*\) ms per game.*/\1/p' "$f"))
    done
    echo "${values[@]}"
}

group_playouts() {
    figure "Random 4-player Keyper game" " ms" \
        $(playout_median playout-keyper --game keyper --players 4 --games 60 --seed 1)
    figure "Random 4-player Keythedral game" " ms" \
        $(playout_median playout-keythedral --game keythedral --players 4 --games 60 --seed 1)
    figure "Random 4-player Keyflower game" " ms" \
        $(playout_median playout-keyflower --game keyflower --players 4 --games 100 --seed 1)
}

group_modules() {
    local n games boat base modules
    for n in 2 3 4 5 6; do
        if [ "$n" -le 3 ]; then games=200; boat=keyflower; else games=100; boat=flipper; fi
        base=($(playout_median "modules-base-$n" --game keyflower --players "$n" --games "$games" --seed 1))
        modules=($(playout_median "modules-both-$n" --game keyflower --players "$n" --games "$games" --seed 1 \
            --option "keymelequin=$boat" --option key_celeste=yes))
        b=$(median "${base[@]}"); m=$(median "${modules[@]}")
        echo "Keyflower, $n players: base $b ms (runs: $(joined "${base[@]}")), both modules $m ms" \
             "(runs: $(joined "${modules[@]}")), ratio $("$PY" -c "print(f'{$m / $b:.2f}')")"
    done
}

group_scoring() {
    local upgraded=() plain=() kf=() worst=()
    for k in $(seq "$RUNS"); do
        f=$(bench "scoring-$k" bench/scoring.py --runs 20)
        upgraded+=($(sed -n 's/^upgraded: median \([0-9.]*\) ms.*/\1/p' "$f"))
        plain+=($(sed -n 's/^plain: median \([0-9.]*\) ms.*/\1/p' "$f"))
        f=$(bench "scoring-keyflower-$k" bench/scoring_keyflower.py --games 20 --seed 1)
        kf+=($(sed -n 's/^median \([0-9.]*\) ms per player.*/\1/p' "$f"))
        worst+=($(sed -n 's/.*; worst \([0-9.]*\) ms per player$/\1/p' "$f"))
    done
    figure "Keyper's final scoring, worst case (all upgraded), per player" " ms" "${upgraded[@]}"
    figure "Keyper's final scoring, tiles plain, per player" " ms" "${plain[@]}"
    figure "Keyflower's final scoring, 6-player ends, median per player" " ms" "${kf[@]}"
    figure "Keyflower's final scoring, 6-player ends, worst per player" " ms" "${worst[@]}"
}

STANDIN_P95=()
standin() {  # standin LABEL NAME ARGS...: one run of bench/standin.py; prints its result line
    local label=$1 name=$2; shift 2
    local f line
    f=$(bench "standin-$name" bench/standin.py "$@")
    line=$(grep '^stand-in won ' "$f" | tail -1)
    STANDIN_P95+=($(sed -n 's/.*, p95 \([0-9]*\) ms$/\1/p' <<<"$line"))
    echo "$label: ${line:-no result (see $f)}"
    grep ' did not end within ' "$f" || true
}

group_standin() {
    standin "Stand-in, Keyper, random seats" keyper-random --game keyper --opponent random --games 20 --seed 101
    standin "Stand-in, Keyper, greedy seats" keyper-greedy --game keyper --opponent greedy --games 10 --seed 101
    standin "Stand-in, Keythedral, weighted random seats, seeds 101-104" keythedral-weighted-101 \
        --game keythedral --opponent weighted --games 4 --seed 101 --max-actions 12000
    standin "Stand-in, Keythedral, weighted random seats, seeds 105-108" keythedral-weighted-105 \
        --game keythedral --opponent weighted --games 4 --seed 105 --max-actions 12000
    standin "Stand-in, Keythedral, weighted random seats, open screens (the note)" keythedral-open \
        --game keythedral --opponent weighted --games 4 --seed 101 --max-actions 12000 --option open_screens=yes
    standin "Stand-in, Keythedral, greedy seats" keythedral-greedy \
        --game keythedral --opponent greedy --games 10 --seed 101 --max-actions 12000
    standin "Stand-in, Keyflower, random seats, seeds 101-140" keyflower-random-101 \
        --game keyflower --opponent random --games 40 --seed 101
    standin "Stand-in, Keyflower, random seats, seeds 141-180" keyflower-random-141 \
        --game keyflower --opponent random --games 40 --seed 141
    standin "Stand-in, Keyflower, greedy seats" keyflower-greedy --game keyflower --opponent greedy --games 40 --seed 101
    if [ ${#STANDIN_P95[@]} -gt 0 ]; then
        sorted=($(printf '%s\n' "${STANDIN_P95[@]}" | sort -n))
        echo "Stand-in decision p95 over the runs above: ${sorted[0]}-${sorted[-1]} ms"
    fi
}

ALL_GROUPS=(command table postgres render instructions playouts modules scoring standin)
chosen=("$@")
[ ${#chosen[@]} -eq 0 ] && chosen=("${ALL_GROUPS[@]}")
for group in "${chosen[@]}"; do
    if ! declare -F "group_$group" >/dev/null; then
        echo "unknown group '$group'; the groups: ${ALL_GROUPS[*]}" >&2
        exit 2
    fi
done

echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with changes)')"
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/^MemTotal:/ {printf "%.1f", $2 / 1048576}' /proc/meminfo) GiB;" \
     "$("$PY" -c 'import platform, sqlite3, PIL; print(f"Python {platform.python_version()} ({platform.python_implementation()}), SQLite {sqlite3.sqlite_version}, Pillow {PIL.__version__}")')"
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); full outputs in $OUT"
for group in "${chosen[@]}"; do
    echo "== $group"
    "group_$group"
done
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
