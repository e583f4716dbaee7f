"""fdlibm 5.3 sin and cos in pure Python: an independent reference for rt_sin/rt_cos.

A line-by-line transcription of Sun's fdlibm 5.3 (s_sin.c, s_cos.c, k_sin.c,
k_cos.c, e_rem_pio2.c, k_rem_pio2.c) as V8 ships it (src/base/ieee754.cc),
which is what node's Math.sin and Math.cos compute.  Python floats are
IEEE-754 doubles with round-to-nearest and no contraction, so the operations
below, written in fdlibm's order, give fdlibm's bits.  The 32-bit words of a
double are read and written with `struct`.  It never imports relfterrain.

Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
Developed at SunSoft, a Sun Microsystems, Inc. business.
Permission to use, copy, modify, and distribute this software is freely
granted, provided that this notice is preserved.
"""

from __future__ import annotations

import math
import struct

__all__ = ["sin", "cos", "rem_pio2"]

_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000000))[0]


def _bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _high(x: float) -> int:
    """The high word as a signed 32-bit int (fdlibm's GET_HIGH_WORD into int32_t)."""
    h = _bits(x) >> 32
    return h - (1 << 32) if h & 0x80000000 else h


def _low(x: float) -> int:
    return _bits(x) & 0xFFFFFFFF


def _words(hi: int, lo: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)))[0]


def _trunc32(x: float) -> int:
    """C's (int32_t)x for |x| < 2**31."""
    return int(x)


# k_sin.c
_half = 5.00000000000000000000e-01
_S1 = _words(0xBFC55555, 0x55555549)
_S2 = _words(0x3F811111, 0x1110F8A6)
_S3 = _words(0xBF2A01A0, 0x19C161D5)
_S4 = _words(0x3EC71DE3, 0x57B1FE7D)
_S5 = _words(0xBE5AE5E6, 0x8A2B9CEB)
_S6 = _words(0x3DE5D93A, 0x5ACFD57C)


def _kernel_sin(x: float, y: float, iy: int) -> float:
    ix = _high(x) & 0x7FFFFFFF
    if ix < 0x3E400000 and _trunc32(x) == 0:  # |x| < 2**-27
        return x
    z = x * x
    v = z * x
    r = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    if iy == 0:
        return x + v * (_S1 + z * r)
    return x - ((z * (_half * y - v * r) - y) - v * _S1)


# k_cos.c
_one = 1.0
_C1 = _words(0x3FA55555, 0x5555554C)
_C2 = _words(0xBF56C16C, 0x16C15177)
_C3 = _words(0x3EFA01A0, 0x19CB1590)
_C4 = _words(0xBE927E4F, 0x809C52AD)
_C5 = _words(0x3E21EE9E, 0xBDB4B1C4)
_C6 = _words(0xBDA8FAE9, 0xBE8838D4)


def _kernel_cos(x: float, y: float) -> float:
    ix = _high(x) & 0x7FFFFFFF
    if ix < 0x3E400000 and _trunc32(x) == 0:  # |x| < 2**-27
        return _one
    z = x * x
    r = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    if ix < 0x3FD33333:  # |x| < 0.3
        return _one - (0.5 * z - (z * r - x * y))
    if ix > 0x3FE90000:  # |x| > 0.78125
        qx = 0.28125
    else:
        qx = _words(ix - 0x00200000, 0)  # |x|/4, low word cleared
    iz = 0.5 * z - qx
    a = _one - qx
    return a - (iz - (z * r - x * y))


# k_rem_pio2.c
_init_jk = (2, 3, 4, 6)
_PIo2 = tuple(
    _words(h, lo)
    for h, lo in (
        (0x3FF921FB, 0x40000000),
        (0x3E74442D, 0x00000000),
        (0x3CF84698, 0x80000000),
        (0x3B78CC51, 0x60000000),
        (0x39F01B83, 0x80000000),
        (0x387A2520, 0x40000000),
        (0x36E38222, 0x80000000),
        (0x3569F31D, 0x00000000),
    )
)
_two24 = 16777216.0
_twon24 = 5.96046447753906250000e-08


def _scalbn(x: float, n: int) -> float:
    return math.ldexp(x, n)


