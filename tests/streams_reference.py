"""Independent pure-Python reference of streams, good sites and roads.

Transcribed from docs/SPEC.md sections 7 (streams), 12
(findGoodSite) and 13 (roads), on top of ``reference.py`` (SPEC 2-6).  Like
``reference.py`` it must never import ``relfterrain``: it is a test oracle,
written for clarity.  Within one call, terra results are cached in a dict
(the placed table is fixed while a cache lives), which changes nothing but
the speed.

Conventions
-----------
* Points are ``(x, y)`` tuples of Python ints.
* A placed table is a dict ``{(xr, yr): ("T", terrain) | ("F", feature)}``
  as in ``reference.py``.  Functions documented as returning a NEW table never
  modify their argument; ``mark_route`` mutates the table it is given.
* ``lake_height`` of the SPEC is ``p.lake_ht``; ``lake_base`` is ``p.lake_base``.
* Distances and step lengths are ``math.hypot`` of integer differences.  For
  the integer steps of a route (|dx|, |dy| <= 5) this equals
  ``math.sqrt(dx*dx + dy*dy)`` bit for bit (checked by the tests).

Choices where the SPEC is silent are marked "CHOICE" below and summarised in
the docstring of each function.
"""

from __future__ import annotations

import math

import reference as R

STREAM = R.STREAM
MARSH = R.MARSH
_SOAKED = (("T", STREAM), ("T", MARSH))
_OPEN = frozenset((R.GRASS, R.MOOR, R.WOOD))

# Step 1 (dry land) jump of SPEC 12, the author's.
JUMP = (-100, 100)
# Safety stop of an uncapped route (SPEC 7).
MAX_POINTS = 100_000


# ---------------------------------------------------------------------------
# Heights of SPEC 7: terra with the placed table, STREAM and MARSH ignored
# ---------------------------------------------------------------------------

def without_soaked(placed: dict | None) -> dict:
    """A copy of ``placed`` without its placed STREAM and MARSH entries."""
    if not placed:
        return {}
    return {k: v for k, v in placed.items() if v not in _SOAKED}


class _Terra:
    """terra(p, x, y, placed) at integer points, cached (placed is fixed)."""

    def __init__(self, p: R.Params, placed: dict | None):
        self.p = p
        self.placed = placed if placed else {}
        self.cache: dict = {}

    def __call__(self, x: int, y: int):
        key = (x, y)
        t = self.cache.get(key)
        if t is None:
            t = R.terra(self.p, x, y, self.placed)
            self.cache[key] = t
        return t

    def height(self, x: int, y: int) -> float:
        return self(x, y)[0]


def _stream_terra(p, placed) -> _Terra:
    return _Terra(p, without_soaked(placed))


def stream_height(p: R.Params, x: int, y: int, placed: dict | None = None) -> float:
    """terra height at the integer point (x, y), placed table honoured except
    its STREAM (9) and MARSH (10) entries (SPEC 7)."""
    return R.terra(p, int(x), int(y), without_soaked(placed))[0]


# ---------------------------------------------------------------------------
# Ponds
# ---------------------------------------------------------------------------

def _ponds(p, terra: _Terra, x0, y0, nx, ny):
    """WATERHOLE points of terra (with terra's placed table), row-major.

    terra can only give WATERHOLE where the generated point feature is
    WATERHOLE or a placed ("F", WATERHOLE) entry sits, so those points are
    the only ones terra is asked about (an exact prefilter)."""
    placed = terra.placed
    out = []
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            pd = placed.get((x, y))
            if pd is None:
                if R.point_feature(p, x, y) != R.F_WATERHOLE:
                    continue
            elif pd != ("F", R.F_WATERHOLE):
                continue
            if terra(x, y)[2] == R.F_WATERHOLE:
                out.append((x, y))
    return out


def ponds(p: R.Params, x0: int, y0: int, nx: int, ny: int,
          placed: dict | None = None) -> list:
    """The ponds (terra feature WATERHOLE, 4) at the integer points
    x0..x0+nx-1, y0..y0+ny-1, as a list of (x, y).

    terra is evaluated with the placed table, its STREAM and MARSH entries
    ignored (so marking streams never changes which ponds exist; a placed
    ("F", WATERHOLE) makes a pond, a placed feature or terrain can hide one).
    CHOICE (SPEC 7 gives the order only for the area scan): row-major order,
    y ascending, then x ascending."""
    return _ponds(p, _stream_terra(p, placed), x0, y0, nx, ny)


