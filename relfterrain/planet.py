"""Terrain on spherical planets (SPEC 14; the seed's "Terrain for spherical planets").

"The key thing ... is NOT to use latitude and longitude as the parameters for
the generating function": a point at latitude phi, longitude lam is turned
into ``x = R*cos(phi)*cos(lam)``, ``y = R*cos(phi)*sin(lam)``,
``z = R*sin(phi)`` (the core's fdlibm sin and cos, degrees converted as
``deg * (pi/180)``), and the generator sums ``A[i]*x + B[i]*y + C[i]*z``. So
there is no singularity at the poles and no seam at the date line.

Choices where SPEC leaves them open (documented, fixed):

* **Third vectors** ``CH, C1, C2, C3`` (:data:`THIRD_VECTORS`): integers of
  the classic vectors' size (``|v| <= 58``), so that the sphere seen from any
  direction has the classic terrain's scale in every direction on the ground
  (a small third vector would stretch the terrain into long ridges running
  north-south at the equator). Measured proportions of terrain kinds over the
  whole sphere are close to the classic map's: see the guide's page
  ``docs/guide/planets-and-space.md`` (``benchmarks/bench_space.py --proportions``).
* **Terrain kinds**: SPEC 5's order and classic thresholds (lake, mud below
  the lake base 204, TOWN below 120, GRASS/MOOR/THICKET/WOOD by 255, 255, 200)
  with three-vector calcProf at the unrounded point.
* **Point features** "where integer rings of two coordinates cross": at the
  rounded point ``(xr, yr, zr)`` the two rings are those of the two
  coordinates other than the largest in magnitude (they cross at a good
  angle there; ties go to the later axis). With ``u, w`` those two and
  ``a = calcProf3(B2, A3, C3)`` at the rounded point, SPEC 5's tests run on
  ``uw = u*w``: ``f = toint32(round_js(a*uw/128)) & 0xfff``, ``f == 4`` gives
  MINE/BOULDER/WATERHOLE/KNOLL/ROOT by ``uw & 0xff``, ``f == 8`` X and
  ``f == 16`` CONE as in SPEC 5.
* **Placed keys** are ``(xr, yr, zr)``, so ``z`` and ``-z`` differ.

>>> import relfterrain as rt
>>> p = rt.Planet(10_000)
>>> abs(p.height(90, 0) - p.height(90, 123.4)) < 1e-9   # the pole is one point
True
>>> m = p.map(90, 0, 200, 200)
>>> m.height.shape, bool(m.visible[100, 100]), bool(m.visible[0, 0])
((200, 200), True, False)
"""

from __future__ import annotations

import math
import threading
from typing import Any, NamedTuple

import numpy as np

from . import _core, _validate
from ._fields import documented
from ._seed import CLASSIC_PROFILE, CLASSIC_VECTORS
from ._types import Feature, TerrainType

__all__ = ["OUTSIDE", "THIRD_VECTORS", "Planet", "PlanetGrid", "PlanetMap", "PlanetSample"]