def _kernel_rem_pio2(x: list[float], e0: int, nx: int, prec: int,
                     ipio2: tuple[int, ...]) -> tuple[int, float, float]:
    jk = _init_jk[prec]
    jp = jk
    jx = nx - 1
    jv = int((e0 - 3) / 24)  # C division truncates toward zero
    if jv < 0:
        jv = 0
    q0 = e0 - 24 * (jv + 1)

    f = [0.0] * 20
    q = [0.0] * 20
    iq = [0] * 20
    fq = [0.0] * 20
    j = jv - jx
    m = jx + jk
    for i in range(m + 1):
        f[i] = 0.0 if j < 0 else float(ipio2[j])
        j += 1
    for i in range(jk + 1):
        fw = 0.0
        for j in range(jx + 1):
            fw += x[j] * f[jx + i - j]
        q[i] = fw

    jz = jk
    while True:  # recompute:
        i = 0
        j = jz
        z = q[jz]
        while j > 0:
            fw = float(_trunc32(_twon24 * z))
            iq[i] = _trunc32(z - _two24 * fw)
            z = q[j - 1] + fw
            i += 1
            j -= 1

        z = _scalbn(z, q0)
        z -= 8.0 * float(math.floor(z * 0.125))
        n = _trunc32(z)
        z -= float(n)
        ih = 0
        if q0 > 0:
            i = iq[jz - 1] >> (24 - q0)
            n += i
            iq[jz - 1] -= i << (24 - q0)
            ih = iq[jz - 1] >> (23 - q0)
        elif q0 == 0:
            ih = iq[jz - 1] >> 23
        elif z >= 0.5:
            ih = 2

        if ih > 0:
            n += 1
            carry = 0
            for i in range(jz):
                j = iq[i]
                if carry == 0:
                    if j != 0:
                        carry = 1
                        iq[i] = 0x1000000 - j
                else:
                    iq[i] = 0xFFFFFF - j
            if q0 == 1:
                iq[jz - 1] &= 0x7FFFFF
            elif q0 == 2:
                iq[jz - 1] &= 0x3FFFFF
            if ih == 2:
                z = _one - z
                if carry != 0:
                    z -= _scalbn(_one, q0)

        if z == 0.0:
            j = 0
            for i in range(jz - 1, jk - 1, -1):
                j |= iq[i]
            if j == 0:
                k = 1
                while jk >= k and iq[jk - k] == 0:
                    k += 1
                for i in range(jz + 1, jz + k + 1):
                    f[jx + i] = float(ipio2[jv + i])
                    fw = 0.0
                    for j in range(jx + 1):
                        fw += x[j] * f[jx + i - j]
                    q[i] = fw
                jz += k
                continue
        break

    if z == 0.0:
        jz -= 1
        q0 -= 24
        while iq[jz] == 0:
            jz -= 1
            q0 -= 24
    else:
        z = _scalbn(z, -q0)
        if z >= _two24:
            fw = float(_trunc32(_twon24 * z))
            iq[jz] = _trunc32(z - _two24 * fw)
            jz += 1
            q0 += 24
            iq[jz] = _trunc32(fw)
        else:
            iq[jz] = _trunc32(z)

    fw = _scalbn(_one, q0)
    for i in range(jz, -1, -1):
        q[i] = fw * float(iq[i])
        fw *= _twon24

    for i in range(jz, -1, -1):
        fw = 0.0
        k = 0
        while k <= jp and k <= jz - i:
            fw += _PIo2[k] * q[i + k]
            k += 1
        fq[jz - i] = fw

    # prec 1 or 2
    fw = 0.0
    for i in range(jz, -1, -1):
        fw += fq[i]
    y0 = fw if ih == 0 else -fw
    fw = fq[0] - fw
    for i in range(1, jz + 1):
        fw += fq[i]
    y1 = fw if ih == 0 else -fw
    return n & 7, y0, y1


# e_rem_pio2.c
_two_over_pi = (
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
    0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
    0x73A8C9, 0x60E27B, 0xC08C6B,
)  # fmt: skip
_npio2_hw = (
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB,
    0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB,
    0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C,
    0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB,
    0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
)  # fmt: skip
_invpio2 = _words(0x3FE45F30, 0x6DC9C883)
_pio2_1 = _words(0x3FF921FB, 0x54400000)
_pio2_1t = _words(0x3DD0B461, 0x1A626331)
_pio2_2 = _words(0x3DD0B461, 0x1A600000)
_pio2_2t = _words(0x3BA3198A, 0x2E037073)
_pio2_3 = _words(0x3BA3198A, 0x2E000000)
_pio2_3t = _words(0x397B839A, 0x252049C1)


