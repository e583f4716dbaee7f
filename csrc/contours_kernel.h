/*
 * contours_kernel.h - the contour kernel of contours.c, compiled once per
 * instruction set: contours.c includes it with CK(name) naming each function
 * for the variant and CK_ATTR its target attribute (nothing for the portable
 * C; target("avx2") for the variant that AVX2 CPUs run; the AVX-512 target,
 * with CK_OWN_RUN defined, for the functions that simd/contours_avx512.h's
 * rows call on the cells its vectors do not take).  The arithmetic is the
 * same in all (IEEE doubles, -ffp-contract=off: never fused), so all set the
 * same pixels; only the compiler's vectorisation differs.
 */

/* k with k*interval <= z < (k+1)*interval, exactly for the products used:
 * the estimate floor(z * (1/interval)) is within one of it (as floor(z /
 * interval) is), and the two corrections make it the one k that the
 * inequalities allow, the same k as the NumPy version's. */
static CK_ATTR double CK(band)(double z, double interval, double inverse)
{
    double b = floor(z * inverse);
    b += z >= (b + 1.0) * interval;
    b -= z < b * interval;
    return b;
}

/* CK(band)() of a row of n heights into b; 0 when one is beyond FAST_BAND (then
 * b is CK(band)() of each through floor).  Below it floor(q) is round(q) less
 * (round(q) > q), with round(q) = (q + 1.5 * 2^52) - 1.5 * 2^52 (exact for
 * |q| < 2^51 in the default rounding): the same value as floor(), in a loop
 * of plain double arithmetic that the compiler vectorises (floor() is a
 * call or a long sequence on baseline x86-64). */
static CK_ATTR int CK(band_row)(const double *z, double *b, int64_t n, double interval, double inverse)
{
    const double magic = 6755399441055744.0; /* 1.5 * 2^52 */
    int64_t far = 0; /* an integer "or" (a double max would not vectorise) */
    for (int64_t c = 0; c < n; c++) {
        double q = z[c] * inverse;
        far |= !(fabs(q) < FAST_BAND) ? (int64_t)1 : (int64_t)0;
        double f = (q + magic) - magic;
        f -= f > q ? 1.0 : 0.0;
        f += z[c] >= (f + 1.0) * interval ? 1.0 : 0.0;
        f -= z[c] < f * interval ? 1.0 : 0.0;
        b[c] = f;
    }
    if (!far) return 1;
    for (int64_t c = 0; c < n; c++) b[c] = CK(band)(z[c], interval, inverse);
    return 0;
}

/* CK(band)() of one height known to be within FAST_BAND (a cell's centre, the
 * mean of four such corners: |q| < 2^30 + 1 at most). */
static inline CK_ATTR double CK(band_near)(double z, double interval, double inverse)
{
    double q = z * inverse;
    double f = q > -FAST_BAND && q < FAST_BAND ? (double)(int32_t)q : floor(q);
    f -= f > q;
    f += z >= (f + 1.0) * interval;
    f -= z < f * interval;
    return f;
}

/* The pixel nearest (row, col), a point of cell (r, c): floor(row + 0.5),
 * floor(col + 0.5).  A vertex lies on its cell (0 <= t <= 1 and the offsets
 * in [0, 1]: see CK(edge)()), so row + 0.5 is in [r + 0.5, r + 1.5] and its floor
 * is r + (row + 0.5 >= r + 1), a comparison instead of a floor; anything else
 * (which cannot happen) takes the floor. */
static inline CK_ATTR int64_t CK(nearest)(double x, int64_t base)
{
    double y = x + 0.5, lo = (double)base;
    if (y >= lo && y < lo + 2.0) return base + (y >= lo + 1.0);
    return (int64_t)floor(y); /* not reached */
}

static inline CK_ATTR void CK(set_pixel)(const target *t, int64_t r, int64_t c, double row, double col,
                             uint8_t value)
{
    int64_t rr = CK(nearest)(row, r), cc = CK(nearest)(col, c);
    if (rr < 0 || rr >= t->ny || cc < 0 || cc >= t->nx) return; /* cannot happen: inside the cell */
    uint8_t *p = t->first && rr == t->first_row ? t->first + cc : t->mask + rr * t->nx + cc;
    if (*p < value) *p = value;
}

/* Whether the level k (a whole number) is a multiple of index_every = d:
 * below 2^32 Lemire's test (|k| * c <= c - 1 with c = 2^64 / d rounded up,
 * in 64-bit words; exact for every 32-bit |k| and d >= 1), the same answer as
 * fmod's at a fraction of a division's cost; beyond, an integer remainder
 * below 2^53 and fmod above (all exact). */
static inline CK_ATTR int CK(is_index)(double k, int d, uint64_t c)
{
    double a = fabs(k);
    if (a < 4294967296.0) return (uint64_t)(uint32_t)a * c <= c - 1;
    if (a < 9007199254740992.0) return (int64_t)k % d == 0;
    return fmod(k, (double)d) == 0.0;
}