# ---------------------------------------------------------------------------
# Tracing (SPEC 7)
# ---------------------------------------------------------------------------

def _offsets(neighbourhood: str) -> tuple:
    """Scanned offsets, in scan order: dx outer ascending, dy inner ascending."""
    out = []
    for dx in range(-5, 6):
        for dy in range(-5, 6):
            if neighbourhood == "cross":
                ok = dx != 0 and dy != 0
            elif neighbourhood == "square":
                ok = not (dx == 0 and dy == 0)
            elif neighbourhood == "circle":
                ok = dx * dx + dy * dy <= 25 and not (dx == 0 and dy == 0)
            else:
                raise ValueError(f"unknown neighbourhood {neighbourhood!r}")
            if ok:
                out.append((dx, dy))
    return tuple(out)


NEIGHBOURHOODS = {name: _offsets(name) for name in ("cross", "square", "circle")}


def neighbourhood_offsets(neighbourhood: str = "cross") -> tuple:
    """The (dx, dy) offsets scanned by one step, in scan order."""
    if neighbourhood not in NEIGHBOURHOODS:
        raise ValueError(f"unknown neighbourhood {neighbourhood!r}")
    return NEIGHBOURHOODS[neighbourhood]


def _trace(p, heights, x, y, neighbourhood, max_length):
    """heights(x, y) -> the SPEC 7 height.  See trace_stream."""
    offsets = neighbourhood_offsets(neighbourhood)
    lake_ht = p.lake_ht
    cx, cy = int(x), int(y)
    route = [(cx, cy)]
    length = 0.0
    h0 = heights(cx, cy)
    while True:
        best = None
        hmin = h0
        for dx, dy in offsets:
            h = heights(cx + dx, cy + dy)
            if h < hmin:                      # strict: the first found wins ties
                hmin = h
                best = (dx, dy)
        if best is None:
            return {"route": route, "length": length, "end": "hollow"}
        step = math.hypot(best[0], best[1])
        new_length = length + step
        if max_length is not None and new_length > max_length:
            return {"route": route, "length": length, "end": "limit"}
        cx += best[0]
        cy += best[1]
        route.append((cx, cy))
        length = new_length
        if hmin <= lake_ht:
            return {"route": route, "length": length, "end": "lake"}
        if len(route) >= MAX_POINTS:
            return {"route": route, "length": length, "end": "limit"}
        h0 = hmin


def trace_stream(p: R.Params, x: int, y: int, placed: dict | None = None,
                 neighbourhood: str = "cross", max_length: float | None = 300.0) -> dict:
    """Trace the route from the integer point (x, y) (SPEC 7).

    Returns ``{"route": [(x, y), ...], "length": float, "end": str}``:

    * ``route`` starts at (x, y); heights are ``stream_height`` (terra with
      the placed table, STREAM/MARSH ignored); h0 starts at the height of
      (x, y).
    * one step scans ``neighbourhood_offsets(neighbourhood)`` (dx outer
      ascending, dy inner ascending) and keeps the point with the lowest
      height by a strict ``<`` against a running minimum that starts at h0.
    * none lower: end ``"hollow"``.  Otherwise the step length
      ``math.hypot(dx, dy)`` is added to the running length (in order,
      ``length = length + step``); if that exceeds ``max_length`` the step is
      not taken and the end is ``"limit"``; else the point is appended and if
      its height ``<= p.lake_ht`` the end is ``"lake"``; else it becomes the
      current point.
    * CHOICE: the 100,000-point stop applies whatever max_length is (it only
      matters when max_length is None or huge); it is tested after the lake
      test, so a route whose 100,000th point is on the lake ends "lake".
    * CHOICE: a start point already at or below the lake height is traced by
      the same rules (its neighbours are normally not strictly lower, giving a
      1-point "hollow").
    """
    terra = _stream_terra(p, placed)
    return _trace(p, terra.height, x, y, neighbourhood, max_length)


def is_stream(route) -> bool:
    """A route is a stream only if it has more than 10 points (SPEC 7)."""
    return len(route) > 10


