/*
 * point_rows_avx512.h - the point path's rows (any step and origin) with
 * AVX-512 (F, BW, DQ, VL): the height rows, the profile sums and rounded x
 * of a terra row's tile, and the feature sums at the rounded points; eight
 * double or sixteen int32 lanes a vector, twice the AVX2 rows'; and the
 * classify pass of that path straight into the byte outputs.  Included
 * by tile_kernels.c after terrain_avx2.h, whose kernels take what these do
 * not (a row's last columns, rows or tiles the wide windows do not serve);
 * the AVX-512 tables (terrain_vbmi.h) use them.
 *
 * The seed's arithmetic, operation for operation and in its order, as in
 * point_rows_avx2.h, with the exact rewritings argued there (j scaled by
 * 2^-7 before the sum, nothing subnormal; the index from the bits of
 * floor(j) + 1.5*2^52; a direction with A = 0 once a row), and these:
 *  - the profile sums' index floor(j) + 1.5*2^52 is one addition rounded
 *    toward minus infinity, RD(j + 1.5*2^52): with |j| < 2^51 (the caller's
 *    |A*x + B*y| < 2^36 gives |j| < 2^29) the exact sum lies in (2^52, 2^53),
 *    where the doubles are the integers, so rounding it down gives
 *    floor(j + 1.5*2^52) = floor(j) + 1.5*2^52 (1.5*2^52 is an integer);
 *    its low 32 bits are floor(j) modulo 2^32.
 *  - the heights take the same sum (the caller's |j| < 2^30), and their
 *    jint = fl(RD(j + 1.5*2^52) - 1.5*2^52), an exact difference of two
 *    integers below 2^53: floor(j), but +0 where the seed's floor(-0) is -0;
 *    jfrac = fl(j - jint) as the seed (not vreducepd's j - floor(j), which
 *    rounds down where the difference is inexact: tiny negative j).  The
 *    zero changes only the sign of a zero: jfrac is then -0 for the seed's
 *    +0, and the term p0 + jfrac*d at most the sign of a zero term; the
 *    height is a sum from the seed's 0.0 (+0), a sum in round-to-nearest is
 *    -0 only when both addends are -0, so the running sum is never -0 and
 *    adding +0 or -0 to it gives the same bits.
 *  - p0 + jfrac*d is one fused multiply-add where the row's |j| make the
 *    product jfrac*d exact (pr_row_fma, rt__point_fma_min: the argument is
 *    in point_rows_avx2.h and rt_tile.h), the seed's two roundings
 *    elsewhere; so the avx512 variants need FMA too (csrc/cpu.c).
 *  - the leading directions with A = 0 (a constant term a row, above) are
 *    summed once a row from 0.0, in the seed's order; the columns' sums
 *    start from that partial sum (the same operations on the same values).
 *  - the windows hold 8 (doubles) or 16 (int32) entries a row, so one
 *    permute by the index itself (vpermpd reads its low 3 bits, vpermd its
 *    low 4) picks the entry of every lane, where the lanes' indices lie in
 *    one window: |A|*step <= 100 makes 8 columns span at most
 *    7*100/128 + 1 < 8 indices and 16 columns 15*100/128 + 1 < 16 (x is
 *    nondecreasing along a row, so A*x is monotone; the rounding of x, A*x
 *    and the sum moves an index by far less than one).  The window starts
 *    at lane 0's index, or 7 (15) below it when A < 0 (lane 0's is then the
 *    largest).  The height rows read one double window for sixteen columns
 *    where |A|*step <= RT_PX_W16_MAX (px_dir_term16: they span at most
 *    eight indices there).
 *  - the height rows' additions j = fl(ax + by7) and RD(j + 1.5*2^52) are
 *    fused multiply-adds by 1.0 (px_add_fma, px_add_down_fma): the exact
 *    sum rounded once, in the same direction, so the same double; they run
 *    on the multiplier pipes, where Zen 4's adders were the busier.
 *  - two rows of a block at once (height_row2_avx512w, px_row_ax2): one
 *    window for sixteen columns of a row and of the next where their 32
 *    values span at most eight indices (the rule there); each value's
 *    operations are those of its own row's.
 *  - with an integer profile (every |P| < 2^20) those two rows' terms are
 *    fma(j, d, c) with c = P[q] - q*d, an exact integer (px_row_ax2c): the
 *    real number j*d + c is p0 + (j - q)*d, which the seed rounds once
 *    where the fused term is valid, so the same double, without jfrac.
 * x = fl(x0 + fl((double)(c0 + c) * step)) as the seed; c0 + c < 2^53
 * (rt__check_block), so the column counters are exact doubles.
 */
#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define PX_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define PX_INLINE static inline __attribute__((always_inline, target("avx512f,avx512bw,avx512dq,avx512vl")))
#define PX_FMA_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma")))
#define PX_FMA_INLINE static inline __attribute__((always_inline, target("avx512f,avx512bw,avx512dq,avx512vl,fma")))
#define PX_FLOOR (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)

/* the low 32 bits of lane 0 */
PX_INLINE uint32_t px_lane0(__m512i v)
{
    return (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(v));
}

/* fl(a + b) by a fused multiply-add, fma(a, 1, b): the exact a*1 + b
 * rounded once to nearest, the same double as the addition (zeros'
 * signs included: an exact zero sum is +0 either way, -0 only from
 * (-0) + (-0)).  Zen 4 adds doubles on two pipes and multiplies on two
 * others; the height terms' adds, rounded adds and vreducepd all use the
 * adders, so moving two of them to the multipliers balances the two
 * (benchmarks/op_throughput.c; docs/performance/speed.md). */
PX_FMA_INLINE __m512d px_add_fma(__m512d a, __m512d b)
{
    return _mm512_fmadd_pd(a, _mm512_set1_pd(1.0), b);
}

/* RD(a + b), rounded toward minus infinity, by fma(a, 1, b) with the same
 * embedded rounding: the same double as _mm512_add_round_pd(a, b, floor). */
PX_FMA_INLINE __m512d px_add_down_fma(__m512d a, __m512d b)
{
    return _mm512_fmadd_round_pd(a, _mm512_set1_pd(1.0), b, PX_FLOOR);
}

/* j = fl(ax + by7) of eight columns whose products fl(A*2^-7 * x) are ax:
 * jfrac, and qb = floor(j) + 1.5*2^52 (its low bits the index); returned by
 * value (an address-taken out-parameter costs each inlined instance stack
 * under ASan).
 * floor(j) + 1.5*2^52 by one addition rounded down, and floor(j) from it by
 * an exact subtraction (the comment at the top); where no j lies in
 * (-1, 0) (red: px_row_reduces), jfrac = j - floor(j) by one vreducepd
 * instead (exact there). */
typedef struct px_split {
    __m512d jfrac;
    __m512i qb;
} px_split;

PX_FMA_INLINE px_split px_dir_split(__m512d ax, __m512d by7, const int red)
{
    const __m512d magic = _mm512_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    const __m512d j = px_add_fma(ax, by7);
    const __m512d qd = px_add_down_fma(j, magic);
    px_split s;
    s.qb = _mm512_castpd_si512(qd);
    s.jfrac = red ? _mm512_reduce_pd(j, PX_FLOOR) : _mm512_sub_pd(j, _mm512_sub_pd(qd, magic));
    return s;
}

/* The term p0 + jfrac*d of the lanes' indices qb from a window's p0 (wp)
 * and d (wd): one fused multiply-add where the row's |j| make the product
 * exact (fma: pr_row_fma), the same double. */
PX_FMA_INLINE __m512d px_dir_interp(__m512i qb, __m512d jfrac, __m512d wp, __m512d wd,
                                    const int fma)
{
    const __m512d p0 = _mm512_permutexvar_pd(qb, wp), d = _mm512_permutexvar_pd(qb, wd);
    return fma ? _mm512_fmadd_pd(jfrac, d, p0) : _mm512_add_pd(p0, _mm512_mul_pd(jfrac, d));
}

/* the window of lane 0's index (7 below it when A < 0: dd->off) */
PX_INLINE const double *px_dir_window(const pr_dir *dd, __m512i qb, const double *dwin8,
                                      uint32_t wm)
{
    return dwin8 + ((size_t)((px_lane0(qb) - dd->off) & wm) << 4);
}

/* the term of one direction (pr_dir, off 7 when A < 0) at eight columns
 * whose products fl(A*2^-7 * x) are ax; red: no lane's j lies in (-1, 0)
 * (px_row_reduces) */
PX_FMA_INLINE __m512d px_dir_term(const pr_dir *dd, __m512d ax, const double *dwin8, uint32_t wm,
                                  const int red, const int fma)
{
    const px_split s = px_dir_split(ax, _mm512_set1_pd(dd->by7), red);
    const double *row = px_dir_window(dd, s.qb, dwin8, wm);
    return px_dir_interp(s.qb, s.jfrac, _mm512_loadu_pd(row), _mm512_loadu_pd(row + 8), fma);
}

/* px_dir_term at sixteen columns (products ax0: the first eight, ax1: the
 * next) from one window: where |A|*step <= RT_PX_W16_MAX, sixteen columns
 * span at most eight indices (x is monotone along the row: j of the last
 * column minus j of the first is at most 15*|A|*step/128 <= 6.6, plus
 * rounding far below 0.4, under 7; so their floors differ by at most 7),
 * and the window of lane 0 of the first eight (7 below it when A < 0, the
 * largest then) holds every lane's entry: one window load pair and one
 * index extraction serve both halves (t0, t1 the terms). */
#define RT_PX_W16_MAX 56.0
PX_FMA_INLINE void px_dir_term16(const pr_dir *dd, __m512d ax0, __m512d ax1, const double *dwin8,
                                 uint32_t wm, const int red, const int fma, __m512d *t0,
                                 __m512d *t1)
{
    const __m512d by7 = _mm512_set1_pd(dd->by7);
    const px_split s0 = px_dir_split(ax0, by7, red), s1 = px_dir_split(ax1, by7, red);
    const double *row = px_dir_window(dd, s0.qb, dwin8, wm);
    const __m512d wp = _mm512_loadu_pd(row), wd = _mm512_loadu_pd(row + 8);
    *t0 = px_dir_interp(s0.qb, s0.jfrac, wp, wd, fma);
    *t1 = px_dir_interp(s1.qb, s1.jfrac, wp, wd, fma);
}

