#!/usr/bin/env bash
# Run one or more atheris harnesses: fuzz/run.sh SECONDS NAME... (NAME: terrain,
# galaxy, classic, load, cli).  SECONDS=0 replays the corpus only (every file
# under fuzz/corpus/NAME once, then stops).  Uses the relfterrain importable from
# the repository root unless RELFTERRAIN_INSTALLED=1.  New inputs that grow
# coverage go to fuzz/corpus/NAME (or $FUZZ_CORPUS/NAME); a crash leaves
# crash-* in fuzz/ and makes the script fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1; shift
if [ "${RELFTERRAIN_INSTALLED:-0}" != 1 ]; then export PYTHONPATH="$here/..${PYTHONPATH:+:$PYTHONPATH}"; fi
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
corpora=${FUZZ_CORPUS:-$here/corpus}
cd "$here"
for name in "$@"; do
    mkdir -p "$corpora/$name"
    if [ "$seconds" = 0 ]; then
        # replay: every corpus file once (atheris runs the files given)
        n=$(find "$corpora/$name" -type f | wc -l)
        [ "$n" -gt 0 ] || { echo "fuzz $name: empty corpus"; continue; }
        python "fuzz_$name.py" -runs=0 "$corpora/$name" > "$corpora/$name.log" 2>&1 \
            || { tail -40 "$corpora/$name.log"; exit 1; }
        echo "fuzz $name: replayed $n inputs"
    else
        python "fuzz_$name.py" -max_total_time="$seconds" -rss_limit_mb=4096 \
            -timeout=30 -print_final_stats=1 "$corpora/$name" > "$corpora/$name.log" 2>&1 \
            || { tail -40 "$corpora/$name.log"; exit 1; }
        grep -a "^stat::number_of_executed_units\|^Done" "$corpora/$name.log" \
            | sed "s/^/fuzz $name: /"
    fi
done