def marsh_cells(p: R.Params, route, placed: dict | None = None) -> list:
    """The 9 x 9 square centred on route[-1] (dx outer -4..4, dy inner), or []
    when that point's terrain (terra with the whole placed table) is TOWN or
    ROAD.  The caller decides whether the route ends in a hollow."""
    if not route:
        return []
    lx, ly = route[-1]
    t = R.terra(p, lx, ly, placed or {})[1]
    if t in (R.TOWN, R.ROAD):
        return []
    return [(lx + dx, ly + dy) for dx in range(-4, 5) for dy in range(-4, 5)]


# ---------------------------------------------------------------------------
# Marking (soaking) streams
# ---------------------------------------------------------------------------

def route_points(route) -> list:
    """The interpolated points q of SPEC 7's marking, in order (repeats kept).

    For a route of n >= 3 points: for i = 2 .. n-1, a = route[i-1],
    b = route[i], d = hypot(b - a), k = 0 .. floor(d),
    q = (round_js(a.x + k*(b.x-a.x)/d), round_js(a.y + k*(b.y-a.y)/d)).
    A route of 2 points gives [route[1]]; shorter routes give []."""
    n = len(route)
    if n < 2:
        return []
    if n == 2:
        return [tuple(route[1])]
    out = []
    for i in range(2, n):
        out.extend(_segment_points(route[i - 1], route[i]))
    return out


def _segment_points(a, b) -> list:
    ax, ay = float(a[0]), float(a[1])
    bx, by = float(b[0]), float(b[1])
    d = math.hypot(bx - ax, by - ay)
    if d == 0.0:
        # CHOICE: a zero-length segment gives its one point (the formula
        # would divide 0 by 0).
        return [(int(ax), int(ay))]
    out = []
    for k in range(int(math.floor(d)) + 1):
        kf = float(k)
        qx = R.round_js(ax + kf * (bx - ax) / d)
        qy = R.round_js(ay + kf * (by - ay) / d)
        out.append((int(qx), int(qy)))
    return out


def _soak(p, placed, x, y, value) -> bool:
    """Place ``value`` at (x, y) unless something is placed there or the
    terrain (terra with the current table) is TOWN.  True if placed."""
    key = (x, y)
    if key in placed:
        return False
    if R.terra(p, x, y, placed)[1] == R.TOWN:
        return False
    placed[key] = value
    return True


def mark_route(p: R.Params, route, end: str, placed: dict, counter: dict | None = None) -> int:
    """Soak one route into ``placed`` (mutated; SPEC 7).  Returns the number
    of entries added.

    For each q of ``route_points(route)``, each point of the 3 x 3 square
    around q (dx outer -1..1, dy inner -1..1) becomes ("T", STREAM) unless
    something is already placed there or its terrain (terra with the current
    table) is TOWN.  Then, if ``end == "hollow"``, each point of
    ``marsh_cells(p, route, placed)`` (decided with the table as it is after
    the stream's marking) becomes ("T", MARSH) under the same rule.

    ``counter``, if given, is a dict whose "stream" and "marsh" entries (created
    at 0 if absent) are increased by the numbers of entries added."""
    added_stream = 0
    for qx, qy in route_points(route):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if _soak(p, placed, qx + dx, qy + dy, ("T", STREAM)):
                    added_stream += 1
    added_marsh = 0
    if end == "hollow":
        for mx, my in marsh_cells(p, route, placed):
            if _soak(p, placed, mx, my, ("T", MARSH)):
                added_marsh += 1
    if counter is not None:
        counter["stream"] = counter.get("stream", 0) + added_stream
        counter["marsh"] = counter.get("marsh", 0) + added_marsh
    return added_stream + added_marsh


