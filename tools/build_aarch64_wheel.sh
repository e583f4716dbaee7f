#!/usr/bin/env bash
# Cross-compile relfterrain's extension for aarch64 (Linux, CPython 3.11) from
# an sdist into a wheel tagged linux_aarch64, check that its _core is an
# aarch64 ELF, then import it and run a few test files under qemu-user with
# Debian's aarch64 Python 3.11: with NumPy 2 (the aarch64 wheel from PyPI,
# whose headers the build uses) and with Debian's NumPy 1.24 (so the
# NumPy-2-built wheel really runs on the oldest NumPy range it declares),
# three qemu processes at once.
#
#   tools/build_aarch64_wheel.sh SDIST OUTDIR
#
# Needs: Debian bookworm on amd64, root (apt-get, dpkg --add-architecture
# arm64), and `python` = a CPython 3.11 with pip (a virtual environment: the
# build requirements are installed into it, the build runs --no-isolation).
#
# Nothing aarch64 is installed on the host: Debian's arm64 packages (Python,
# its headers, its libraries, NumPy 1.24) are only unpacked (dpkg -x) into a
# sysroot in a temporary folder; qemu-aarch64 -L runs the interpreter from it.
set -euo pipefail

sdist=$(realpath "${1:?usage: $0 SDIST OUTDIR}")
mkdir -p "${2:?usage: $0 SDIST OUTDIR}"
out=$(realpath "$2")
PYVER=3.11              # Debian bookworm's Python: the wheel's target
TRIPLET=aarch64-linux-gnu

