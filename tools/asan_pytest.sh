#!/usr/bin/env bash
# The pytest suite against the extension built with ASan + UBSan.
#
#   tools/asan_pytest.sh [pytest arguments...]     (default: the whole tests/ folder)
#
# The extension is built with -fsanitize=address,undefined
# -fno-sanitize-recover=all into a scratch folder (never the source tree),
# next to a copy of the Python package; pytest then runs from another folder
# with that copy first on sys.path, the ASan runtime preloaded (CPython
# itself is not instrumented), PYTHONMALLOC=malloc (so ASan sees every
# allocation) and leak detection off (CPython leaks at exit by design).  Any
# report aborts the process: pytest fails.  Notebooks are not run here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${ASAN_WORK:-$(mktemp -d)}
mkdir -p "$work"
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
(
    cd "$root"
    CFLAGS="$san -O1 -g" LDFLAGS="$san" python setup.py -q build_ext \
        --build-temp "$work/tmp" --build-lib "$work/lib" --force >"$work/build.log" 2>&1 \
        || { cat "$work/build.log"; exit 1; }
)
mkdir -p "$work/pkg/relfterrain"
cp "$root"/relfterrain/*.py "$root"/relfterrain/py.typed "$root"/relfterrain/*.pyi \
    "$work/pkg/relfterrain/"
cp -r "$root"/relfterrain/_static "$work/pkg/relfterrain/"  # the map page (relfterrain.serve)
cp "$work"/lib/relfterrain/_core*.so "$work/pkg/relfterrain/"
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
[ -f "$asan" ] || { echo "no libasan.so from gcc"; exit 1; }
cd "$work"
[ $# -gt 0 ] || set -- "$root/tests"
start=$SECONDS
env LD_PRELOAD="$asan:$ubsan" PYTHONMALLOC=malloc \
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    PYTHONPATH="$work/pkg" RELFTERRAIN_SANITIZED=1 \
    python -m pytest -p no:cacheprovider -o addopts="--strict-markers -ra" \
        --rootdir "$root" -c "$root/pyproject.toml" -q "$@"
echo "asan_pytest: $((SECONDS - start)) s of tests"
# the tests above used the sanitized build: its _core, from the copy
LD_PRELOAD="$asan:$ubsan" ASAN_OPTIONS=detect_leaks=0 PYTHONPATH="$work/pkg" \
    python - "$work/pkg" <<'PY'
import sys, relfterrain._core as c
assert c.__file__.startswith(sys.argv[1]), c.__file__
print("asan_pytest: tested", c.__file__)
PY