def streams(p: R.Params, x0: int, y0: int, nx: int, ny: int, margin: int = 300,
            placed: dict | None = None, neighbourhood: str = "cross",
            max_length: float | None = 300.0) -> list:
    """The streams of an area (SPEC 7).

    Ponds of the area grown by ``margin`` on every side
    (x0-margin .. x0+nx-1+margin, y0-margin .. y0+ny-1+margin), in pond order
    (row-major), each traced; routes of more than 10 points are kept, as dicts
    ``{"source": (x, y), "route": [...], "length": float, "end": str,
    "marsh": bool}`` with ``marsh = end == "hollow" and marsh_cells(...) != []``
    (marsh_cells with the given table)."""
    terra = _stream_terra(p, placed)
    out = []
    for src in _ponds(p, terra, x0 - margin, y0 - margin, nx + 2 * margin, ny + 2 * margin):
        tr = _trace(p, terra.height, src[0], src[1], neighbourhood, max_length)
        if not is_stream(tr["route"]):
            continue
        marsh = tr["end"] == "hollow" and bool(marsh_cells(p, tr["route"], placed))
        out.append({"source": src, "route": tr["route"], "length": tr["length"],
                    "end": tr["end"], "marsh": marsh})
    return out


def count_soaked(placed: dict) -> int:
    """Number of placed STREAM and MARSH entries."""
    return sum(1 for v in placed.values() if v in _SOAKED)


def mark_streams(p: R.Params, x0: int, y0: int, nx: int, ny: int, placed: dict | None = None,
                 margin: int = 300, limit: int = 300_000, neighbourhood: str = "cross",
                 max_length: float | None = 300.0, info: dict | None = None) -> dict:
    """A NEW placed table: ``placed`` with the streams of the area marked.

    The streams are ``streams(p, x0, y0, nx, ny, margin, placed, ...)``
    (routes ignore STREAM/MARSH entries, so tracing them all first is the same
    as tracing as one marks).  Each is marked with ``mark_route`` in order;
    if afterwards the number of STREAM + MARSH entries of the table (those of
    the input included) exceeds ``limit``, every STREAM and MARSH entry is
    removed and that stream is marked again, once (CHOICE: no further check).

    ``info``, if given, receives "streams" (count), "restarts" (count) and
    "added" (entries added, removals not subtracted)."""
    table = dict(placed) if placed else {}
    found = streams(p, x0, y0, nx, ny, margin, placed, neighbourhood, max_length)
    restarts = 0
    added = 0
    for st in found:
        added += mark_route(p, st["route"], st["end"], table)
        if count_soaked(table) > limit:
            restarts += 1
            table = {k: v for k, v in table.items() if v not in _SOAKED}
            added += mark_route(p, st["route"], st["end"], table)
    if info is not None:
        info.update(streams=len(found), restarts=restarts, added=added)
    return table


# ---------------------------------------------------------------------------
# findGoodSite (SPEC 12)
# ---------------------------------------------------------------------------