/* The block's products once px_row_products has them: sh doubles into
 * the scratch (*ax_ready = 1 + sh) */
PX_INLINE const double *px_ax(const rt_point_row *r)
{
    return r->ax + (*r->ax_ready - 1);
}

/* Whether the block's scratch holds, after the products of n directions at
 * n16 columns, those of the columns o + 16k for each o < 8 (px_fill_ax:
 * direction i's at ax + n*n16 + (i*8 + o)*(n16/16) + k), with room for the
 * shift of px_row_products (up to 7 doubles): where the profile has
 * intercepts (r->cwin8), whose two-row heights (px_row_ax2c) read them */
PX_INLINE int px_has_ax16(const rt_point_row *r, uint32_t n, int64_t n16)
{
    return r->cwin8 &&
           (uint64_t)n * (uint64_t)n16 + (uint64_t)n * 8u * (uint64_t)(n16 / 16) + 7u <= r->ax_cap;
}

/* fl(A*2^-7 * x) of the directions with A != 0 at columns [0, n16) of a
 * row into ax (direction i at ax + i*n16), as px_row_n computes them; and
 * where the scratch has room (px_has_ax16), those of columns o, o + 16,
 * o + 32, ... again, one after another for each o < 8 (px_row_ax2c's
 * window addresses), by the same operations: the same doubles */
PX_INLINE void px_fill_ax(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n16,
                          double *ax)
{
    const __m512d vx0 = _mm512_set1_pd(r->x0), vstep = _mm512_set1_pd(r->step);
    const __m512d eight = _mm512_set1_pd(8.0);
    __m512d ci = _mm512_add_pd(_mm512_set1_pd((double)r->c0),
                               _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0));
    for (int64_t c = 0; c < n16; c += 8) {
        const __m512d x = _mm512_add_pd(vx0, _mm512_mul_pd(ci, vstep));
        for (uint32_t i = 0; i < n; i++)
            if (!dd[i].con) _mm512_storeu_pd(ax + i * n16 + c, _mm512_mul_pd(_mm512_set1_pd(dd[i].a7), x));
        ci = _mm512_add_pd(ci, eight);
    }
    if (!px_has_ax16(r, n, n16)) return;
    /* the same products at columns o + 16k, k = 0, 1, ... (o < 8) */
    const int64_t nk16 = n16 / 16;
    const __m512d lanes16 = _mm512_setr_pd(0.0, 16.0, 32.0, 48.0, 64.0, 80.0, 96.0, 112.0);
    for (int64_t o = 0; o < 8; o++)
        for (int64_t k = 0; k < nk16; k += 8) {
            const __mmask8 m = (__mmask8)(nk16 - k >= 8 ? 0xFFu : (1u << (nk16 - k)) - 1u);
            const __m512d c16 = _mm512_add_pd(_mm512_set1_pd((double)(r->c0 + o + 16 * k)), lanes16);
            const __m512d x = _mm512_add_pd(vx0, _mm512_mul_pd(c16, vstep));
            for (uint32_t i = 0; i < n; i++)
                if (!dd[i].con)
                    _mm512_mask_storeu_pd(ax + (int64_t)n * n16 + (i * 8 + o) * nk16 + k, m,
                                          _mm512_mul_pd(_mm512_set1_pd(dd[i].a7), x));
        }
}

/* Whether every j = fl(fl(A*2^-7 * x) + fl(B*y)*2^-7) of a row (products
 * ax of px_fill_ax, directions dd) lies outside (-1, 0), where
 * vreducepd(j, floor) = j - floor(j) exactly: that difference is exact in
 * binary64 for j >= 0 (its bits are among j's) and for j <= -1 (it is below
 * 1, and j's last bit is at least 2^-52, not below that of any double in
 * [2^-52, 1)), so vreducepd, exact where the difference is, gives the
 * seed's fl(j - floor(j)); only in (-1, 0) can 1 + j be inexact (tiny
 * negative j), where it rounds down and the seed to nearest.  A zero j
 * gives a zero jfrac whose sign may differ, harmless as argued at the top.
 * j is monotone along the row (x, A*x and the sum are, rounding is), so the
 * row's first and last columns bound every column's j. */
PX_INLINE int px_row_reduces(const pr_dir *dd, uint32_t n, int64_t n16, const double *ax)
{
    for (uint32_t i = 0; i < n; i++) {
        if (dd[i].con) continue;
        const double ja = ax[i * n16] + dd[i].by7, jb = ax[i * n16 + n16 - 1] + dd[i].by7;
        const double lo = ja < jb ? ja : jb, hi = ja < jb ? jb : ja;
        if (!(lo >= 0.0 || hi <= -1.0)) return 0;
    }
    return 1;
}

/* Streaming stores of whole 64-byte lines wherever a run of doubles starts
 * (NumPy's large arrays start 16 bytes past a page): s columns before the
 * first line boundary, each line made of the last 8 - s columns of one
 * vector and the first s of the next by one two-source permute; the s
 * first and 8 - s last columns by masked plain stores.  px_lines_put takes
 * the vectors of columns 0, 8, 16, ... in that order, px_lines_end the
 * last. */
typedef struct px_lines {
    double *out;
    int s;
    __m512i realign;
    __m512d prev;
} px_lines;

