"""JavaScript's Math.sin and Math.cos, bit for bit, on every platform.

The generators that use trigonometry (the mines' "sincos" variant, the random
profile, findGoodSite's spiral, planets) must give the JavaScript original's
bits. JavaScript engines compute ``Math.sin`` and ``Math.cos`` with fdlibm
(V8, as in node and Chrome, ships a port of fdlibm 5.3), while NumPy and
:mod:`math` use the platform's libm, which rounds differently on a few
percent of arguments. The C core carries its own transcription of fdlibm
(``rt_sin``, ``rt_cos``), so these functions give the same bits on every
IEEE-754 platform, whatever its libm.

>>> from relfterrain import mathjs
>>> mathjs.sin(1e22)
-0.8522008497671888
>>> mathjs.cos([0.0, 3.0])
array([ 1.       , -0.9899925])
"""

from __future__ import annotations

from typing import Any, Union, overload

import numpy as np

from . import _core

__all__ = ["cos", "sin"]

Real = Union[float, int, np.floating, np.integer]  # noqa: UP007 (a runtime alias)


def _apply(fn: Any, x: Any) -> Any:
    try:
        kind = np.asarray(x).dtype.kind
    except (TypeError, ValueError, OverflowError):
        kind = "O"
    if kind not in "iuf":
        raise TypeError(f"x: must be a real number or an array-like of real numbers, got {x!r:.80}")
    out = fn(x)
    if out.ndim == 0 and not isinstance(x, np.ndarray):
        return float(out)
    return out


@overload
def sin(x: Real) -> float: ...
@overload
def sin(x: Any) -> Any: ...
def sin(x: Any) -> Any:
    """Sine as JavaScript's ``Math.sin`` computes it (fdlibm), exactly.

    Parameters
    ----------
    x : float or array_like
        Angles in radians: a number or any float64-convertible array-like
        (integers are converted to float64; complex input is refused).

    Returns
    -------
    float or numpy.ndarray
        A Python float for a scalar argument, else a new float64 array of
        ``x``'s shape. ``sin(+-0) = +-0``; NaN and infinities give NaN.

    Raises
    ------
    TypeError
        If ``x`` cannot be converted to float64 safely.

    See Also
    --------
    cos

    Notes
    -----
    fdlibm's error is below 1 ulp; on 2 to 3 % of arguments it differs in the
    last bit from glibc's (nearly correctly rounded) sine, which is why the
    core carries its own. Every finite argument is reduced modulo pi/2 exactly,
    however large.

    Examples
    --------
    >>> from relfterrain.mathjs import sin
    >>> sin(0.5)
    0.479425538604203
    >>> sin(2.0 ** 26)  # a mine cell centre
    0.42075989775848105
    >>> sin([[-0.0, 1e300]])
    array([[-0.        , -0.81788191]])
    """
    return _apply(_core.sin, x)


@overload
def cos(x: Real) -> float: ...
@overload
def cos(x: Any) -> Any: ...
def cos(x: Any) -> Any:
    """Cosine as JavaScript's ``Math.cos`` computes it (fdlibm), exactly.

    Parameters
    ----------
    x : float or array_like
        Angles in radians: a number or any float64-convertible array-like
        (integers are converted to float64; complex input is refused).

    Returns
    -------
    float or numpy.ndarray
        A Python float for a scalar argument, else a new float64 array of
        ``x``'s shape. ``cos(+-0) = 1``; NaN and infinities give NaN.

    Raises
    ------
    TypeError
        If ``x`` cannot be converted to float64 safely.

    See Also
    --------
    sin

    Examples
    --------
    >>> from relfterrain.mathjs import cos
    >>> cos(1e22)
    0.523214785395139
    >>> cos(67108848)
    0.7476237333983918
    """
    return _apply(_core.cos, x)