def _disc(radius):
    """Integer offsets with dx*dx + dy*dy <= radius*radius, dx outer, dy inner."""
    r = int(math.floor(radius))
    rr = radius * radius
    return [(dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
            if dx * dx + dy * dy <= rr]


def _open_disc(radius):
    """Integer offsets with dx*dx + dy*dy < radius*radius."""
    r = int(math.ceil(radius))
    rr = radius * radius
    return [(dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
            if dx * dx + dy * dy < rr]


def building_distance_sq(s, centre) -> int:
    """Squared Euclidean distance from s to the 12 m square [bx-6, bx+6] x [by-6, by+6]."""
    sx, sy = s
    bx, by = centre
    ddx = max(bx - 6 - sx, 0, sx - (bx + 6))
    ddy = max(by - 6 - sy, 0, sy - (by + 6))
    return ddx * ddx + ddy * ddy


def building_centres_near(p: R.Params, s, placed, building_distance) -> list:
    """Building centres (reference.buildings, terra with placed) whose square
    may lie within building_distance of s (a bounding box of half-side
    building_distance + 6)."""
    half = int(math.ceil(building_distance)) + 6
    sx, sy = s
    return R.buildings(p, sx - half, sy - half, 2 * half + 1, 2 * half + 1, placed)


def crit_a(p, terra, s, min_height):
    """(a) not LAKE and terra height - lake_height >= min_height."""
    h, t = terra(*s)[:2]
    return t != R.LAKE and h - p.lake_ht >= min_height


def crit_b(p, terra, s):
    """(b) terrain GRASS, MOOR or WOOD."""
    return terra(*s)[1] in _OPEN


def crit_c(p, terra, s):
    """(c) no feature at s."""
    return terra(*s)[2] == R.F_NONE


def crit_d(p, terra, s, mine_distance):
    """(d) no MINE at any integer q with |q - s| < mine_distance (squared
    integer distances compared, exact)."""
    sx, sy = s
    return all(terra(sx + dx, sy + dy)[2] != R.F_MINE for dx, dy in _open_disc(mine_distance))


def crit_e(p, terra, s, building_distance):
    """(e) no building square closer than building_distance to s."""
    bd2 = building_distance * building_distance
    return all(building_distance_sq(s, c) >= bd2
               for c in building_centres_near(p, s, terra.placed, building_distance))


def crit_f(p, terra, s, clearance):
    """(f) every integer q with |q - s| <= clearance is GRASS, MOOR or WOOD."""
    sx, sy = s
    return all(terra(sx + dx, sy + dy)[1] in _OPEN for dx, dy in _disc(clearance))


def criteria(p: R.Params, s, placed: dict | None = None, min_height=10, mine_distance=7,
             building_distance=10, clearance=10, _terra: _Terra | None = None) -> tuple:
    """The six SPEC 12 criteria (a)-(f) at the integer point s, as 6 bools
    (terra with the whole placed table throughout)."""
    terra = _terra if _terra is not None else _Terra(p, placed)
    s = (int(s[0]), int(s[1]))
    return (crit_a(p, terra, s, min_height), crit_b(p, terra, s), crit_c(p, terra, s),
            crit_d(p, terra, s, mine_distance), crit_e(p, terra, s, building_distance),
            crit_f(p, terra, s, clearance))


def spiral_candidates(s, max_loops=1000, a0=0.0, sin=math.sin, cos=math.cos) -> list:
    """Candidates of SPEC 12 step 2, at most max_loops of them.

    Candidate 0 is s; ring k = 1, 2, ... has r = 8k and 8k points, j = 0..8k-1,
    theta = a0 + 2.0 * math.pi * j / (8 * k) (evaluated left to right:
    ((2.0*pi)*j)/(8k), then a0 + that), point
    (round_js(s.x + r*sin(theta)), round_js(s.y + r*cos(theta))).  Repeated
    points are kept (each counts as a candidate)."""
    sx, sy = float(s[0]), float(s[1])
    out = [(int(s[0]), int(s[1]))][:max_loops]
    k = 0
    while len(out) < max_loops:
        k += 1
        r = float(8 * k)
        for j in range(8 * k):
            if len(out) >= max_loops:
                break
            theta = a0 + 2.0 * math.pi * j / (8 * k)
            out.append((int(R.round_js(sx + r * sin(theta))),
                        int(R.round_js(sy + r * cos(theta)))))
    return out


def good_site(p: R.Params, x, y, placed: dict | None = None, min_height=10, mine_distance=7,
              building_distance=10, clearance=10, max_loops=1000, may_alter=False,
              patch_radius=20, a0=0.0, sin=math.sin, cos=math.cos,
              patch_terrain="site") -> dict:
    """findGoodSite of SPEC 12.  Returns a dict with keys x, y, ok, altered,
    reason ("" | "dry" | "spiral"), tries, placed, and start (s after step 1,
    the spiral's centre; an extra for tests).

    1. s = (round_js(x), round_js(y)); while reference.height(s) - lake_height
       < min_height (ground height, not terra), s moves by (-100, +100).
       CHOICE: up to max_loops jumps are made; if s is still dry after the
       max_loops-th jump: ok False, reason "dry", (x, y) = that last s,
       tries 0.
    2. ``spiral_candidates(s, max_loops, a0, sin, cos)`` in order; the first
       one meeting all of ``criteria`` is the site (ok True, altered False,
       placed = the input).  tries = candidates examined (that one included).
    3. Otherwise, with may_alter, the first candidate meeting (a) is made good:
       every integer point with dx*dx + dy*dy <= R*R, R = max(patch_radius,
       clearance), is placed as ("T", T) with T the candidate's own terrain
       when it is GRASS, MOOR or WOOD, else GRASS (CHOICE: "its own terrain"
       read as the site's; patch_terrain="point" uses each point's own
       terrain, GRASS when not GRASS/MOOR/WOOD).  Entries already placed in
       the disc are overwritten.  ok True, altered True, placed = a new table.
       Otherwise (or when no candidate meets (a)): ok False, the first
       candidate meeting the most criteria, reason "spiral".
    """
    src = placed if placed is not None else {}
    terra = _Terra(p, src)
    lake_ht = p.lake_ht
    sx, sy = int(R.round_js(x)), int(R.round_js(y))
    jumps = 0
    while R.height(p, sx, sy) - lake_ht < min_height:
        if jumps >= max_loops:
            return {"x": sx, "y": sy, "ok": False, "altered": False, "reason": "dry",
                    "tries": 0, "placed": placed, "start": (sx, sy)}
        sx += JUMP[0]
        sy += JUMP[1]
        jumps += 1

    cands = spiral_candidates((sx, sy), max_loops, a0, sin, cos)
    best = None
    best_n = -1
    first_a = None
    tries = 0
    for c in cands:
        tries += 1
        crit = criteria(p, c, src, min_height, mine_distance, building_distance, clearance,
                        _terra=terra)
        if all(crit):
            return {"x": c[0], "y": c[1], "ok": True, "altered": False, "reason": "",
                    "tries": tries, "placed": placed, "start": (sx, sy)}
        n = sum(crit)
        if n > best_n:
            best, best_n = c, n
        if first_a is None and crit[0]:
            first_a = c

    if may_alter and first_a is not None:
        table = dict(src)
        radius = max(patch_radius, clearance)
        own = terra(*first_a)[1]
        site_t = own if own in _OPEN else R.GRASS
        for dx, dy in _disc(radius):
            q = (first_a[0] + dx, first_a[1] + dy)
            if patch_terrain == "site":
                t = site_t
            else:
                t = terra(*q)[1]
                t = t if t in _OPEN else R.GRASS
            table[q] = ("T", t)
        return {"x": first_a[0], "y": first_a[1], "ok": True, "altered": True, "reason": "",
                "tries": tries, "placed": table, "start": (sx, sy)}

    if best is None:                      # max_loops < 1: no candidate examined
        best = (sx, sy)
    return {"x": best[0], "y": best[1], "ok": False, "altered": False, "reason": "spiral",
            "tries": tries, "placed": placed, "start": (sx, sy)}


# ---------------------------------------------------------------------------
# Roads (SPEC 13)
# ---------------------------------------------------------------------------

def road_segment_points(a, b) -> list:
    """The points q of one road segment a -> b: k = 0 .. floor(d) (SPEC 13)."""
    return _segment_points(a, b)


def bridge_counts(p: R.Params, points, placed: dict | None = None, lake_base=None) -> list:
    """Per segment, the number of its points q (repeats counted) whose terra
    height (with the given table) is <= lake_base (default p.lake_base)."""
    lb = float(p.lake_base if lake_base is None else lake_base)
    table = placed or {}
    terra = _Terra(p, table)
    out = []
    for i in range(len(points) - 1):
        out.append(sum(1 for q in road_segment_points(points[i], points[i + 1])
                       if terra.height(*q) <= lb))
    return out


def pave_road(p: R.Params, points, placed: dict | None = None, half_width=2, max_bridge=60,
              lake_base=None) -> dict:
    """Pave the polyline ``points`` (SPEC 13); returns a NEW placed table.

    For each segment i (points[i] -> points[i+1]) and each q of
    ``road_segment_points``, every point of the (2w+1) square around q
    (w = half_width) becomes ("T", ROAD), overwriting whatever was placed.
    CHOICE: the bridge rule counts, per segment, all its points q (not only
    consecutive ones) whose terra height is <= lake_base; if that count
    exceeds max_bridge for any segment, ValueError naming the first such
    segment index is raised and nothing is paved.  A road of fewer than two
    points paves nothing."""
    counts = bridge_counts(p, points, placed, lake_base)
    for i, n in enumerate(counts):
        if n > max_bridge:
            raise ValueError(f"road segment {i} ({tuple(points[i])} -> {tuple(points[i + 1])}) "
                             f"would bridge {n} unit steps > max_bridge={max_bridge}")
    table = dict(placed) if placed else {}
    w = int(half_width)
    for i in range(len(points) - 1):
        for qx, qy in road_segment_points(points[i], points[i + 1]):
            for dx in range(-w, w + 1):
                for dy in range(-w, w + 1):
                    table[(qx + dx, qy + dy)] = ("T", R.ROAD)
    return table