PX_INLINE px_lines px_lines_init(double *out)
{
    px_lines w;
    w.out = out;
    w.s = (int)((64 - (uintptr_t)out % 64) % 64 / 8);
    w.realign = _mm512_add_epi64(_mm512_set1_epi64(w.s), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
    w.prev = _mm512_setzero_pd();
    return w;
}

PX_INLINE void px_lines_put(px_lines *w, int64_t c, __m512d h)
{
    if (c == 0)
        _mm512_mask_storeu_pd(w->out, (__mmask8)((1u << w->s) - 1u), h);
    else
        _mm512_stream_pd(w->out + c - 8 + w->s, _mm512_permutex2var_pd(w->prev, w->realign, h));
    w->prev = h;
}

/* after px_lines_put of columns [0, n), n > 0 a multiple of 8 */
PX_INLINE void px_lines_end(px_lines *w, int64_t n)
{
    _mm512_mask_storeu_pd(w->out + n - 8, (__mmask8)(0xFFu << w->s), w->prev);
}

/* columns [0, n16) of a height row, sixteen a step, directions [0, n) of dd,
 * none with A = 0 unless !nocon, their sums starting from hc (the sum of the
 * leading directions with A = 0, left out of dd); the products
 * fl(A*2^-7 * x) read from ax (px_fill_ax); red as px_dir_term */
PX_FMA_INLINE void px_row_ax(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n16,
                             const double *ax, int nocon, double hc, const int red, const int fma,
                             const int w16)
{
    const __m512d vhc = _mm512_set1_pd(hc);
    const double *dwin8 = r->dwin8;
    const uint32_t wm = r->dwin8_mask;
    /* streaming stores (r->stream) of whole lines wherever the row is */
    /* the output pointer in a local: stores of doubles through it may
     * alias *r for the compiler, which would load r->out again after each */
    double *const out = r->out;
    const int nt = r->stream && (uintptr_t)out % 8 == 0;
    px_lines w = px_lines_init(out);
    for (int64_t c = 0; c < n16; c += 16) {
        __m512d h0 = vhc, h1 = vhc;
        for (uint32_t i = 0; i < n; i++) {
            if (!nocon && dd[i].con) {
                const __m512d ct = _mm512_set1_pd(dd[i].cterm);
                h0 = _mm512_add_pd(h0, ct);
                h1 = _mm512_add_pd(h1, ct);
                continue;
            }
            if (w16) {
                __m512d t0, t1;
                px_dir_term16(&dd[i], _mm512_loadu_pd(ax + i * n16 + c),
                              _mm512_loadu_pd(ax + i * n16 + c + 8), dwin8, wm, red, fma, &t0, &t1);
                h0 = _mm512_add_pd(h0, t0);
                h1 = _mm512_add_pd(h1, t1);
                continue;
            }
            h0 = _mm512_add_pd(h0, px_dir_term(&dd[i], _mm512_loadu_pd(ax + i * n16 + c), dwin8, wm, red, fma));
            h1 = _mm512_add_pd(h1, px_dir_term(&dd[i], _mm512_loadu_pd(ax + i * n16 + c + 8), dwin8, wm, red, fma));
        }
        if (nt) {
            px_lines_put(&w, c, h0);
            px_lines_put(&w, c + 8, h1);
        } else {
            _mm512_storeu_pd(out + c, h0);
            _mm512_storeu_pd(out + c + 8, h1);
        }
    }
    if (nt && n16 > 0) px_lines_end(&w, n16);
}

/* columns [0, n16) of a height row, sixteen a step, the products computed */
PX_FMA_INLINE void px_row_n(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n16,
                            const int fma)
{
    const double *dwin8 = r->dwin8;
    const uint32_t wm = r->dwin8_mask;
    double *const out = r->out; /* a local: as px_row_ax */
    const __m512d vx0 = _mm512_set1_pd(r->x0), vstep = _mm512_set1_pd(r->step);
    const __m512d sixteen = _mm512_set1_pd(16.0);
    const __m512d lanes = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    __m512d ci0 = _mm512_add_pd(_mm512_set1_pd((double)r->c0), lanes);
    __m512d ci1 = _mm512_add_pd(ci0, _mm512_set1_pd(8.0));
    for (int64_t c = 0; c < n16; c += 16) {
        const __m512d x0 = _mm512_add_pd(vx0, _mm512_mul_pd(ci0, vstep));
        const __m512d x1 = _mm512_add_pd(vx0, _mm512_mul_pd(ci1, vstep));
        __m512d h0 = _mm512_setzero_pd(), h1 = _mm512_setzero_pd();
        for (uint32_t i = 0; i < n; i++) {
            if (dd[i].con) {
                const __m512d ct = _mm512_set1_pd(dd[i].cterm);
                h0 = _mm512_add_pd(h0, ct);
                h1 = _mm512_add_pd(h1, ct);
                continue;
            }
            const __m512d a = _mm512_set1_pd(dd[i].a7);
            h0 = _mm512_add_pd(h0, px_dir_term(&dd[i], _mm512_mul_pd(a, x0), dwin8, wm, 0, fma));
            h1 = _mm512_add_pd(h1, px_dir_term(&dd[i], _mm512_mul_pd(a, x1), dwin8, wm, 0, fma));
        }
        _mm512_storeu_pd(out + c, h0);
        _mm512_storeu_pd(out + c + 8, h1);
        ci0 = _mm512_add_pd(ci0, sixteen);
        ci1 = _mm512_add_pd(ci1, sixteen);
    }
}

/* Columns [0, n16) of a height row (height_row_avx512w), the products from
 * the block's scratch where it has them; fma: px_dir_term's. */
PX_FMA_INLINE void px_height_cols(const rt_point_row *r, const pr_dir *dd, int64_t n16, int use_ax,
                                  const int fma, const int w16)
{
    const uint32_t n = r->n;
    if (use_ax) {
        /* the leading directions with A = 0 add the same terms at every
         * column: their sum, in the seed's order from 0.0, once a row */
        uint32_t i0 = 0, mixed = 0;
        double hc = 0.0;
        for (; i0 < n && dd[i0].con; i0++) hc += dd[i0].cterm;
        for (uint32_t i = i0; i < n; i++) mixed |= (uint32_t)dd[i].con;
        const double *ax = px_ax(r) + i0 * n16;
        const int red = px_row_reduces(dd + i0, n - i0, n16, ax);
        if (!mixed && n - i0 == 4 && red) /* the classic model, unrolled */
            px_row_ax(r, dd + i0, 4, n16, ax, 1, hc, 1, fma, w16);
        else if (!mixed && n - i0 == 4)
            px_row_ax(r, dd + i0, 4, n16, ax, 1, hc, 0, fma, w16);
        else if (!mixed)
            px_row_ax(r, dd + i0, n - i0, n16, ax, 1, hc, red, fma, w16);
        else
            px_row_ax(r, dd + i0, n - i0, n16, ax, 0, hc, red, fma, w16);
    } else if (n == 5) {
        px_row_n(r, dd, 5, n16, fma);
    } else {
        px_row_n(r, dd, n, n16, fma);
    }
}

/* The directions of a height row (dd) and the columns [0, n16) the
 * eight-lane windows serve: 0 when they serve none (no windows, something
 * could be subnormal, some |A|*step > 100; as pr_height_row_avx2, see
 * point_rows_avx2.h). */
static PX_ATTR int64_t px_row_dirs_lim(const rt_point_row *r, pr_dir *dd, double lim,
                                       uint32_t offneg)
{
    const rt_terrain *t = r->t;
    const double tiny = 0x1p-900;
    if (!r->dwin8 || r->n > RT_MAX_DIRECTIONS || (r->x0 != 0.0 && fabs(r->x0) < tiny) ||
        !(r->step >= tiny) || (r->y != 0.0 && fabs(r->y) < tiny))
        return 0;
    const double xc = r->x0 + (double)r->c0 * r->step; /* any column of the row */
    for (uint32_t i = 0; i < r->n; i++) {
        const int32_t a = t->vec[RT_AH][i];
        if (!(fabs((double)a) * r->step <= lim)) return 0; /* the window rule above */
        dd[i].a7 = (double)a * RT_RECIP128;
        dd[i].by7 = (double)t->vec[RT_BH][i] * r->y * RT_RECIP128;
        dd[i].off = a < 0 ? offneg : 0u;
        dd[i].con = a == 0;
        dd[i].cterm = a == 0 ? pr_term(t, i, xc, r->y) : 0.0;
    }
    return r->nx & ~(int64_t)15;
}

static PX_ATTR int64_t px_row_dirs(const rt_point_row *r, pr_dir *dd)
{
    return px_row_dirs_lim(r, dd, 100.0, 7u);
}

/* The term of one direction at eight columns whose products are ax from a
 * window of 8 * nr entries (nr = 2 or 4): rows b, b + 8, ... of the
 * eight-lane windows (b lane 0's index, 8 * nr - 1 below it when A < 0:
 * dd->off), entry q in row b + 8 * ((q - b) >> 3), in slot q & 7 (one
 * permute of two rows, bit 3 of q - b choosing the row of a pair, and for
 * nr = 4 a blend of the two pairs by bit 4).  For rows whose |A|*step <=
 * RT_PX_W2_MAX (nr = 2: 8 m at the classic directions) or RT_PX_W4_MAX
 * (nr = 4: 16 m): eight columns' j then span at most 7*240/128 = 13.1, or
 * 7*480/128 = 26.3, plus rounding far below 0.7, so their floors differ
 * by at most 14, or 27. */
#define RT_PX_W2_MAX 240.0
#define RT_PX_W4_MAX 480.0
PX_FMA_INLINE __m512d px_dir_term2(const pr_dir *dd, __m512d ax, const double *dwin8, uint32_t wm,
                                   const int nr, const int fma)
{
    const px_split s = px_dir_split(ax, _mm512_set1_pd(dd->by7), 0);
    const uint32_t b = px_lane0(s.qb) - dd->off;
    const double *r0 = dwin8 + ((size_t)(b & wm) << 4), *r1 = dwin8 + ((size_t)((b + 8u) & wm) << 4);
    /* q - b in the low bits: the magic's low 32 bits less b */
    const __m512i qmb = _mm512_sub_epi64(s.qb, _mm512_set1_epi64((int64_t)b));
    const __m512i idx = _mm512_ternarylogic_epi64(s.qb, qmb, _mm512_set1_epi64(8),
                                                  0xD8); /* bit 3 from qmb, the rest from qb */
    __m512d p0 = _mm512_permutex2var_pd(_mm512_loadu_pd(r0), idx, _mm512_loadu_pd(r1));
    __m512d d = _mm512_permutex2var_pd(_mm512_loadu_pd(r0 + 8), idx, _mm512_loadu_pd(r1 + 8));
    if (nr == 4) {
        const double *r2 = dwin8 + ((size_t)((b + 16u) & wm) << 4);
        const double *r3 = dwin8 + ((size_t)((b + 24u) & wm) << 4);
        const __mmask8 hi = _mm512_test_epi64_mask(qmb, _mm512_set1_epi64(16)); /* bit 4 */
        p0 = _mm512_mask_blend_pd(hi, p0, _mm512_permutex2var_pd(_mm512_loadu_pd(r2), idx, _mm512_loadu_pd(r3)));
        d = _mm512_mask_blend_pd(hi, d,
                                 _mm512_permutex2var_pd(_mm512_loadu_pd(r2 + 8), idx, _mm512_loadu_pd(r3 + 8)));
    }
    return fma ? _mm512_fmadd_pd(s.jfrac, d, p0) : _mm512_add_pd(p0, _mm512_mul_pd(s.jfrac, d));
}

/* columns [0, n8) of a height row by px_dir_term2 (nr its window rows),
 * eight a step, the products computed (directions with A = 0 add their
 * constant term) */
PX_FMA_INLINE void px_row_w2(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n8,
                             const int nr, const int fma)
{
    const double *dwin8 = r->dwin8;
    const uint32_t wm = r->dwin8_mask;
    double *const out = r->out; /* a local: as px_row_ax */
    const __m512d vx0 = _mm512_set1_pd(r->x0), vstep = _mm512_set1_pd(r->step);
    __m512d ci = _mm512_add_pd(_mm512_set1_pd((double)r->c0),
                               _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0));
    for (int64_t c = 0; c < n8; c += 8) {
        const __m512d x = _mm512_add_pd(vx0, _mm512_mul_pd(ci, vstep));
        __m512d h = _mm512_setzero_pd();
        for (uint32_t i = 0; i < n; i++)
            h = _mm512_add_pd(h, dd[i].con ? _mm512_set1_pd(dd[i].cterm)
                                           : px_dir_term2(&dd[i], _mm512_mul_pd(_mm512_set1_pd(dd[i].a7), x),
                                                          dwin8, wm, nr, fma));
        _mm512_storeu_pd(out + c, h);
        ci = _mm512_add_pd(ci, _mm512_set1_pd(8.0));
    }
}

/* The block's products fl(A*2^-7 * x) for a row's kernel: nonzero when the
 * block's scratch holds them (filled by the first row that asks: they
 * depend on x0, step, c0, nx and A only, the same for every row of a
 * block) */
static PX_ATTR int px_row_products(const rt_point_row *r, const pr_dir *dd, int64_t n16)
{
    const int use_ax = r->ax && r->ax_ready && (uint64_t)r->n * (uint64_t)n16 <= r->ax_cap;
    if (use_ax && !*r->ax_ready) {
        /* the products start sh doubles in, sh + s a whole number of lines
         * (s: the columns before the output's first line boundary, the same
         * for every row of a block of whole lines), so that px_row_ax2c's
         * loads from column s are whole lines, as its stores; the products
         * at ax + sh (px_ax), *ax_ready = 1 + sh */
        const int64_t s = (uintptr_t)r->out % 8 == 0 ? px_lines_init(r->out).s : 0;
        const int64_t sh = px_has_ax16(r, r->n, n16) ? (8 - s) % 8 : 0;
        px_fill_ax(r, dd, r->n, n16, r->ax + sh);
        *r->ax_ready = 1 + (int)sh;
    }
    return use_ax;
}

/* The row's columns from n16 on (the AVX2 row) */
static PX_ATTR void px_row_rest(const rt_point_row *r, int64_t n16)
{
    if (n16 == r->nx) return;
    rt_point_row rest = *r;
    rest.ax = NULL; /* the block's scratch is this kernel's (its layout) */
    rest.c0 += n16;
    rest.nx -= n16;
    rest.out += n16;
    height_row_avx2w(&rest);
}

/* A height row, any step (as height_row_avx2w): the eight-lane windows
 * where they serve the row, the AVX2 row for the rest. */
