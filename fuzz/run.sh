#!/usr/bin/env bash
# Run one or more atheris harnesses: fuzz/run.sh SECONDS NAME... (NAME: terrain,
# galaxy, classic, load, cli).  SECONDS=0 replays the corpus only (every file
# under fuzz/corpus/NAME once, then stops).  Uses the relfterrain importable from
# the repository root unless RELFTERRAIN_INSTALLED=1.  New inputs that grow
# coverage go to fuzz/corpus/NAME; a crash leaves crash-* in fuzz/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1; shift
if [ "${RELFTERRAIN_INSTALLED:-0}" != 1 ]; then export PYTHONPATH="$here/..${PYTHONPATH:+:$PYTHONPATH}"; fi
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
cd "$here"
for name in "$@"; do
    mkdir -p "corpus/$name"
    if [ "$seconds" = 0 ]; then
        files=("corpus/$name"/*)
        [ -e "${files[0]}" ] || { echo "fuzz $name: empty corpus"; continue; }
        python "fuzz_$name.py" -runs=0 "${files[@]}" 2>&1 | tail -3
    else
        python "fuzz_$name.py" -max_total_time="$seconds" -rss_limit_mb=4096 \
            -timeout=30 -print_final_stats=1 "corpus/$name"
    fi
done