/* The vertices of the levels crossing the edge a -> b of the triangle of cell
 * (r, c); (ra, ca), (rb, cb) are the ends' offsets within the cell.  More
 * than `room` crossings (what the limit leaves) are not drawn: the count
 * (at least room + 1) is returned at once, so a tiny interval is refused in
 * the time of one cell, not of its 10^9 levels (issue 19). */
static CK_ATTR int64_t CK(edge)(const target *tg, int64_t r, int64_t c, double va, double vb, double ba,
                    double bb, double ra, double ca, double rb, double cb, double interval,
                    int index_every, uint64_t index_c, int64_t room)
{
    if (bb == ba) return 0;
    double lo = ba < bb ? ba : bb;
    if (!(fabs(bb - ba) <= (double)room)) return room < INT64_MAX ? room + 1 : room;
    int64_t count = (int64_t)fabs(bb - ba);
    /* k*interval lies between va and vb (the bands' inequalities), so
     * 0 <= t <= 1 and the vertex lies on the edge, inside the cell */
    for (int64_t m = 0; m < count; m++) {
        double k = count == 1 ? lo + 1.0 : (lo + 1.0) + (double)m;
        double t = (k * interval - va) / (vb - va);
        double row = (double)r + (ra + t * (rb - ra));
        double col = (double)c + (ca + t * (cb - ca));
        uint8_t value = index_every && CK(is_index)(k, index_every, index_c) ? 2 : 1;
        CK(set_pixel)(tg, r, c, row, col, value);
    }
    return count;
}

/* The lowest set bit of m (> 0). */
static inline CK_ATTR int CK(lowest_bit)(unsigned m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int e = 0;
    while (!(m & 1u)) m >>= 1, e++;
    return e;
#endif
}

/* The crossed cell (r, c) when each of its eight edges crosses one level at
 * most (nearly every crossed cell) and its bands are within FAST_BAND (|k| <
 * 2^32 for is_index's first test): CK(edge)() of each edge that a level crosses,
 * the same operations in the same order, found by a bit mask (no branch per
 * edge).  Returns the vertices, or -1 when an edge crosses two levels or
 * more (CK(edge)() then).  Corners 0..3 are (0, 0), (0, 1), (1, 1), (1, 0) as
 * (row, column) offsets, 4 the centre (0.5, 0.5); edge e runs from corner
 * e / 2 to the next corner (e even) or to the centre (e odd). */
static inline CK_ATTR int CK(fast_cell)(const target *tg, int64_t r, int64_t c, const double v[4],
                            const double b[4], double vc, double bc, double interval,
                            int index_every, uint64_t index_c)
{
    static const int from[8] = {0, 0, 1, 1, 2, 2, 3, 3}, to[8] = {1, 4, 2, 4, 3, 4, 0, 4};
    static const double off_r[5] = {0.0, 0.0, 1.0, 1.0, 0.5}, off_c[5] = {0.0, 1.0, 1.0, 0.0, 0.5};
    const double vv[5] = {v[0], v[1], v[2], v[3], vc}, bv[5] = {b[0], b[1], b[2], b[3], bc};
    unsigned crossing = 0, many = 0;
    for (int e = 0; e < 8; e++) {
        double d = bv[to[e]] - bv[from[e]];
        crossing |= (unsigned)(d != 0.0) << e;
        many |= (d > 1.0) | (d < -1.0);
    }
    if (many) return -1;
    uint8_t *rows[2] = {(tg->first && r == tg->first_row ? tg->first : tg->mask + r * tg->nx) + c,
                        tg->mask + (r + 1) * tg->nx + c};
    const double fr = (double)r, fc = (double)c;
    int n = 0;
    for (unsigned m = crossing; m; m &= m - 1, n++) {
        int e = CK(lowest_bit)(m), i = from[e], k = to[e];
        double va = vv[i], vb = vv[k], ba = bv[i], bb = bv[k];
        double ra = off_r[i], ca = off_c[i], rb = off_r[k], cb = off_c[k];
        double lv = (ba < bb ? ba : bb) + 1.0; /* the level k of CK(edge)() */
        double t = (lv * interval - va) / (vb - va);
        double row = fr + (ra + t * (rb - ra));
        double col = fc + (ca + t * (cb - ca));
        /* floor(row + 0.5) and floor(col + 0.5) of a point of the cell (CK(nearest)()) */
        int down = row + 0.5 >= fr + 1.0, right = col + 0.5 >= fc + 1.0;
        uint8_t value = 1 + (index_every && (uint64_t)(uint32_t)fabs(lv) * index_c <= index_c - 1);
        uint8_t *p = rows[down] + right;
        if (*p < value) *p = value;
    }
    return n;
}