static PX_FMA_ATTR void height_row_avx512w(const rt_point_row *r)
{
    const rt_terrain *t = r->t;
    pr_dir dd[RT_MAX_DIRECTIONS];
    const int64_t n16 = px_row_dirs(r, dd);
    /* coarse steps: windows of sixteen or 32 entries, eight columns a step
     * (rows past the table's end wrap as the profile does) */
    const int nr = n16 > 0 ? 0
                   : px_row_dirs_lim(r, dd, RT_PX_W2_MAX, 15u) > 0 ? 2
                   : px_row_dirs_lim(r, dd, RT_PX_W4_MAX, 31u) > 0 ? 4 : 0;
    if (nr) {
        const int64_t n8 = r->nx & ~(int64_t)7;
        const int fma = pr_row_fma(r, dd, r->n);
        if (nr == 2 && fma)
            px_row_w2(r, dd, r->n, n8, 2, 1);
        else if (nr == 2)
            px_row_w2(r, dd, r->n, n8, 2, 0);
        else if (fma)
            px_row_w2(r, dd, r->n, n8, 4, 1);
        else
            px_row_w2(r, dd, r->n, n8, 4, 0);
        px_row_rest(r, n8);
        return;
    }
    if (n16 == 0) {
        rt_point_row all = *r;
        all.ax = NULL; /* the block's scratch is this kernel's (its layout) */
        height_row_avx2w(&all);
        return;
    }
    const int use_ax = px_row_products(r, dd, n16);
    /* one window for sixteen columns (px_dir_term16) */
    int w16 = 1;
    for (uint32_t i = 0; i < r->n; i++)
        if (!(fabs((double)t->vec[RT_AH][i]) * r->step <= RT_PX_W16_MAX)) w16 = 0;
    const int fma = pr_row_fma(r, dd, r->n);
    if (fma && w16)
        px_height_cols(r, dd, n16, use_ax, 1, 1);
    else if (fma)
        px_height_cols(r, dd, n16, use_ax, 1, 0);
    else if (w16)
        px_height_cols(r, dd, n16, use_ax, 0, 1);
    else
        px_height_cols(r, dd, n16, use_ax, 0, 0);
    px_row_rest(r, n16);
}

/* Two rows of a block at once (rb the row after ra: the same columns, its
 * own y and output), where one window serves sixteen columns of both: the
 * window pair and its address are then loaded once for 32 values, the
 * same doubles as height_row_avx512w of each row.  Per direction, with S =
 * 15*|A|*step/128 (the most sixteen columns' j move, A != 0) and delta =
 * fl(B*y_b)*2^-7 - fl(B*y_a)*2^-7 (the most a column's j moves from row a
 * to row b, plus one rounding of each: j = fl(ax + by7) is monotone in
 * by7), every j of the 32 lies within [j0 - L - 0.4, j0 + R + 0.4] of j0,
 * lane 0's of row a, L = S (A < 0) + max(0, -delta) and R = S (A > 0) +
 * max(0, delta); 0.4 bounds the rounding of x, A*x and the sums as in
 * px_dir_term16.  A side whose bound is 0 needs no margin: j is monotone
 * along a row (in A's direction) and from row to row (in delta's), so no j
 * lies past j0 there.  With needL = ceil(L + 0.4) (0 when L = 0) and needR
 * likewise, every floor lies in [q0 - needL, q0 + needR], q0 = floor(j0):
 * the window starting needL below q0 holds them where needL + needR <= 7.
 * ha0, ha1 (row a's columns c..c+7, c+8..c+15) and hb0, hb1 row b's. */
PX_FMA_INLINE void px_row_ax2(const rt_point_row *ra, const rt_point_row *rb, const pr_dir *da,
                              const pr_dir *db, const uint32_t *off, uint32_t n, int64_t n16,
                              const double *ax, double hca, double hcb)
{
    /* its only caller's shape: vreducepd and the fused term in both rows */
    const int red = 1, fma = 1;
    const __m512d vha = _mm512_set1_pd(hca), vhb = _mm512_set1_pd(hcb);
    const double *dwin8 = ra->dwin8;
    const uint32_t wm = ra->dwin8_mask;
    double *const oa = ra->out, *const ob = rb->out;
    const int nt = ra->stream && (uintptr_t)oa % 8 == 0 && (uintptr_t)ob % 8 == 0;
    px_lines wa = px_lines_init(oa), wb = px_lines_init(ob);
    for (int64_t c = 0; c < n16; c += 16) {
        __m512d ha0 = vha, ha1 = vha, hb0 = vhb, hb1 = vhb;
        for (uint32_t i = 0; i < n; i++) {
            const __m512d ax0 = _mm512_loadu_pd(ax + i * n16 + c);
            const __m512d ax1 = _mm512_loadu_pd(ax + i * n16 + c + 8);
            const __m512d bya = _mm512_set1_pd(da[i].by7), byb = _mm512_set1_pd(db[i].by7);
            const px_split a0 = px_dir_split(ax0, bya, red), a1 = px_dir_split(ax1, bya, red);
            const px_split b0 = px_dir_split(ax0, byb, red), b1 = px_dir_split(ax1, byb, red);
            const double *row = dwin8 + ((size_t)((px_lane0(a0.qb) - off[i]) & wm) << 4);
            const __m512d wp = _mm512_loadu_pd(row), wd = _mm512_loadu_pd(row + 8);
            ha0 = _mm512_add_pd(ha0, px_dir_interp(a0.qb, a0.jfrac, wp, wd, fma));
            ha1 = _mm512_add_pd(ha1, px_dir_interp(a1.qb, a1.jfrac, wp, wd, fma));
            hb0 = _mm512_add_pd(hb0, px_dir_interp(b0.qb, b0.jfrac, wp, wd, fma));
            hb1 = _mm512_add_pd(hb1, px_dir_interp(b1.qb, b1.jfrac, wp, wd, fma));
        }
        if (nt) {
            px_lines_put(&wa, c, ha0);
            px_lines_put(&wa, c + 8, ha1);
            px_lines_put(&wb, c, hb0);
            px_lines_put(&wb, c + 8, hb1);
        } else {
            _mm512_storeu_pd(oa + c, ha0);
            _mm512_storeu_pd(oa + c + 8, ha1);
            _mm512_storeu_pd(ob + c, hb0);
            _mm512_storeu_pd(ob + c + 8, hb1);
        }
    }
    if (nt && n16 > 0) {
        px_lines_end(&wa, n16);
        px_lines_end(&wb, n16);
    }
}

/* px_row_ax2 by the windows' intercepts (an integer profile: r->cwin8).
 * The seed's term where the fused term and vreducepd are valid (the only
 * caller's rows) is RN(p0 + (j - q)*d), q = floor(j), the difference j - q
 * exact; with c = P[q] - q*D[q] an exact integer (rt__point_cwin8: |q| <=
 * 2^30 by the rows' bound on |j|), j*d + c is the same real number, so
 * fma(j, d, c), rounded once, is the same double, with no jfrac.  A
 * window's intercepts are its cwin8 row's, c(e) - M*d (one exact fused
 * multiply-add, M = the window's absolute base minus its row: a multiple
 * of the row count).
 * The window rows and M of up to PX_CHUNK iterations (sixteen columns
 * each) come first, from the products at their first columns by the same
 * operations as lane 0's j and RD(j + 1.5*2^52) in the loop, so the same
 * doubles: the loop's window loads then wait for no arithmetic.
 * Where both rows' streaming stores start the same number s of columns
 * before a line boundary, the sixteen columns are [s + 16k, s + 16k + 16),
 * whole lines stored as they are (the lines' realigning permutes,
 * px_lines_put, compete with the lookups'); columns [0, s) and the last
 * 16 - s of [0, n16) are then two more iterations' masked stores. */
#define PX_CHUNK 32

/* The window rows (wrow) and M (wmul) of cnt <= PX_CHUNK iterations of one
 * direction from the products at their first columns (a0[0..cnt)) */
PX_FMA_INLINE void px_win_rows(const double *a0, int64_t cnt, double by7, uint32_t off,
                               uint32_t wm, int32_t *wrow, double *wmul)
{
    const __m512d magic = _mm512_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    for (int64_t k = 0; k < cnt; k += 8) {
        const __mmask8 m = (__mmask8)(cnt - k >= 8 ? 0xFFu : (1u << (cnt - k)) - 1u);
        const __m512d j = _mm512_add_pd(_mm512_maskz_loadu_pd(m, a0 + k), _mm512_set1_pd(by7));
        const __m512d qd = px_add_down_fma(j, magic);
        /* the window's absolute base floor(j) - off: qd's bits less those
         * of 1.5*2^52 (the doubles in [2^52, 2^53) are the integers) */
        const __m512i base = _mm512_sub_epi64(_mm512_castpd_si512(qd),
                                              _mm512_set1_epi64(0x4338000000000000LL + (long long)off));
        const __m512i row = _mm512_and_si512(base, _mm512_set1_epi64(wm));
        _mm256_mask_storeu_epi32(wrow + k, m, _mm512_cvtepi64_epi32(row));
        _mm512_mask_storeu_pd(wmul + k, m, _mm512_cvtepi64_pd(_mm512_sub_epi64(base, row)));
    }
}

/* Columns [c, c + 16) of both rows (four directions), the window rows and M
 * of direction i at wrow[i*ws], wmul[i*ws]: ha0, ha1 row a's, hb0, hb1 row b's */
typedef struct px_cols2 {
    __m512d ha0, ha1, hb0, hb1;
} px_cols2;