def rem_pio2(x: float) -> tuple[int, float, float]:
    """(n, y0, y1) with y0 + y1 = x - n*pi/2, |y0 + y1| <= pi/4 (fdlibm's n, not reduced)."""
    hx = _high(x)
    ix = hx & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return 0, x, 0.0
    if ix < 0x4002D97C:  # |x| < 3pi/4, n = +-1
        if hx > 0:
            z = x - _pio2_1
            if ix != 0x3FF921FB:
                y0 = z - _pio2_1t
                return 1, y0, (z - y0) - _pio2_1t
            z -= _pio2_2
            y0 = z - _pio2_2t
            return 1, y0, (z - y0) - _pio2_2t
        z = x + _pio2_1
        if ix != 0x3FF921FB:
            y0 = z + _pio2_1t
            return -1, y0, (z - y0) + _pio2_1t
        z += _pio2_2
        y0 = z + _pio2_2t
        return -1, y0, (z - y0) + _pio2_2t
    if ix <= 0x413921FB:  # medium size
        t = math.fabs(x)
        n = _trunc32(t * _invpio2 + _half)
        fn = float(n)
        r = t - fn * _pio2_1
        w = fn * _pio2_1t
        if n < 32 and ix != _npio2_hw[n - 1]:
            y0 = r - w
        else:
            j = ix >> 20
            y0 = r - w
            i = j - ((_high(y0) >> 20) & 0x7FF)
            if i > 16:
                t = r
                w = fn * _pio2_2
                r = t - w
                w = fn * _pio2_2t - ((t - r) - w)
                y0 = r - w
                i = j - ((_high(y0) >> 20) & 0x7FF)
                if i > 49:
                    t = r
                    w = fn * _pio2_3
                    r = t - w
                    w = fn * _pio2_3t - ((t - r) - w)
                    y0 = r - w
        y1 = (r - y0) - w
        if hx < 0:
            return -n, -y0, -y1
        return n, y0, y1
    if ix >= 0x7FF00000:
        return 0, x - x, x - x
    # large: z = scalbn(|x|, ilogb(x) - 23), cut into 24-bit pieces
    e0 = (ix >> 20) - 1046
    z = _words(ix - (e0 << 20), _low(x))
    tx = [0.0, 0.0, 0.0]
    for i in range(2):
        tx[i] = float(_trunc32(z))
        z = (z - tx[i]) * _two24
    tx[2] = z
    nx = 3
    while tx[nx - 1] == 0.0:
        nx -= 1
    n, y0, y1 = _kernel_rem_pio2(tx, e0, nx, 2, _two_over_pi)
    if hx < 0:
        return -n, -y0, -y1
    return n, y0, y1


def sin(x: float) -> float:
    """fdlibm's sin(x): node's Math.sin bit for bit (NaN for NaN and infinities)."""
    x = float(x)
    ix = _high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kernel_sin(x, 0.0, 0)
    if ix >= 0x7FF00000:
        return _NAN
    n, y0, y1 = rem_pio2(x)
    k = n & 3
    if k == 0:
        return _kernel_sin(y0, y1, 1)
    if k == 1:
        return _kernel_cos(y0, y1)
    if k == 2:
        return -_kernel_sin(y0, y1, 1)
    return -_kernel_cos(y0, y1)


def cos(x: float) -> float:
    """fdlibm's cos(x): node's Math.cos bit for bit (NaN for NaN and infinities)."""
    x = float(x)
    ix = _high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kernel_cos(x, 0.0)
    if ix >= 0x7FF00000:
        return _NAN
    n, y0, y1 = rem_pio2(x)
    k = n & 3
    if k == 0:
        return _kernel_cos(y0, y1)
    if k == 1:
        return -_kernel_sin(y0, y1, 1)
    if k == 2:
        return -_kernel_cos(y0, y1)
    return _kernel_sin(y0, y1, 1)


# -- the fingerprint of csrc/tests/test_core.c (test_fdlibm) ----------------------

FINGERPRINT_N = 90000
_M64 = (1 << 64) - 1


def _from_bits(u: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", u))[0]


def fingerprint_inputs(n: int = FINGERPRINT_N, seed: int = 12345) -> list[float]:
    """The inputs of test_core.c's fdlibm_input(k), k = 0 .. n-1 (same LCG)."""
    state = seed
    out = []
    for k in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) & _M64
        r = state
        if k % 3 == 0:
            out.append(_from_bits(r))
        elif k % 3 == 1:
            out.append(float((r >> 41) - (1 << 22)) * 16.0)
        else:
            e = ((r >> 54) % 1030) - 30
            m = float(r >> 11) * 2.0**-53 + 1.0
            out.append((-m if r & 1 else m) * math.ldexp(1.0, e))
    return out


def fingerprint(n: int = FINGERPRINT_N) -> int:
    """FNV-1a over the bits of sin(x) and cos(x), bytes least significant first."""
    h = 0xCBF29CE484222325
    for x in fingerprint_inputs(n):
        for v in (sin(x), cos(x)):
            u = _bits(v)
            for b in range(8):
                h = ((h ^ ((u >> (8 * b)) & 0xFF)) * 0x100000001B3) & _M64
    return h