#: The default third vectors (the project's choice, see the module docstring);
#: the C core's RT_PLANET_*_DEFAULT carry the same numbers.
THIRD_VECTORS: dict[str, tuple[int, ...]] = {
    "ch": (11, -21, 25, -14, 19),
    "c1": (37, -29, 12, -50, 27),
    "c2": (-31, 44, -19, 52, 20),
    "c3": (40, -25, 58, 17, -47),
}
_NAMES = ("ah", "bh", "ch", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
#: terrain code of map pixels outside the planet's disc
OUTSIDE = _core.MAP_OUTSIDE


@documented(
    height=('Ground height, metres (the water surface on lakes), float64 (a float for scalar '
            'input).'),
    depth='Depth of lake water, metres (0 off lakes).',
    terrain=('The kinds of ground: uint8 :class:`TerrainType` codes (a :class:`TerrainType` for '
             'scalar input).'),
    feature=('The point features: uint8 :class:`Feature` codes (a :class:`Feature` for scalar '
             'input).'),
)
class PlanetSample(NamedTuple):
    """terra at points of a planet (arrays of the broadcast shape)."""

    height: Any
    depth: Any
    terrain: Any
    feature: Any


@documented(
    lat='Latitudes of the rows, degrees, float64 ``(nlat,)``.',
    lon='Longitudes of the columns, degrees, float64 ``(nlon,)``.',
    height='Ground height, metres (the water surface on lakes), float64 ``(nlat, nlon)``.',
    depth='Depth of lake water, metres, float64 ``(nlat, nlon)``.',
    terrain='uint8 ``(nlat, nlon)`` :class:`TerrainType` codes.',
    feature='uint8 ``(nlat, nlon)`` :class:`Feature` codes.',
)
class PlanetGrid(NamedTuple):
    """terra on a latitude/longitude grid: ``[r, c]`` at ``(lat[r], lon[c])``."""

    lat: np.ndarray
    lon: np.ndarray
    height: np.ndarray
    depth: np.ndarray
    terrain: np.ndarray
    feature: np.ndarray


@documented(
    height='float64, NaN outside the disc.',
    depth='float64, NaN outside the disc.',
    terrain='uint8, :data:`OUTSIDE` (255) outside the disc.',
    feature='uint8.',
    visible='bool, True on the planet.',
    step='Metres per pixel on the tangent plane.',
)
class PlanetMap(NamedTuple):
    """An orthographic map (row 0 south, plot with ``origin="lower"``)."""

    height: np.ndarray
    depth: np.ndarray
    terrain: np.ndarray
    feature: np.ndarray
    visible: np.ndarray
    step: float


def _latlon(lat: Any, lon: Any) -> tuple[np.ndarray, np.ndarray, tuple]:
    arrays = []
    for name, v in (("lat", lat), ("lon", lon)):
        arrays.append(_validate.real_array(
            v, name, "a number or an array-like of numbers (degrees)"))
    try:
        a, b = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(f"lat, lon: shapes {arrays[0].shape} and {arrays[1].shape} do not "
                         f"broadcast") from None
    for name, v in (("lat", a), ("lon", b)):
        if not np.isfinite(v).all():
            raise ValueError(f"{name}: must be finite (degrees)")
    return np.ascontiguousarray(a).ravel(), np.ascontiguousarray(b).ravel(), a.shape


class Planet:
    """A spherical planet covered with Relf terrain.

    Parameters
    ----------
    radius : float
        Metres, ``0 < radius <= 2**26`` (the domain of exactness).
    profile : array-like, optional
        The profile (default: the classic one).
    ah, bh, ch, a1, b1, c1, a2, b2, c2, a3, b3, c3 : sequence of int, optional
        The direction vectors (x, y, z factors) for height and the three
        calcProf sets; defaults: the classic ones and :data:`THIRD_VECTORS`.
    lake_base, lake_height : float
        Lake base 204 (MUD below it) and the lake level (default the base).
    feature_mask : int
        The point-feature mask (0xfff).
    simd : str, optional
        The SIMD variant of the map's rows (see :func:`relfterrain.simd_variants`;
        default the ``RELFTERRAIN_SIMD`` environment variable, else ``"auto"``).
        Every variant gives the same bits.

    Examples
    --------
    >>> p = Planet(5000)
    >>> s = p.terra([0, 45], [0, 90])
    >>> s.terrain.dtype, s.height.shape
    (dtype('uint8'), (2,))
    >>> round(p.height(0, 0), 4)
    379.1875
    """

    def __init__(self, radius: float, *, profile: Any = None, lake_base: float = 204.0,
                 lake_height: float | None = None, feature_mask: int = 0xFFF,
                 simd: str | None = None, **vectors: Any) -> None:
        r = _validate.real(radius, "radius")
        if not 0 < r <= _core.TERRAIN_DOMAIN:
            raise ValueError(f"radius: must be > 0 and <= 2**26 metres, got {r!r}")
        self.radius = r
        unknown = sorted(set(vectors) - set(_NAMES))
        if unknown:
            raise TypeError(f"{', '.join(unknown)}: not a parameter of Planet")
        p = _validate.profile(profile, CLASSIC_PROFILE)
        self.profile = _validate.readonly(np.array(p, dtype=np.float64))
        defaults = {**CLASSIC_VECTORS, **THIRD_VECTORS}
        vecs = [_validate.vector(vectors.get(n, defaults[n]), n) for n in _NAMES]
        if len({v.size for v in vecs}) != 1:
            listed = ", ".join(f"{n}={v.size}" for n, v in zip(_NAMES, vecs))
            raise ValueError(f"vectors: must all have one common length, got {listed}")
        self._vectors = _validate.readonly(np.array(vecs, dtype=np.float64))
        self.lake_base = _validate.real(lake_base, "lake_base")
        self.lake_height = _validate.real(self.lake_base if lake_height is None else lake_height,
                                          "lake_height")
        self.feature_mask = _validate.uint32(feature_mask, "feature_mask")
        self._simd = _validate.simd_code(simd)
        self._placed: dict[tuple[int, int, int], int] = {}
        # the C table of _placed, built once when a call first needs it after
        # a change (place, remove): calls do not rebuild it
        self._placed_table: Any = None
        # place/remove and the building of the C table are one step each
        self._lock = threading.RLock()

    @property
    def simd(self) -> str:
        """The SIMD variant the map's rows run as (settable, as ``Terrain.simd``)."""
        table = _core.simd_variants()
        name = next(n for n, (c, _, _) in table.items() if c == self.__dict__.get("_simd", 0))
        return str(table[name][2])

    @simd.setter
    def simd(self, value: str) -> None:
        self._simd = _validate.simd_code(value)

    def __getattr__(self, name: str) -> Any:
        if name in _NAMES:
            return self._vectors[_NAMES.index(name)].astype(np.int64)
        raise AttributeError(f"'Planet' object has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"Planet(radius={self.radius!r}, lake_height={self.lake_height!r})"

    def __getstate__(self) -> dict[str, Any]:
        # pickles and copies (copy.copy too) carry their own copy of the
        # entries, taken in one step; the C table is rebuilt on use
        with self._lock:
            state = {**self.__dict__, "_placed": dict(self._placed), "_placed_table": None}
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._placed = dict(state["_placed"])
        self._placed_table = None
        self._lock = threading.RLock()

    def _params(self) -> tuple:
        with self._lock:
            table = self._placed_table
            if table is None and self._placed:
                items = list(self._placed.items())
                keys = np.array([k for k, _ in items], dtype=np.int64).reshape(-1, 3)
                codes = np.array([c for _, c in items], dtype=np.int64)
                table = _core.planet_placed(keys[:, 0].copy(), keys[:, 1].copy(),
                                            keys[:, 2].copy(), codes)
                self._placed_table = table
            return (self.profile, self._vectors, self.radius, self.lake_base, self.lake_height,
                    self.feature_mask, table)

    # -- points ----------------------------------------------------------------

    def xyz(self, lat: Any, lon: Any) -> tuple[Any, Any, Any]:
        """The Cartesian point(s) of ``(lat, lon)`` in degrees (fdlibm, SPEC 14).

        >>> Planet(1000).xyz(90, 0)[2]
        1000.0
        """
        la, lo, shape = _latlon(lat, lon)
        phi = la * (math.pi / 180)
        lam = lo * (math.pi / 180)
        c = self.radius * _core.cos(phi)
        x, y, z = c * _core.cos(lam), c * _core.sin(lam), self.radius * _core.sin(phi)
        if shape == ():
            return float(x[0]), float(y[0]), float(z[0])
        return x.reshape(shape), y.reshape(shape), z.reshape(shape)

    def height(self, lat: Any, lon: Any, *, threads: int | None = 1) -> Any:
        """Ground height at ``(lat, lon)`` (degrees), broadcasting; a float for scalars."""
        la, lo, shape = _latlon(lat, lon)
        out = _core.planet_points(self._params(), la, lo, threads=_validate.threads(threads))
        return float(out[0]) if shape == () else out.reshape(shape)

    def terra(self, lat: Any, lon: Any, *, threads: int | None = 1) -> PlanetSample:
        """terra at ``(lat, lon)``, broadcasting: ``PlanetSample(height, depth, terrain, feature)``.

        ``height`` is the water surface on lakes; for two scalars the fields
        are a float, a float, a :class:`TerrainType` and a :class:`Feature`.
        """
        la, lo, shape = _latlon(lat, lon)
        h, d, t, f = _core.planet_points(self._params(), la, lo, terra=True,
                                         threads=_validate.threads(threads))
        if shape == ():
            return PlanetSample(float(h[0]), float(d[0]), TerrainType(int(t[0])),
                                Feature(int(f[0])))
        return PlanetSample(h.reshape(shape), d.reshape(shape), t.reshape(shape),
                            f.reshape(shape))

    # -- grids and maps --------------------------------------------------------

    @staticmethod
    def _axes(lat0: Any, lon0: Any, nlat: Any, nlon: Any, step: Any) -> tuple:
        lat0 = _validate.real(lat0, "lat0")
        lon0 = _validate.real(lon0, "lon0")
        nlat = _validate.integer(nlat, "nlat", 1)
        nlon = _validate.integer(nlon, "nlon", 1)
        step = _validate.real(step, "step")
        if step <= 0:
            raise ValueError(f"step: must be a positive number of degrees, got {step!r}")
        if nlat * nlon > 2**34:
            raise ValueError(f"nlat, nlon: a {nlat} x {nlon} grid is too large")
        # the coordinate grids, their x, y, z and the outputs: about 80 bytes a point
        _core.check_alloc(nlat * nlon * 80, "nlat, nlon", f"a {nlat} x {nlon} grid")
        lat = lat0 + np.arange(nlat, dtype=np.float64) * step
        lon = lon0 + np.arange(nlon, dtype=np.float64) * step
        return lat, lon

    def height_grid(self, lat0: float, lon0: float, nlat: int, nlon: int, step: float = 1.0,
                    *, threads: int | None = None) -> np.ndarray:
        """Ground height on a latitude/longitude grid: ``[r, c]`` at
        ``(lat0 + r*step, lon0 + c*step)`` degrees, float64 ``(nlat, nlon)``.

        Orientation: a grid, **south first** (SPEC 1): row ``r`` is latitude
        ``lat0 + r*step``, row 0 the southernmost (plot with
        ``origin="lower"``).
        """
        lat, lon = self._axes(lat0, lon0, nlat, nlon, step)
        la, lo = np.meshgrid(lat, lon, indexing="ij")
        return self.height(la, lo, threads=threads)

    def grid(self, lat0: float, lon0: float, nlat: int, nlon: int, step: float = 1.0, *,
             threads: int | None = None) -> PlanetGrid:
        """terra on a latitude/longitude grid (see :meth:`height_grid`).

        Orientation: a grid, **south first** (SPEC 1): row ``r`` is latitude
        ``lat0 + r*step``, row 0 the southernmost (plot with
        ``origin="lower"``).
        """
        lat, lon = self._axes(lat0, lon0, nlat, nlon, step)
        la, lo = np.meshgrid(lat, lon, indexing="ij")
        s = self.terra(la, lo, threads=threads)
        return PlanetGrid(lat, lon, s.height, s.depth, s.terrain, s.feature)

    def map(self, lat0: float, lon0: float, nx: int = 800, ny: int = 600,
            step: float | None = None, *, threads: int | None = None) -> PlanetMap:
        """An orthographic map centred on ``(lat0, lon0)``, poles included.

        Orientation: a grid, **south first** (SPEC 1): row 0 is the southern
        edge of the map (plot with ``origin="lower"``); pictures are north up.

        Pixel ``[r, c]`` is the point of the visible hemisphere under the
        tangent-plane point ``u = (c - (nx-1)/2) * step`` east,
        ``w = (r - (ny-1)/2) * step`` north of the centre (metres; at a pole,
        "north" is the direction of longitude ``lon0 + 180``). The sphere point
        is computed in Cartesian coordinates, never through latitude and
        longitude, so the map has no seam or singularity anywhere.
        ``step`` defaults to the value that fits the whole disc:
        ``2 * radius / (min(nx, ny) - 1)``. The C formulas are in
        ``relfterrain.h`` (``rt_planet_map``).

        >>> m = Planet(2000).map(0, 0, 64, 48)
        >>> round(m.step, 3), int(m.visible.sum())
        (85.106, 1716)
        """
        lat0 = _validate.real(lat0, "lat0")
        lon0 = _validate.real(lon0, "lon0")
        nx = _validate.integer(nx, "nx", 1)
        ny = _validate.integer(ny, "ny", 1)
        if nx * ny > 2**34:
            raise ValueError(f"nx, ny: a {ny} x {nx} map is too large")
        if step is None:
            step = 2.0 * self.radius / max(1, min(nx, ny) - 1)
            if not step > 0:
                raise ValueError(
                    f"radius: the default step 2 * radius / (min(nx, ny) - 1) of a planet of "
                    f"radius {self.radius!r} is 0 in float64 for a {ny} x {nx} map; pass step=")
        step = _validate.real(step, "step")
        if step <= 0:
            raise ValueError(f"step: must be a positive number of metres, got {step!r}")
        # height, depth (float64), terrain, feature and visible (uint8): 19 bytes a pixel
        _core.check_alloc(19 * nx * ny, "nx, ny", f"a {ny} x {nx} map")
        h, d, t, f, v = _core.planet_map(self._params(), lat0, lon0, nx, ny, step,
                                         threads=_validate.threads(threads),
                                         simd=self.__dict__.get("_simd", 0))
        return PlanetMap(h, d, t, f, v, step)

    # -- placed table ----------------------------------------------------------

    def place(self, xr: int, yr: int, zr: int, what: TerrainType | Feature) -> None:
        """Place a terrain type or feature at the rounded point ``(xr, yr, zr)``
        (see :meth:`xyz`; the sign of every coordinate counts)."""
        key = self._key(xr, yr, zr)
        if isinstance(what, TerrainType):
            code = _core.PLACED_TERRAIN | int(what)  # type: ignore[attr-defined]
        elif isinstance(what, Feature):
            code = _core.PLACED_FEATURE | int(what)  # type: ignore[attr-defined]
        else:
            raise TypeError(f"what: must be a TerrainType or a Feature, got {what!r}")
        with self._lock:
            self._placed[key] = code
            self._placed_table = None

    def _key(self, xr: Any, yr: Any, zr: Any) -> tuple[int, int, int]:
        key = (_validate.index(xr, "xr"), _validate.index(yr, "yr"), _validate.index(zr, "zr"))
        lim = int(self.radius) + 2
        for v, n in zip(key, ("xr", "yr", "zr")):
            if abs(v) > lim:
                raise ValueError(f"{n}: must be within the planet (|{n}| <= {lim}), got {v}")
        return key

    def remove(self, xr: int, yr: int, zr: int) -> bool:
        """Remove what is placed at ``(xr, yr, zr)``; True if there was something.

        The coordinates are ints (as for :meth:`place`); anything else is
        refused (TypeError naming it), never rounded.
        """
        key = (_validate.index(xr, "xr"), _validate.index(yr, "yr"), _validate.index(zr, "zr"))
        with self._lock:
            if self._placed.pop(key, None) is None:
                return False
            self._placed_table = None
            return True

    @property
    def placed(self) -> dict[tuple[int, int, int], TerrainType | Feature]:
        """A copy of the placed table ``{(xr, yr, zr): TerrainType | Feature}``."""
        mask = _core.PLACED_CODE_MASK  # type: ignore[attr-defined]
        with self._lock:
            items = list(self._placed.items())
        return {k: (TerrainType(c & mask) if c & ~mask == _core.PLACED_TERRAIN  # type: ignore
                    else Feature(c & mask)) for k, c in items}