PX_FMA_INLINE px_cols2 px_cols2c(const double *ax, int64_t n16, int64_t c, const pr_dir *da,
                                 const pr_dir *db, const double *dwin8, const double *cwin8,
                                 const int32_t *wrow, const double *wmul, int64_t ws,
                                 __m512d vha, __m512d vhb)
{
    const __m512d magic = _mm512_set1_pd(6755399441055744.0);
    px_cols2 h = {vha, vha, vhb, vhb};
    for (uint32_t i = 0; i < 4; i++) {
        const size_t w = (size_t)(uint32_t)wrow[i * ws];
        const __m512d wd = _mm512_load_pd(dwin8 + (w << 4) + 8);
        /* c(e) in a register, so that M comes as the multiply-add's
         * broadcast operand ({1to8}) rather than by a broadcast on the
         * shuffle pipes the lookups use (1.05x slower) */
        __m512d cw = _mm512_load_pd(cwin8 + (w << 3));
        __asm__("" : "+v"(cw));
        const __m512d wc = _mm512_fnmadd_pd(_mm512_set1_pd(wmul[i * ws]), wd, cw);
        const __m512d ax0 = _mm512_loadu_pd(ax + i * n16 + c);
        const __m512d ax1 = _mm512_loadu_pd(ax + i * n16 + c + 8);
        const __m512d bya = _mm512_set1_pd(da[i].by7), byb = _mm512_set1_pd(db[i].by7);
        /* j by adds, RD(j + 1.5*2^52) by fused ones: the two kinds of pipe
         * share the work (j by fused ones too measured 1.14x slower) */
        const __m512d ja0 = _mm512_add_pd(ax0, bya), ja1 = _mm512_add_pd(ax1, bya);
        const __m512d jb0 = _mm512_add_pd(ax0, byb), jb1 = _mm512_add_pd(ax1, byb);
        const __m512i qa0 = _mm512_castpd_si512(px_add_down_fma(ja0, magic));
        const __m512i qa1 = _mm512_castpd_si512(px_add_down_fma(ja1, magic));
        const __m512i qb0 = _mm512_castpd_si512(px_add_down_fma(jb0, magic));
        const __m512i qb1 = _mm512_castpd_si512(px_add_down_fma(jb1, magic));
        h.ha0 = _mm512_add_pd(h.ha0, _mm512_fmadd_pd(ja0, _mm512_permutexvar_pd(qa0, wd), _mm512_permutexvar_pd(qa0, wc)));
        h.ha1 = _mm512_add_pd(h.ha1, _mm512_fmadd_pd(ja1, _mm512_permutexvar_pd(qa1, wd), _mm512_permutexvar_pd(qa1, wc)));
        h.hb0 = _mm512_add_pd(h.hb0, _mm512_fmadd_pd(jb0, _mm512_permutexvar_pd(qb0, wd), _mm512_permutexvar_pd(qb0, wc)));
        h.hb1 = _mm512_add_pd(h.hb1, _mm512_fmadd_pd(jb1, _mm512_permutexvar_pd(qb1, wd), _mm512_permutexvar_pd(qb1, wc)));
    }
    return h;
}

/* px_cols2c at columns [c, c + 16), its window rows from the products
 * there, stored where mask (bit k: column c + k) says, plainly */
PX_FMA_INLINE void px_cols2c_masked(const double *ax, int64_t n16, int64_t c, const pr_dir *da,
                                    const pr_dir *db, const uint32_t *off, const double *dwin8,
                                    const double *cwin8, uint32_t wm, __m512d vha, __m512d vhb,
                                    double *oa, double *ob, uint32_t mask)
{
    int32_t wrow[4];
    double wmul[4];
    for (uint32_t i = 0; i < 4; i++)
        px_win_rows(ax + i * n16 + c, 1, da[i].by7, off[i], wm, wrow + i, wmul + i);
    const px_cols2 h = px_cols2c(ax, n16, c, da, db, dwin8, cwin8, wrow, wmul, 1, vha, vhb);
    const __mmask8 m0 = (__mmask8)(mask & 0xFFu), m1 = (__mmask8)(mask >> 8);
    _mm512_mask_storeu_pd(oa + c, m0, h.ha0);
    _mm512_mask_storeu_pd(oa + c + 8, m1, h.ha1);
    _mm512_mask_storeu_pd(ob + c, m0, h.hb0);
    _mm512_mask_storeu_pd(ob + c + 8, m1, h.hb1);
}

/* px_row_ax2c's iterations from column s: stores by mode (0: plain, 1:
 * whole lines from column s streamed, 2: the lines realigned and streamed,
 * px_lines_put, 3: whole lines from column s stored) */
PX_FMA_INLINE void px_ax2c_run(const pr_dir *da, const pr_dir *db, const uint32_t *off,
                               int64_t n16, const double *ax, const double *ax16,
                               const double *dwin8, const double *cwin8, uint32_t wm,
                               __m512d vha, __m512d vhb, double *oa, double *ob, px_lines *wa,
                               px_lines *wb, int64_t s, const int mode)
{
    const int64_t nk16 = n16 / 16, nk = s ? nk16 - 1 : nk16;
    /* ax16 + (i*8 + s)*nk16 + k: direction i's product at column s + 16k */
    for (int64_t k0 = 0; k0 < nk; k0 += PX_CHUNK) {
        const int64_t cnt = nk - k0 < PX_CHUNK ? nk - k0 : PX_CHUNK;
        int32_t wrow[4 * PX_CHUNK];
        double wmul[4 * PX_CHUNK];
        for (uint32_t i = 0; i < 4; i++)
            px_win_rows(ax16 + (i * 8 + s) * nk16 + k0, cnt, da[i].by7, off[i], wm,
                        wrow + i * PX_CHUNK, wmul + i * PX_CHUNK);
        for (int64_t k = 0; k < cnt; k++) {
            const int64_t c = s + (k0 + k) * 16;
            const px_cols2 h = px_cols2c(ax, n16, c, da, db, dwin8, cwin8, wrow + k, wmul + k,
                                         PX_CHUNK, vha, vhb);
            if (mode == 3) {
                _mm512_store_pd(oa + c, h.ha0);
                _mm512_store_pd(oa + c + 8, h.ha1);
                _mm512_store_pd(ob + c, h.hb0);
                _mm512_store_pd(ob + c + 8, h.hb1);
            } else if (mode == 1) {
                _mm512_stream_pd(oa + c, h.ha0);
                _mm512_stream_pd(oa + c + 8, h.ha1);
                _mm512_stream_pd(ob + c, h.hb0);
                _mm512_stream_pd(ob + c + 8, h.hb1);
            } else if (mode == 2) {
                px_lines_put(wa, c, h.ha0);
                px_lines_put(wa, c + 8, h.ha1);
                px_lines_put(wb, c, h.hb0);
                px_lines_put(wb, c + 8, h.hb1);
            } else {
                _mm512_storeu_pd(oa + c, h.ha0);
                _mm512_storeu_pd(oa + c + 8, h.ha1);
                _mm512_storeu_pd(ob + c, h.hb0);
                _mm512_storeu_pd(ob + c + 8, h.hb1);
            }
        }
    }
}

static PX_FMA_ATTR void px_row_ax2c(const rt_point_row *ra, const rt_point_row *rb,
                                    const pr_dir *da, const pr_dir *db, const uint32_t *off,
                                    int64_t n16, const double *ax, const double *ax16, double hca,
                                    double hcb)
{
    const __m512d vha = _mm512_set1_pd(hca), vhb = _mm512_set1_pd(hcb);
    const double *dwin8 = ra->dwin8, *cwin8 = ra->cwin8;
    const uint32_t wm = ra->dwin8_mask;
    double *const oa = ra->out, *const ob = rb->out;
    const int al = (uintptr_t)oa % 8 == 0 && (uintptr_t)ob % 8 == 0;
    const int nt = ra->stream && al;
    px_lines wa = px_lines_init(oa), wb = px_lines_init(ob);
    if (al && wa.s == wb.s) {
        /* whole lines from column s (both rows alike), streamed or stored */
        const int64_t s = wa.s;
        if (nt)
            px_ax2c_run(da, db, off, n16, ax, ax16, dwin8, cwin8, wm, vha, vhb, oa, ob, &wa, &wb, s, 1);
        else
            px_ax2c_run(da, db, off, n16, ax, ax16, dwin8, cwin8, wm, vha, vhb, oa, ob, &wa, &wb, s, 3);
        if (s) {
            /* columns [0, s) and [n16 - 16 + s, n16) */
            px_cols2c_masked(ax, n16, 0, da, db, off, dwin8, cwin8, wm, vha, vhb, oa, ob,
                             (1u << s) - 1u);
            px_cols2c_masked(ax, n16, n16 - 16, da, db, off, dwin8, cwin8, wm, vha, vhb, oa, ob,
                             0xFFFFu << s);
        }
    } else if (nt) {
        px_ax2c_run(da, db, off, n16, ax, ax16, dwin8, cwin8, wm, vha, vhb, oa, ob, &wa, &wb, 0, 2);
        px_lines_end(&wa, n16);
        px_lines_end(&wb, n16);
    } else {
        px_ax2c_run(da, db, off, n16, ax, ax16, dwin8, cwin8, wm, vha, vhb, oa, ob, &wa, &wb, 0, 0);
    }
}

/* needL or needR of px_row_ax2 for a bound b >= 0 */
static inline uint32_t px_need(double b)
{
    return b > 0.0 ? (uint32_t)ceil(b + 0.4) : 0u;
}

/* Two height rows of a block (rb the row after ra, the same columns):
 * px_row_ax2 where its windows serve both, else each row alone. */
static PX_FMA_ATTR void height_row2_avx512w(const rt_point_row *ra, const rt_point_row *rb)
{
    const rt_terrain *t = ra->t;
    pr_dir da[RT_MAX_DIRECTIONS], db[RT_MAX_DIRECTIONS];
    uint32_t off[RT_MAX_DIRECTIONS];
    const int64_t n16 = px_row_dirs(ra, da);
    int ok = n16 > 0 && px_row_dirs(rb, db) == n16 && rb->x0 == ra->x0 &&
             rb->step == ra->step && rb->c0 == ra->c0 && rb->n == ra->n && rb->ax == ra->ax;
    const uint32_t n = ra->n;
    /* the leading directions with A = 0: their sums, once a row; none after */
    uint32_t i0 = 0;
    double hca = 0.0, hcb = 0.0;
    for (; ok && i0 < n && da[i0].con; i0++) {
        hca += da[i0].cterm;
        hcb += db[i0].cterm;
    }
    for (uint32_t i = i0; ok && i < n; i++) {
        const double as = fabs((double)t->vec[RT_AH][i]) * ra->step;
        if (da[i].con || !(as <= RT_PX_W16_MAX)) {
            ok = 0;
            break;
        }
        const double s = 15.0 * as * RT_RECIP128, delta = db[i].by7 - da[i].by7;
        const int neg = t->vec[RT_AH][i] < 0;
        const uint32_t need_l = px_need((neg ? s : 0.0) + (delta < 0.0 ? -delta : 0.0));
        const uint32_t need_r = px_need((neg ? 0.0 : s) + (delta > 0.0 ? delta : 0.0));
        if (!(fabs(delta) < 8.0) || need_l + need_r > 7u) ok = 0;
        off[i] = need_l;
    }
    /* the classic model's shape (every preset's: four moving directions
     * after those of A = 0), unrolled, vreducepd and the fused term in both
     * rows; anything else row by row (a loop over a direction count known
     * at run time, or with those choices made in it, measured slower than
     * the single rows' kernels) */
    ok = ok && n - i0 == 4 && px_row_products(ra, da, n16);
    const double *ax = ok ? px_ax(ra) + i0 * n16 : NULL;
    ok = ok && px_row_reduces(da + i0, 4, n16, ax) && px_row_reduces(db + i0, 4, n16, ax) &&
         pr_row_fma(ra, da, n) && pr_row_fma(rb, db, n);
    if (!ok) {
        height_row_avx512w(ra);
        height_row_avx512w(rb);
        return;
    }
    if (px_has_ax16(ra, n, n16))
        px_row_ax2c(ra, rb, da + i0, db + i0, off + i0, n16, ax,
                    px_ax(ra) + (int64_t)n * n16 + i0 * 8 * (n16 / 16), hca, hcb);
    else
        px_row_ax2(ra, rb, da + i0, db + i0, off + i0, 4, n16, ax, hca, hcb);
    px_row_rest(ra, n16);
    px_row_rest(rb, n16);
}

