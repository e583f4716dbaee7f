"""The core's fdlibm sin and cos (rt_sin, rt_cos; relfterrain.mathjs).

Bit for bit against node's Math.sin/Math.cos (tests/data/trig_node.json, made
by tests/data/make_trig_node.js) and against the independent pure-Python
transcription in tests/fdlibm_reference.py; then the binding's shapes, dtypes
and non-finite values.
"""

import doctest
import json
import math
import os
import re
import threading

import fdlibm_reference as R
import numpy as np
import pytest

from relfterrain import _core, mathjs

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "trig_node.json")
CANONICAL_NAN = 0x7FF8000000000000


def _bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


def _hex_to_f64(hexes):
    return np.array([int(h, 16) for h in hexes], dtype=np.uint64).view(np.float64)


@pytest.fixture(scope="module")
def node():
    with open(DATA) as f:
        d = json.load(f)
    x = _hex_to_f64(d["x"])
    return {"x": x, "sin": _hex_to_f64(d["sin"]), "cos": _hex_to_f64(d["cos"]), "raw": d}


def _assert_same(got, want, x, what):
    """Equal bits, or both NaN (node passes NaN payloads through; the core
    returns the canonical quiet NaN)."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    same = (_bits(got) == _bits(want)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    if bad.size:
        rows = [f"x={x[k]!r} ({float(x[k]).hex()}): got {got[k]!r}, want {want[k]!r}"
                for k in bad[:10]]
        pytest.fail(f"{what}: {bad.size} of {same.size} differ\n" + "\n".join(rows))


def _random_doubles(n, seed):
    """Random doubles of many magnitudes: random bit patterns (every exponent),
    log-uniform magnitudes 1e-10 .. 1e300, integers up to 2**27 and multiples
    of pi/2 up to 2**40."""
    rng = np.random.default_rng(seed)
    q = n // 4
    bits = rng.integers(0, 2**64, size=q, dtype=np.uint64, endpoint=False).view(np.float64)
    bits = np.where(np.isfinite(bits), bits, 1.0)
    logu = np.exp(rng.uniform(math.log(1e-10), math.log(1e300), q))
    logu *= rng.choice([-1.0, 1.0], q)
    ints = rng.integers(-(2**27), 2**27, q, endpoint=True).astype(np.float64)
    k = rng.integers(1, 2**40, n - 3 * q).astype(np.float64)
    pio2 = k * (math.pi / 2) * rng.choice([-1.0, 1.0], n - 3 * q)
    return np.concatenate([bits, logu, ints, pio2])


# -- against node ------------------------------------------------------------------


def test_node_data_is_large_and_varied(node):
    d = node["raw"]
    assert d["count"] == len(d["x"]) == len(d["sin"]) == len(d["cos"]) >= 20000
    assert len(set(d["x"])) == d["count"]
    x = node["x"]
    finite = x[np.isfinite(x)]
    assert np.abs(finite).max() > 1e300 and np.isnan(x).any() and np.isinf(x).any()
    assert (np.abs(finite) > 2**26).sum() > 1000  # the large-argument path
    for group in ("small", "pio2_multiples", "integers", "random_magnitudes",
                  "spiral_angles", "profile_phases", "planet_angles", "special"):
        assert d["groups"][group] > 100


def test_core_matches_node(node):
    x = node["x"]
    _assert_same(_core.sin(x), node["sin"], x, "rt_sin vs node Math.sin")
    _assert_same(_core.cos(x), node["cos"], x, "rt_cos vs node Math.cos")


def test_reference_matches_node(node):
    x = node["x"]
    _assert_same([R.sin(v) for v in x.tolist()], node["sin"], x, "reference sin vs node")
    _assert_same([R.cos(v) for v in x.tolist()], node["cos"], x, "reference cos vs node")


def test_differences_from_platform_libm(node):
    """How often fdlibm (node) differs from the platform's libm (glibc here):
    a figure for the record, not an assertion."""
    x = node["x"]
    fin = np.isfinite(x)
    xs = x[fin].tolist()
    ds = sum(math.sin(v) != s for v, s in zip(xs, node["sin"][fin].tolist()))
    dc = sum(math.cos(v) != c for v, c in zip(xs, node["cos"][fin].tolist()))
    print(f"\nnode (fdlibm) vs math.sin/math.cos: {ds} sin and {dc} cos of {len(xs)} "
          f"finite inputs differ ({100 * ds / len(xs):.2f} %, {100 * dc / len(xs):.2f} %)")


# -- C against the Python transcription ------------------------------------------


def test_core_matches_reference_on_random_doubles():
    x = _random_doubles(200_000, seed=20240611)
    assert x.size == 200_000 and np.isfinite(x).all()
    xs = x.tolist()
    _assert_same(_core.sin(x), [R.sin(v) for v in xs], x, "rt_sin vs reference")
    _assert_same(_core.cos(x), [R.cos(v) for v in xs], x, "rt_cos vs reference")


def test_rem_pio2_reduces_into_range():
    # the reference's reduction: |y0| <= pi/4 (+ a rounding), y1 tiny beside y0
    for v in _random_doubles(2000, seed=7).tolist():
        n, y0, y1 = R.rem_pio2(v)
        assert abs(y0) <= math.pi / 4 + 1e-9
        assert abs(y1) <= abs(y0) * 2**-52 or y0 == 0.0


# -- known values ------------------------------------------------------------------


def test_known_values():
    assert _bits(mathjs.sin(0.0)) == 0 and _bits(mathjs.sin(-0.0)) == 0x8000000000000000
    assert mathjs.cos(0.0) == 1.0 and mathjs.cos(-0.0) == 1.0
    assert mathjs.sin(math.pi / 6) == 0.49999999999999994  # 0x3fdfffffffffffff
    assert _bits(mathjs.sin(math.pi / 6)) == 0x3FDFFFFFFFFFFFFF
    assert mathjs.sin(1e22) == -0.8522008497671888
    assert mathjs.cos(1e22) == 0.523214785395139
    assert mathjs.sin(1e300) == -0.8178819121159085
    assert mathjs.sin(2.0**26) == 0.42075989775848105
    assert mathjs.sin(5e-324) == 5e-324  # tiny x: sin(x) = x
    assert mathjs.sin(math.pi) == 1.2246467991473532e-16


def test_non_finite_give_canonical_nan():
    x = np.array([np.nan, np.inf, -np.inf, -np.nan,
                  np.uint64(0x7FF0000000000001).view(np.float64)])
    for f in (_core.sin, _core.cos):
        out = f(x)
        assert (_bits(out) == CANONICAL_NAN).all()
    assert math.isnan(mathjs.sin(math.inf)) and math.isnan(mathjs.cos(math.nan))


# -- the binding: shapes, dtypes, inputs -------------------------------------------


def test_shapes_and_types():
    a = np.linspace(-10, 10, 24).reshape(2, 3, 4)
    for f, ref in ((_core.sin, R.sin), (_core.cos, R.cos)):
        out = f(a)
        assert out.shape == a.shape and out.dtype == np.float64 and out.flags.c_contiguous
        assert out.tolist() == np.vectorize(ref, otypes=[np.float64])(a).tolist()
        assert f(3.0).shape == () and f(3.0).dtype == np.float64  # 0-d for a scalar
        assert f([]).shape == (0,)
        assert f(np.empty((0, 5))).shape == (0, 5)
        assert f([[1, 2], [3, 4]]).tolist() == [[ref(1.0), ref(2.0)], [ref(3.0), ref(4.0)]]
        assert f(np.arange(5, dtype=np.int32)).tolist() == [ref(float(k)) for k in range(5)]
        assert f(np.float32(0.5)).item() == ref(float(np.float32(0.5)))
        # strided, Fortran-ordered, non-native byte order: the same values
        big = np.arange(60, dtype=np.float64).reshape(6, 10) * 1.7
        assert f(big[::2, ::3]).tolist() == f(big[::2, ::3].copy()).tolist()
        assert f(np.asfortranarray(big)).tolist() == f(big).tolist()
        assert f(big.astype(">f8")).tolist() == f(big).tolist()


def test_input_unmodified():
    a = np.array([1.0, 2.0, 1e22])
    before = a.copy()
    _core.sin(a)
    _core.cos(a)
    assert (a == before).all()


def test_bad_input():
    for f in (_core.sin, _core.cos, mathjs.sin, mathjs.cos):
        with pytest.raises(TypeError):
            f(np.array([1 + 2j]))
        with pytest.raises((TypeError, ValueError)):
            f("abc")
        with pytest.raises((TypeError, ValueError)):
            f([[1.0], [2.0, 3.0]])
    with pytest.raises(TypeError):
        _core.sin()  # type: ignore[call-arg]


def test_mathjs_returns():
    assert isinstance(mathjs.sin(1.0), float) and isinstance(mathjs.cos(2), float)
    assert isinstance(mathjs.sin(np.float64(1.0)), float)
    arr = mathjs.cos(np.array(2.0))
    assert isinstance(arr, np.ndarray) and arr.shape == ()
    assert isinstance(mathjs.sin([1.0, 2.0]), np.ndarray)


def test_threads_agree():
    x = _random_doubles(40_000, seed=3)
    want = _core.sin(x)
    results = [None] * 4

    def work(k):
        results[k] = _core.sin(x)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert (_bits(r) == _bits(want)).all()


def test_mathjs_doctests():
    result = doctest.testmod(mathjs, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 8


def test_c_fingerprint_is_the_reference_one():
    """csrc/tests/test_core.c checks rt_sin/rt_cos on 90,000 inputs against a
    constant (and `make cross-aarch64` compares its line across platforms):
    the constant is the Python transcription's fingerprint of the same inputs."""
    path = os.path.join(os.path.dirname(DATA), "..", "..", "csrc", "tests", "test_core.c")
    if not os.path.exists(path):
        pytest.skip("csrc/tests/test_core.c is not in this tree")
    with open(path) as f:
        src = f.read()
    m = re.search(r"CHECK\(fdlibm_hash\(\) == 0x([0-9a-f]{16})u\);", src)
    assert m, "test_core.c: the fdlibm fingerprint check is missing"
    assert int(m.group(1), 16) == R.fingerprint()