# the wheel is tagged with the build Python's version: it must be the target's
[ "$(python -c 'import sys; print("%d.%d" % sys.version_info[:2])')" = $PYVER ] \
    || { echo "build_aarch64_wheel: needs a Python $PYVER to build with" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sysroot=$work/sysroot

# --- tools and the aarch64 sysroot (Debian's arm64 packages, unpacked) -----
need=()
command -v $TRIPLET-gcc >/dev/null || need+=(gcc-$TRIPLET libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v file >/dev/null || need+=(file)
command -v readelf >/dev/null || need+=(binutils)
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get update -qq
if [ ${#need[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# the interpreter and the stdlib's libraries; libpython-dev for the headers
# (the same as amd64's but pyconfig.h); NumPy 1.24 with its BLAS/LAPACK;
# libstdc++ for NumPy 2's wheel
debs=(libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libbz2-1.0 liblzma5 libssl3
      libuuid1 libpython$PYVER-minimal libpython$PYVER-stdlib python$PYVER-minimal
      libpython$PYVER-dev python3-numpy libblas3 liblapack3 libgfortran5)
mkdir -p "$work/debs"
chmod 755 "$work"; chmod 777 "$work/debs"  # apt-get download fetches as the _apt user
(cd "$work/debs" && apt-get download -qq "${debs[@]/%/:arm64}")
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
pyinc=$sysroot/usr/include/python$PYVER
test -f "$sysroot/usr/include/$TRIPLET/python$PYVER/pyconfig.h"

# --- NumPy 2 for aarch64: its headers to build with, and a runtime --------
# (NumPy 2's C headers are the same on x86_64 and aarch64, _numpyconfig.h
# included; this takes the aarch64 wheel's anyway, so they match the runtime.)
plat=(--platform manylinux2014_aarch64 --platform linux_aarch64
      --python-version $PYVER --implementation cp --only-binary=:all:)
python -m pip install --quiet --target "$work/numpy2" "${plat[@]}" "numpy>=2"
npinc=$work/numpy2/numpy/_core/include
test -f "$npinc/numpy/_numpyconfig.h"

# --- the build: setuptools from the unpacked sdist, cross compiler --------
python -m pip install --quiet "setuptools>=77" "numpy>=2" build
mkdir -p "$work/src"
tar xzf "$sdist" -C "$work/src" --strip-components=1
# CFLAGS come before setup.py's -I (the host's NumPy and Python headers), so
# the aarch64 headers win.  CFLAGS replaces the build Python's own flags, so it
# starts with CPython's defaults (as the native wheel has them).
# _PYTHON_HOST_PLATFORM tags the wheel linux_aarch64; SETUPTOOLS_EXT_SUFFIX
# names _core for an aarch64 CPython.
pyflags="-Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall"
build_wheel() {  # EXTRA_CFLAGS
    rm -rf "$work/src/build" "$work/wheel"
    (cd "$work/src" && env \
        CC=$TRIPLET-gcc LDSHARED="$TRIPLET-gcc -shared" \
        CFLAGS="$pyflags -I$npinc -I$pyinc -I$sysroot/usr/include $1" \
        _PYTHON_HOST_PLATFORM=linux-aarch64 \
        SETUPTOOLS_EXT_SUFFIX=.cpython-${PYVER/./}-$TRIPLET.so \
        python -m build --wheel --no-isolation --outdir "$work/wheel" >"$work/build.log" 2>&1)
}
if ! build_wheel ""; then
    # Debian 12's GCC 12.2 for aarch64 crashes ("internal compiler error: in
    # vect_transform_reduction") vectorising the fmax/fabs reduction loop of
    # absmax() in csrc/galaxy.c at -O3.  Until the C avoids that pattern, build
    # without loop vectorisation (it changes no IEEE result, only speed).
    grep -q "internal compiler error: in vect_transform_reduction" "$work/build.log" \
        || { cat "$work/build.log"; exit 1; }
    echo "NOTE: $TRIPLET-gcc $($TRIPLET-gcc -dumpfullversion) crashed vectorising:" \
        "$(grep -m1 -B1 "internal compiler error" "$work/build.log" | head -1)"
    echo "NOTE: building again with -fno-tree-loop-vectorize"
    build_wheel -fno-tree-loop-vectorize || { cat "$work/build.log"; exit 1; }
fi
grep -E "^$TRIPLET-gcc .*_core\.c" "$work/build.log" | head -1
wheel=$(ls "$work"/wheel/relfterrain-*-cp${PYVER/./}-cp${PYVER/./}-linux_aarch64.whl)
cp "$wheel" "$out/"
wheel=$out/$(basename "$wheel")
echo "built $wheel"

# --- what was built ---------------------------------------------------------
python -m pip install --quiet --no-deps --target "$work/pkg" "${plat[@]}" "$wheel"
so=$(ls "$work"/pkg/relfterrain/_core.cpython-*-$TRIPLET.so)
file "$so"
file "$so" | grep -q "ELF 64-bit LSB shared object, ARM aarch64"
readelf -h "$so" | grep -E "Machine:.*AArch64"
readelf -d "$so" | grep NEEDED
if readelf -d "$so" | grep NEEDED | grep -qv -e 'libc\.so' -e 'libm\.so' -e 'libpthread\.so'; then
    echo "unexpected shared-library dependency" >&2; exit 1
fi

# --- run it: Debian's aarch64 Python under qemu-user ------------------------
python -m pip install --quiet --target "$work/testdeps" "${plat[@]}" "pytest>=7" "hypothesis>=6.50" "tqdm>=4.60"  # tqdm: the progress-bar test
run_aarch64() {  # PYTHONPATH ARGS...: the aarch64 Python from the sysroot
    local path=$1; shift
    # -P: cwd (the unpacked sdist, with relfterrain/ sources) stays off sys.path.
    # Debian's NumPy finds its BLAS/LAPACK where update-alternatives would link them.
    (cd "$work/src" && qemu-aarch64 -L "$sysroot" \
        -E PYTHONPATH="$path" -E PYTHONDONTWRITEBYTECODE=1 \
        -E LD_LIBRARY_PATH="$sysroot/usr/lib/$TRIPLET/blas:$sysroot/usr/lib/$TRIPLET/lapack" \
        "$sysroot/usr/bin/python$PYVER" -P "$@")
}
# NumPy 2 (the aarch64 wheel from PyPI): the exactness suites; Debian's NumPy
# 1.24 (the oldest the dependency allows is 1.23): the API suite, which shows
# the extension built against NumPy 2 runs on NumPy 1.x.  qemu is slow and
# runs one thread a process: three processes at once, each writing its own
# log (printed in order once all have ended), keep both cores busy.
suite() (  # NAME NUMPY_PATH TESTS...: one pytest run under qemu into $work/suite-NAME.log
    set +e
    name=$1 numpy_path=$2; shift 2
    log=$work/suite-$name.log
    t0=$SECONDS
    path=$work/pkg:$work/testdeps${numpy_path:+:$numpy_path}
    {
        run_aarch64 "$path" -c '
import platform, sys, numpy, relfterrain, relfterrain._core as c
assert platform.machine() == "aarch64", platform.machine()
assert relfterrain.__file__.startswith(sys.argv[1]), relfterrain.__file__
print(platform.machine(), "Python", platform.python_version(), "NumPy", numpy.__version__)
print(c.__file__)
print("simd variants:", relfterrain.simd_variants())' "$work/pkg/" \
        && run_aarch64 "$path" -m pytest -p no:cacheprovider -o addopts="--strict-markers" -q "$@"
    } >"$log" 2>&1  # (-o addopts: the ini's want nbmake, not installed here)
    rc=$?
    echo "::: aarch64 $name ($*): exit $rc in $((SECONDS - t0)) s" >>"$log"
    exit $rc
)
# test_simd.py's streaming tests at any step take as long under qemu as the
# other NumPy 2 files together (270 s and 250 s, 2026-11-28): a process each.
names=(numpy2-anystep numpy2-rest numpy1-api)
st=tests/test_simd.py::test_streaming_stores_any_step
suite numpy2-anystep "$work/numpy2" "$st" "${st}_heights" & p1=$!
suite numpy2-rest "$work/numpy2" tests/test_exact.py tests/test_galaxy.py tests/test_simd.py \
    --deselect "$st" tests/test_api.py & p2=$!
# the point path's sums at dyadic steps from any origin (NEON's linear
# kernels, the near columns mended) with the shortest suite
suite numpy1-api "" tests/test_api.py tests/test_point_linear_sums.py & p3=$!
failed=0
for pid in $p1 $p2 $p3; do wait "$pid" || failed=1; done
for name in "${names[@]}"; do echo "--- aarch64 $name"; cat "$work/suite-$name.log"; done
if [ $failed != 0 ]; then echo "build_aarch64_wheel: a suite failed under qemu (above)" >&2; exit 1; fi