/* the window lookups of one direction (pp_dir, off 15 when A < 0) for
 * sixteen columns at x0 (0..7), x1 (8..15) */
PX_INLINE __m512i px_prof_sum(const pp_dir *dd, __m512d x0, __m512d x1, const int32_t *win16,
                              uint32_t wm, __m512i pack)
{
    const __m512d magic = _mm512_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    const __m512d a = _mm512_set1_pd(dd->a7), bb = _mm512_set1_pd(dd->by7);
    const __m512i q0 = _mm512_castpd_si512(_mm512_add_round_pd(
        _mm512_add_pd(_mm512_mul_pd(a, x0), bb), magic, PX_FLOOR));
    const __m512i q1 = _mm512_castpd_si512(_mm512_add_round_pd(
        _mm512_add_pd(_mm512_mul_pd(a, x1), bb), magic, PX_FLOOR));
    const __m512i q = _mm512_permutex2var_epi32(q0, pack, q1); /* the low halves, in order */
    const int32_t *row = win16 + ((size_t)((px_lane0(q0) - dd->off) & wm) << 4);
    return _mm512_permutexvar_epi32(q, _mm512_loadu_si512((const void *)row));
}

/* round_js(x) of the sixteen columns at x0, x1 into xr: floor, plus one if
 * the fraction is >= 0.5 */
PX_INLINE void px_xr16(int32_t *xr, __m512d x0, __m512d x1)
{
    const __m512d half = _mm512_set1_pd(0.5), onepd = _mm512_set1_pd(1.0);
    const __m512d f0 = _mm512_roundscale_pd(x0, PX_FLOOR);
    const __m512d f1 = _mm512_roundscale_pd(x1, PX_FLOOR);
    const __mmask8 u0 = _mm512_cmp_pd_mask(_mm512_sub_pd(x0, f0), half, _CMP_GE_OQ);
    const __mmask8 u1 = _mm512_cmp_pd_mask(_mm512_sub_pd(x1, f1), half, _CMP_GE_OQ);
    _mm256_storeu_si256((__m256i *)(void *)xr, _mm512_cvttpd_epi32(_mm512_mask_add_pd(f0, u0, f0, onepd)));
    _mm256_storeu_si256((__m256i *)(void *)(xr + 8), _mm512_cvttpd_epi32(_mm512_mask_add_pd(f1, u1, f1, onepd)));
}

PX_INLINE void px_prof_n(const rt_point_prof *r, const pp_dir (*dd)[RT_MAX_DIRECTIONS],
                         uint32_t n, int n16)
{
    const __m512d vx0 = _mm512_set1_pd(r->x0), vstep = _mm512_set1_pd(r->step);
    const __m512d sixteen = _mm512_set1_pd(16.0);
    const __m512d lanes = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    const __m512i pack = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                           28, 30);
    const int32_t *win16 = r->win16;
    const uint32_t wm = r->win16_mask;
    __m512d ci0 = _mm512_add_pd(_mm512_set1_pd((double)r->c0), lanes);
    __m512d ci1 = _mm512_add_pd(ci0, _mm512_set1_pd(8.0));
    for (int c = 0; c < n16; c += 16) {
        const __m512d x0 = _mm512_add_pd(vx0, _mm512_mul_pd(ci0, vstep));
        const __m512d x1 = _mm512_add_pd(vx0, _mm512_mul_pd(ci1, vstep));
        for (int p = 0; p < 3; p++) {
            __m512i acc = _mm512_setzero_si512();
            for (uint32_t i = 0; i < n; i++)
                acc = _mm512_add_epi32(acc, px_prof_sum(&dd[p][i], x0, x1, win16, wm, pack));
            _mm512_storeu_si512((void *)(r->a[p] + c), acc);
        }
        /* round_js(x): floor, plus one if the fraction is >= 0.5 (unless
         * xr holds them: the previous row's) */
        if (r->xr_ready) {
            ci0 = _mm512_add_pd(ci0, sixteen);
            ci1 = _mm512_add_pd(ci1, sixteen);
            continue;
        }
        px_xr16(r->xr + c, x0, x1);
        ci0 = _mm512_add_pd(ci0, sixteen);
        ci1 = _mm512_add_pd(ci1, sixteen);
    }
}

/* U = base + W of direction d at the sixteen columns from column k of the
 * chunk (as pq_u) */
PX_INLINE __m512i px_u(const uint32_t *fix, const uint32_t *base, uint32_t d, size_t cols, int k)
{
    return _mm512_add_epi32(_mm512_set1_epi32((int)base[d]),
                            _mm512_loadu_si512((const void *)(fix + (size_t)d * cols + k)));
}

/* x of the sixteen columns [c, c+16) of a row, as px_prof_n computes them
 * (x0: the first eight) */
PX_INLINE void px_x16(const rt_point_prof *r, int c, __m512d vx0, __m512d vstep, __m512d *x0,
                      __m512d *x1)
{
    const __m512d cc = _mm512_add_pd(_mm512_set1_pd((double)(r->c0 + c)),
                                     _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0));
    *x0 = _mm512_add_pd(vx0, _mm512_mul_pd(cc, vstep));
    *x1 = _mm512_add_pd(vx0, _mm512_mul_pd(_mm512_add_pd(cc, _mm512_set1_pd(8.0)), vstep));
}

/* The profile sums by fixed point (as pq_row_n, point_rows_avx2.h: the same
 * products W, bases, bound E and near-lane rule), sixteen columns a step
 * with the 16-lane windows: U = base + W of a direction at the sixteen
 * columns, its index U >> (F+7) modulo 2^L (the windows' rows) from lane
 * 0 picking the window and the low four bits of each lane's picking the
 * entry (the window holds entry e in lane e & 15: sixteen columns span at
 * most 15 entries, |A|*step <= 100).  A lane within 2E of an index boundary
 * makes its direction's sixteen columns one for the doubles (px_prof_sum).
 * Where lattice steps put such lanes in many groups (1/3 from whole
 * metres), the rest of the call takes the doubles' rows (px_prof_n).
 * Columns [0, n16), n16 a multiple of 16 and of the chunk's columns where
 * there are several chunks. */