/* The crossed cell c of the row of cells r (points rows z0, z1, their bands
 * b0, b1; near: both rows' bands within FAST_BAND): its vertices' pixels,
 * by CK(fast_cell)() when it serves and the limit is not near, else by
 * CK(edge)(), edge by edge, stopping beyond the limit.  Returns total plus
 * the cell's crossings. */
static inline CK_ATTR int64_t CK(cell)(const job *j, const target *tg, int64_t r, int64_t c,
                                       const double *z0, const double *z1, const double *b0,
                                       const double *b1, int near, double inverse, int64_t total)
{
    static const double dr[4] = {0.0, 0.0, 1.0, 1.0}, dc[4] = {0.0, 1.0, 1.0, 0.0};
    const double interval = j->interval;
    double v[4] = {z0[c], z0[c + 1], z1[c + 1], z1[c]};
    double b[4] = {b0[c], b0[c + 1], b1[c + 1], b1[c]};
    double vc = (((v[0] + v[1]) + v[2]) + v[3]) * 0.25;
    double bc = near ? CK(band_near)(vc, interval, inverse) : CK(band)(vc, interval, inverse);
    if (near && total <= j->max_crossings - 8) {
        int n = CK(fast_cell)(tg, r, c, v, b, vc, bc, interval, j->index_every, j->index_c);
        if (n >= 0) return total + n;
    }
    for (int i = 0; i < 4 && total <= j->max_crossings; i++) {
        int k = (i + 1) % 4;
        /* an edge whose ends share a band has no vertex: no call */
        if (b[k] != b[i])
            total += CK(edge)(tg, r, c, v[i], v[k], b[i], b[k], dr[i], dc[i], dr[k], dc[k],
                              interval, j->index_every, j->index_c, j->max_crossings - total);
        if (bc != b[i] && total <= j->max_crossings)
            total += CK(edge)(tg, r, c, v[i], vc, b[i], bc, dr[i], dc[i], 0.5, 0.5, interval,
                              j->index_every, j->index_c, j->max_crossings - total);
    }
    return total;
}

#ifndef CK_OWN_RUN
static CK_ATTR void CK(run_bands)(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const int64_t nx = j->nx;
    const double interval = j->interval, inverse = 1.0 / interval;
    /* the bands of two rows of points, each computed once */
    double *rowb = malloc((size_t)(2 * nx) * sizeof *rowb);
    uint8_t *crossed = malloc((size_t)nx + 8);
    if (!rowb || !crossed) {
        free(rowb);
        free(crossed);
        *j->nomem = 1;
        return;
    }
    for (int64_t bi = begin; bi < end; bi++) {
        int64_t r0 = band_start(j, bi), r1 = band_start(j, bi + 1);
        target tg = {j->mask, bi > 0 ? j->firsts + (bi - 1) * nx : NULL, nx, j->ny, r0};
        int64_t total = 0, pending = 0;
        double *b0 = rowb, *b1 = rowb + nx;
        const double *z = j->z;
        int near0 = CK(band_row)(z + r0 * nx, b0, nx, interval, inverse), near1;
        for (int64_t r = r0; r < r1; r++) {
            /* a row of cells: its bands, and the crossings of the few crossed */
            if (rt__watch_charge(j->w, &pending, 16 * nx)) break;
            const double *z0 = z + r * nx, *z1 = z0 + nx;
            near1 = CK(band_row)(z1, b1, nx, interval, inverse);
            /* both rows' bands within FAST_BAND: the cells' fast paths */
            const int near = near0 && near1;
            /* Which cells of the row a level crosses, in a pass without
             * branches (the compiler vectorises it).  Most cells lie in one
             * band: the centre's band is that one exactly when
             * b*interval <= vc < (b+1)*interval (the inequalities CK(band)()
             * makes true, whose solution is unique). */
            for (int64_t c = 0; c + 1 < nx; c++) {
                double b00 = b0[c];
                double vc = (((z0[c] + z0[c + 1]) + z1[c + 1]) + z1[c]) * 0.25;
                crossed[c] = (uint8_t)((b0[c + 1] != b00) | (b1[c + 1] != b00) | (b1[c] != b00) |
                                       !(vc >= b00 * interval) | !(vc < (b00 + 1.0) * interval));
            }
            memset(crossed + (nx - 1), 0, 9); /* the end: eight zeros and one past */
            for (int64_t c = 0; c + 1 < nx; c++) {
                /* skip eight uncrossed cells at a time */
                uint64_t eight;
                memcpy(&eight, crossed + c, 8);
                if (eight == 0) {
                    c += 7;
                    continue;
                }
                if (!crossed[c]) continue;
                total = CK(cell)(j, &tg, r, c, z0, z1, b0, b1, near, inverse, total);
                if (total > j->max_crossings) break;
            }
            if (total > j->max_crossings) break;
            double *swap = b0;
            b0 = b1;
            b1 = swap;
            near0 = near1;
        }
        j->totals[bi] = total;
    }
    free(rowb);
    free(crossed);
}
#endif /* CK_OWN_RUN */