PX_INLINE void px_pq_row_n(const rt_point_prof *r, const pp_dir (*dd)[RT_MAX_DIRECTIONS],
                           uint32_t n, const pq_fix *fx, int n16)
{
    const size_t cols = fx->cols;
    const __m512i vshift = _mm512_set1_epi32(fx->shift), lim = _mm512_set1_epi32((int)fx->e2);
    const __m512i frac = _mm512_set1_epi32((int)((1u << fx->shift) - 1u));
    const int32_t *win16 = r->win16;
    const uint32_t wm = r->win16_mask;
    const __m512d vx0 = _mm512_set1_pd(r->x0), vstep = _mm512_set1_pd(r->step);
    const __m512i pack = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                           28, 30);
    const __m512d lake_h = _mm512_set1_pd(r->lake_height), lake_b = _mm512_set1_pd(r->lake_base);
    const uint32_t nd = 3 * n, sd = PQ_ROUND(3 * n);
    uint32_t base[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(64))) = {0};
    uint32_t offs[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(64))) = {0};
    uint32_t rowb[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(64)));
    uint32_t lob[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(64)));
    const rt_veg_bounds *vb = r->vb;
    const uint32_t *first = r->fix + (size_t)nd * cols; /* the groups' first lanes */
    for (uint32_t d = 0; d < nd; d++) offs[d] = dd[d / n][d % n].off;
    const __m256i vwm = _mm256_set1_epi32((int)wm);
    const __m256i vsh = _mm256_set1_epi32(fx->shift);
    int cs = 0;
    const int xr_ready = r->xr_ready;
    /* the check once for all directions while few groups need it, as
     * pq_row_n (its rule and its note in *fix_ready) */
    int groups = 0, redone = 0;
    const int slack = vb ? 256 : 32;
    for (int c = 0; c < n16; c += 16) {
        if (c == cs + (int)cols || c == 0) {
            cs = c;
            pq_bases(r, base, n, cs, fx);
        }
        /* the window rows, 64 bytes each (and the bounds' tables' entries) */
        if (vb)
            pq_rows_vb(base, first + (size_t)(c - cs) / 8 * sd, offs, sd, vsh, vwm, 6, rowb, vb, lob);
        else
            pq_rows(base, first + (size_t)(c - cs) / 8 * sd, offs, sd, vsh, vwm, 6, rowb);
        __asm__ volatile("" : : "r"(rowb), "r"(lob) : "memory"); /* as pq_row_n */
        /* sixteen columns all lake or mud: their sums are not read */
        if (r->ht) {
            const __m512d h0 = _mm512_loadu_pd(r->ht + c), h1 = _mm512_loadu_pd(r->ht + c + 8);
            const __mmask8 w0 = _mm512_cmp_pd_mask(h0, lake_h, _CMP_LT_OQ) | _mm512_cmp_pd_mask(h0, lake_b, _CMP_LT_OQ);
            const __mmask8 w1 = _mm512_cmp_pd_mask(h1, lake_h, _CMP_LT_OQ) | _mm512_cmp_pd_mask(h1, lake_b, _CMP_LT_OQ);
            if ((w0 & w1) == 0xff) {
                for (int p = 0; p < 3; p++) _mm512_storeu_si512((void *)(r->a[p] + c), _mm512_setzero_si512());
                if (!xr_ready) {
                    __m512d x0, x1;
                    px_x16(r, c, vx0, vstep, &x0, &x1);
                    px_xr16(r->xr + c, x0, x1);
                }
                continue;
            }
        }
        /* the pairs this group needs (rt_veg_bounds.h); the others' lanes
         * take a value classified as their sums */
        unsigned need = 7;
        int32_t rep[3] = {0, 0, 0};
        if (vb) need = pq_need(vb, lob, n, rep);
        int each = 0;
        {
            __m512i least = frac;
            for (int p = 0; p < 3; p++) {
                if (!(need >> p & 1)) {
                    _mm512_storeu_si512((void *)(r->a[p] + c), _mm512_set1_epi32(rep[p]));
                    continue;
                }
                __m512i acc = _mm512_setzero_si512();
                for (uint32_t i = 0; i < n; i++) {
                    const uint32_t d = (uint32_t)p * n + i;
                    const __m512i u = px_u(r->fix, base, d, cols, c - cs);
                    least = _mm512_min_epu32(least, _mm512_and_si512(u, frac));
                    const __m512i wv = _mm512_load_si512((const void *)((const char *)win16 + rowb[d]));
                    acc = _mm512_add_epi32(acc, _mm512_permutexvar_epi32(_mm512_srlv_epi32(u, vshift), wv));
                }
                _mm512_storeu_si512((void *)(r->a[p] + c), acc);
            }
            groups++;
            if (__builtin_expect(_mm512_cmplt_epu32_mask(least, lim) != 0, 0)) {
                each = 1; /* some lane near a boundary: those directions again */
                if (++redone * 4 > groups + slack) {
                    /* the lattice hits boundaries often (step 1/3): the
                     * doubles for this row's other columns and the
                     * thread's other rows of the call (px_prof_n; the
                     * direction-by-direction check took 1.03-1.07 of
                     * their time there, with its mispredicted branches).
                     * With the bounds, only where most of a row's groups
                     * are redone: the groups that need their sums are
                     * few and come in clusters (at 1/3 from whole metres
                     * about 1 in 6 of them, of which 4 in 5 redone; with
                     * a slack of 32 groups each 2048^2 call switched to
                     * the doubles, which have no bounds, within its first
                     * 120 rows) */
                    *r->fix_ready |= 2;
                    const rt_point_prof rest = pp_from(r, c);
                    px_prof_n(&rest, dd, n, n16 - c);
                    return;
                }
            }
        }
        __m512d x0 = _mm512_setzero_pd(), x1 = x0;
        if (each || !xr_ready) px_x16(r, c, vx0, vstep, &x0, &x1);
        /* the near directions' sixteen by the doubles, in place of their
         * lookups (the sums modulo 2^32: the same int32) */
        for (int p = 0; each && p < 3; p++) {
            if (!(need >> p & 1)) continue; /* not looked up */
            __m512i acc = _mm512_loadu_si512((const void *)(r->a[p] + c));
            int changed = 0;
            for (uint32_t i = 0; i < n; i++) {
                const uint32_t d = (uint32_t)p * n + i;
                const __m512i u = px_u(r->fix, base, d, cols, c - cs);
                if (_mm512_cmplt_epu32_mask(_mm512_and_si512(u, frac), lim) == 0) continue;
                const __m512i wv = _mm512_load_si512((const void *)((const char *)win16 + rowb[d]));
                const __m512i fixed = _mm512_permutexvar_epi32(_mm512_srlv_epi32(u, vshift), wv);
                acc = _mm512_add_epi32(_mm512_sub_epi32(acc, fixed),
                                       px_prof_sum(&dd[p][i], x0, x1, win16, wm, pack));
                changed = 1;
            }
            if (changed) _mm512_storeu_si512((void *)(r->a[p] + c), acc);
        }
        if (!xr_ready) px_xr16(r->xr + c, x0, x1); /* else the previous row's */
    }
}

/* The profile sums and rounded x of a terra row's tile (as prof_row_avx2w):
 * the 16-lane windows where they serve the tile (by fixed point where the
 * block has the products: px_pq_row_n), the AVX2 row for the rest. */
static PX_ATTR void prof_row_avx512w(const rt_point_prof *r)
{
    const rt_terrain *t = r->t;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    int n16 = r->win16 && r->n <= RT_MAX_DIRECTIONS ? r->nk & ~15 : 0;
    pp_dir dd[3][RT_MAX_DIRECTIONS];
    for (int p = 0; n16 > 0 && p < 3; p++)
        for (uint32_t i = 0; i < r->n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            if (!(fabs((double)a) * r->step <= 100.0)) n16 = 0; /* the window rule above */
            dd[p][i].a7 = (double)a * RT_RECIP128;
            dd[p][i].by7 = (double)t->vec[pb[p]][i] * r->y * RT_RECIP128;
            dd[p][i].off = a < 0 ? 15u : 0u;
        }
    if (n16 > 0) {
        pq_fix fx; /* the fixed point for the 16-lane windows' rows */
        if (pq_setup(r, r->win16, r->win16_mask, &fx) && !(*r->fix_ready & 2) &&
            (fx.cols % 16 == 0 || (int)fx.cols >= n16)) {
            if (r->n == 5)
                px_pq_row_n(r, dd, 5, &fx, n16);
            else
                px_pq_row_n(r, dd, r->n, &fx, n16);
        } else if (r->n == 5) {
            px_prof_n(r, dd, 5, n16);
        } else {
            px_prof_n(r, dd, r->n, n16);
        }
    }
    if (n16 == r->nk) return;
    rt_point_prof rest = pp_from(r, n16);
    rest.fix = NULL; /* a few columns: not worth filling the AVX2 rows' products */
    prof_row_avx2w(&rest);
}

/* The sums of tile_prof_at_avx512w's sixteen-lane path at columns [0, k1)
 * (a multiple of 16) of xr */
PX_INLINE void px_prof_at_cols(const rt_tile_args *ta, const uint32_t *xr, int32_t *out, int k1)
{
    const uint32_t s = ta->shift, n = ta->n;
    const int32_t *win16 = ta->win16;
    const uint32_t wm = ta->win16_mask;
    const __m128i sh = _mm_cvtsi32_si128((int)s);
    for (int k = 0; k < k1; k += 16) {
        const __m512i x = _mm512_loadu_si512((const void *)(xr + k));
        __m512i acc = _mm512_setzero_si512();
        for (uint32_t i = 0; i < n; i++) {
            const __m512i q = _mm512_srl_epi32(
                _mm512_add_epi32(_mm512_mullo_epi32(x, _mm512_set1_epi32((int)ta->dv[i])),
                                 _mm512_set1_epi32((int)ta->v0[i])), sh);
            const uint32_t off = (int32_t)ta->dv[i] < 0 ? 15u : 0u;
            const int32_t *row = win16 + ((size_t)((px_lane0(q) - off) & wm) << 4);
            acc = _mm512_add_epi32(acc, _mm512_permutexvar_epi32(q, _mm512_loadu_si512((const void *)row)));
        }
        _mm512_storeu_si512((void *)(out + k), acc);
    }
}

/* Columns [0, k1) where each rounded x repeats (as aw_prof_at_spread,
 * terrain_avx2.h: sixteen columns spanning at most 15): the sums of the
 * distinct values once, over consecutive integers, spread by one permute a
 * group of sixteen; in chunks of PX_AT_CHUNK columns */
#define PX_AT_CHUNK 256
PX_INLINE void px_prof_at_spread(const rt_tile_args *ta, const uint32_t *xr, int32_t *out, int k1)
{
    uint32_t xu[PX_AT_CHUNK + 16];
    int32_t su[PX_AT_CHUNK + 32];
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i sixteen = _mm512_set1_epi32(16);
    for (int c = 0; c < k1; c += PX_AT_CHUNK) {
        const int cn = k1 - c < PX_AT_CHUNK ? k1 - c : PX_AT_CHUNK;
        const uint32_t lo = xr[c], m = xr[c + cn - 1] - lo + 1;
        if (m > (uint32_t)cn) { /* not for the buffers (uniform steps below 1 never) */
            px_prof_at_cols(ta, xr + c, out + c, cn);
            continue;
        }
        const int m16 = (int)((m + 15) & ~15u);
        __m512i v = _mm512_add_epi32(_mm512_set1_epi32((int)lo), iota);
        for (int q = 0; q < m16; q += 16) {
            _mm512_storeu_si512((void *)(xu + q), v);
            v = _mm512_add_epi32(v, sixteen);
        }
        px_prof_at_cols(ta, xu, su, m16);
        _mm512_storeu_si512((void *)(su + m16), _mm512_setzero_si512()); /* read, unused */
        for (int k = c; k < c + cn; k += 16) {
            const __m512i x = _mm512_loadu_si512((const void *)(xr + k));
            const __m512i idx = _mm512_sub_epi32(x, _mm512_set1_epi32((int)xr[k]));
            const __m512i w = _mm512_loadu_si512((const void *)(su + (xr[k] - lo)));
            _mm512_storeu_si512((void *)(out + k), _mm512_permutexvar_epi32(idx, w));
        }
    }
}

/* Profile sums at the rounded points (as tile_prof_at_avx2w; xr is
 * nondecreasing): V = a*xr + by modulo 2^32 and the index V >> s, sixteen
 * columns a step, the profile by the 16-lane windows where the columns of
 * every group of 16 span at most 15 indices (|a| * (xr[k+15] - xr[k]) <=
 * 15 * 2^s) and the windows repeat with a period dividing 2^(32-s) (s <= 22:
 * the indices are taken modulo 2^(32-s)), else by the AVX2 kernel. */
static PX_ATTR void tile_prof_at_avx512w(const rt_tile_args *ta, const uint32_t *restrict xr,
                                         int32_t *restrict out)
{
    const int nk = ta->nk;
    const uint32_t s = ta->shift, n = ta->n;
    int k1 = ta->win16 && s <= 22 && n <= RT_MAX_DIRECTIONS ? nk & ~15 : 0;
    uint32_t span = 0; /* the widest xr[k+15] - xr[k] of a group */
    int64_t amax = 0;
    for (int k = 0; k < k1; k += 16)
        if (xr[k + 15] - xr[k] > span) span = xr[k + 15] - xr[k];
    for (uint32_t i = 0; k1 > 0 && i < n; i++) {
        int64_t a = (int32_t)ta->dv[i];
        if (a < 0) a = -a;
        if (a > amax) amax = a;
        if (a * (int64_t)span > 15 * ((int64_t)1 << s)) k1 = 0;
    }
    /* repeated columns (at most half as many distinct values; consecutive
     * integers, sixteen spanning 15, within the windows' rule) */
    if (k1 >= 64 && span <= 15 && amax <= ((int64_t)1 << s) && /* |A| * 15 <= 15 * 2^s */
        (uint64_t)(xr[k1 - 1] - xr[0]) + 1 <= (uint64_t)k1 / 2)
        px_prof_at_spread(ta, xr, out, k1);
    else if (k1 > 0)
        px_prof_at_cols(ta, xr, out, k1);
    if (k1 == nk) return;
    rt_tile_args rest = *ta;
    rest.nk = nk - k1;
    tile_prof_at_avx2w(&rest, xr + k1, out + k1);
}

/* The classify pass of the point path (as tile_classify_, terrain_tile.h:
 * the same operations on the same values, in its order) straight into the
 * terrain bytes, the feature bytes (RT_NONE) and the candidate bits
 * (ca->cmask, every group of the tile written); returns nonzero when some
 * column is a feature candidate.  Sixteen columns a step; the last ones by
 * tile_classify_avx512 and its codes.  (ca->stream: streaming stores.) */
PX_INLINE int px_classify_out_(const rt_classify_args *ca, const int k1, const int ifeat)
{
    const __m512d lake_h = _mm512_set1_pd(ca->lake_height), lake_b = _mm512_set1_pd(ca->lake_base);
    const __m512d yr = _mm512_set1_pd(ca->yr), r128 = _mm512_set1_pd(RT_RECIP128);
    const __m512d M = _mm512_set1_pd(ca->fmod_m), invM = _mm512_set1_pd(ca->fmod_inv);
    const __m512d fp = _mm512_set1_pd(ca->f_point), fx = _mm512_set1_pd(ca->f_x);
    const __m512d fc = _mm512_set1_pd(ca->f_cone);
    const __m512d half = _mm512_set1_pd(0.5), onepd = _mm512_set1_pd(1.0);
    const __m512i town_lt = _mm512_set1_epi32(ca->town_lt), grass_lt = _mm512_set1_epi32(ca->grass_lt);
    const __m512i open_lt = _mm512_set1_epi32(ca->open_lt);
    const __m512i thicket_lt = _mm512_set1_epi32(ca->thicket_lt);
    const __m512i grass = _mm512_set1_epi32(RT_GRASS), moor = _mm512_set1_epi32(RT_MOOR);
    const __m512i thicket = _mm512_set1_epi32(RT_THICKET), wood = _mm512_set1_epi32(RT_WOOD);
    const __m512i town = _mm512_set1_epi32(RT_TOWN), mud = _mm512_set1_epi32(RT_MUD);
    const __m512i lake = _mm512_set1_epi32(RT_LAKE);
    const __m128i none = _mm_set1_epi8((char)RT_NONE);
    /* ifeat: the feature values in integers (ca->int_feature), as
     * pr_classify_out_avx2_ argues: ((fa*xr*yr + 64) mod 2^32 >> 7) & fmask */
    const __m512i iyr = _mm512_set1_epi32((int)(uint32_t)rt__u64((int64_t)ca->yr));
    const __m512i c64 = _mm512_set1_epi32(64), ifmask = _mm512_set1_epi32((int)ca->fmask);
    const __m512i ifp = _mm512_set1_epi32(ca->fp_i), ifx = _mm512_set1_epi32(ca->fx_i);
    const __m512i ifc = _mm512_set1_epi32(ca->fc_i);
    /* streaming stores of height and depth where asked (outputs far larger
     * than the caches): whole 64-byte lines of each wherever they start
     * (px_lines; NumPy's out= arrays at step 0.37 were 1.08x slower by
     * plain stores than aligned ones by streaming stores); the table's
     * `finish` fences them.  Not the bytes (16 of each a step): as in
     * pr_classify_out_avx2, partial lines streamed between slow steps made
     * fresh grids at step 0.37 13 % slower */
    const int nt = ca->stream && (uintptr_t)ca->height % 8 == 0 && (uintptr_t)ca->depth % 8 == 0;
    px_lines wh = px_lines_init(ca->height), wd = px_lines_init(ca->depth);
    int any = 0;
    for (int k = 0; k < k1; k += 16) {
        __mmask8 wlake[2], wmud[2], wcand[2];
        for (int g = 0; g < 2; g++) { /* the floating-point half, eight columns */
            const int q = k + 8 * g;
            const __m512d h = _mm512_loadu_pd(ca->ht + q);
            wlake[g] = _mm512_cmp_pd_mask(h, lake_h, _CMP_LT_OQ); /* lake_h > h */
            wmud[g] = _mm512_cmp_pd_mask(h, lake_b, _CMP_LT_OQ);
            wcand[g] = 0;
            if (!ifeat) {
                const __m512d fa = _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)(const void *)(ca->fa + q)));
                const __m512d xr = _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)(const void *)(ca->xr + q)));
                const __m512d v = _mm512_mul_pd(_mm512_mul_pd(fa, _mm512_mul_pd(xr, yr)), r128);
                __m512d r = _mm512_roundscale_pd(v, PX_FLOOR);
                r = _mm512_add_pd(r, _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(_mm512_sub_pd(v, r), half, _CMP_GE_OQ), onepd));
                const __m512d f = _mm512_sub_pd(r, _mm512_mul_pd(M, _mm512_roundscale_pd(_mm512_mul_pd(r, invM), PX_FLOOR)));
                wcand[g] = _mm512_cmp_pd_mask(f, fp, _CMP_EQ_OQ) | _mm512_cmp_pd_mask(f, fx, _CMP_EQ_OQ) |
                           _mm512_cmp_pd_mask(f, fc, _CMP_EQ_OQ);
            }
            const __m512d ho = _mm512_mask_mov_pd(h, wlake[g], lake_h);
            const __m512d dout = _mm512_maskz_sub_pd(wlake[g], lake_h, h);
            if (nt) {
                px_lines_put(&wh, q, ho);
                px_lines_put(&wd, q, dout);
            } else {
                _mm512_storeu_pd(ca->height + q, ho);
                _mm512_storeu_pd(ca->depth + q, dout);
            }
        }
        const __mmask16 klake = (__mmask16)(wlake[0] | wlake[1] << 8);
        const __mmask16 kmud = (__mmask16)(wmud[0] | wmud[1] << 8);
        __mmask16 kcand = (__mmask16)(wcand[0] | wcand[1] << 8);
        if (ifeat) {
            const __m512i xy = _mm512_mullo_epi32(_mm512_loadu_si512((const void *)(ca->xr + k)), iyr);
            const __m512i N = _mm512_mullo_epi32(_mm512_loadu_si512((const void *)(ca->fa + k)), xy);
            const __m512i f = _mm512_and_si512(_mm512_srli_epi32(_mm512_add_epi32(N, c64), 7), ifmask);
            kcand = (__mmask16)(_mm512_cmpeq_epi32_mask(f, ifp) | _mm512_cmpeq_epi32_mask(f, ifx) |
                                _mm512_cmpeq_epi32_mask(f, ifc));
        }
        /* the integer half: |a1| when town_abs (the sums are far inside int32) */
        __m512i a1 = _mm512_loadu_si512((const void *)(ca->a1 + k));
        if (ca->town_abs) a1 = _mm512_abs_epi32(a1);
        const __m512i a2 = _mm512_loadu_si512((const void *)(ca->a2 + k));
        const __m512i a3 = _mm512_loadu_si512((const void *)(ca->a3 + k));
        const __mmask16 ktown = _mm512_cmplt_epi32_mask(a1, town_lt);
        const __mmask16 kopen = _mm512_cmplt_epi32_mask(a2, grass_lt);
        const __m512i veg_open = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a3, open_lt), moor, grass);
        const __m512i veg_wood = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a3, thicket_lt), wood, thicket);
        __m512i ter = _mm512_mask_blend_epi32(kopen, veg_wood, veg_open);
        ter = _mm512_mask_mov_epi32(ter, ktown, town);
        ter = _mm512_mask_mov_epi32(ter, kmud, mud);
        ter = _mm512_mask_mov_epi32(ter, klake, lake);
        _mm_storeu_si128((__m128i *)(void *)(ca->terrain + k), _mm512_cvtepi32_epi8(ter));
        _mm_storeu_si128((__m128i *)(void *)(ca->feature + k), none);
        const uint16_t cand = (uint16_t)(kcand & (__mmask16) ~(klake | kmud | ktown));
        ca->cmask[k >> 3] = (uint8_t)cand;
        ca->cmask[(k >> 3) + 1] = (uint8_t)(cand >> 8);
        any |= cand;
    }
    if (nt && k1 > 0) {
        px_lines_end(&wh, k1);
        px_lines_end(&wd, k1);
    }
    return any;
}

/* The classify pass of the point path (px_classify_out_), the feature
 * values in integers where ca->int_feature says they may be. */
static PX_ATTR int tile_classify_out_avx512w(const rt_classify_args *ca)
{
    const int nk = ca->nk, k1 = nk & ~15;
    int any = ca->int_feature ? px_classify_out_(ca, k1, 1) : px_classify_out_(ca, k1, 0);
    if (k1 < nk) any |= pr_classify_out_tail(ca, k1, tile_classify_avx512);
    return any != 0;
}

#undef PX_ATTR
#undef PX_INLINE
#undef PX_FLOOR

#endif
