/*
 * contours_avx512.h - the contour kernel's rows with AVX-512 (F, BW, DQ,
 * VL): eight crossed cells a vector, without a branch per cell or per edge.
 * Included by contours.c after contours_kernel.h was included for this
 * target (CK(name) = name##_avx512, CK_OWN_RUN), whose functions it calls
 * for what the vectors do not take: a cell with an edge crossing two levels
 * or more, rows with bands beyond FAST_BAND, and the cells once the
 * crossings limit is near.
 *
 * Per row of cells:
 *  1. classify: the crossed cells (contours_kernel.h's test, the same
 *     comparisons), eight a vector, their columns compressed into a list;
 *  2. the cells of the list eight at a time (gathers): CK(fast_cell)() in
 *     the lanes, the same IEEE operations in the same order (the division
 *     a true division, the centre's band by floor and the two corrections,
 *     the nearest pixel by the two comparisons, the index test by Lemire's
 *     product in 64-bit lanes); each lane's four pixels (r, c), (r, c+1),
 *     (r+1, c), (r+1, c+1) as the max of the values of its edges' vertices
 *     there, packed in a 32-bit word scattered into a row of words;
 *  3. merge: that row of words into the mask's two pixel rows by byte max
 *     (a pixel is the max of the values set there: `if (*p < v) *p = v`).
 * The pixels are those of the portable kernel: the same vertices, each
 * computed by the same operations, and max is commutative.
 */
#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#define C5_ATTR __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))
#define C5_INLINE static inline __attribute__((always_inline, target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))

/* The crossed cells of a row (points rows z0, z1, bands b0, b1; nx points)
 * into idx (columns, ascending; room for nx + 8); returns their count.  The
 * test of contours_kernel.h's pass, on eight cells a vector: a corner's band
 * differs from (r, c)'s, or the centre vc is not within (r, c)'s band
 * (!(vc >= b*interval) | !(vc < (b+1)*interval), unordered true). */
C5_INLINE int64_t c5_crossed(const double *z0, const double *z1, const double *b0,
                             const double *b1, int64_t nx, double interval, int32_t *idx)
{
    const __m512d iv = _mm512_set1_pd(interval), quarter = _mm512_set1_pd(0.25),
                  one = _mm512_set1_pd(1.0);
    const __m256i step = _mm256_set1_epi32(8);
    __m256i col = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const int64_t cells = nx - 1;
    int64_t n = 0;
    for (int64_t c = 0; c < cells; c += 8, col = _mm256_add_epi32(col, step)) {
        __mmask8 in = cells - c >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (cells - c)) - 1u);
        __m512d z00 = _mm512_maskz_loadu_pd(in, z0 + c), z01 = _mm512_maskz_loadu_pd(in, z0 + c + 1);
        __m512d z10 = _mm512_maskz_loadu_pd(in, z1 + c), z11 = _mm512_maskz_loadu_pd(in, z1 + c + 1);
        __m512d b00 = _mm512_maskz_loadu_pd(in, b0 + c), b01 = _mm512_maskz_loadu_pd(in, b0 + c + 1);
        __m512d b10 = _mm512_maskz_loadu_pd(in, b1 + c), b11 = _mm512_maskz_loadu_pd(in, b1 + c + 1);
        __m512d vc = _mm512_mul_pd(
            _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(z00, z01), z11), z10), quarter);
        __mmask8 m = _mm512_cmp_pd_mask(b01, b00, _CMP_NEQ_UQ) |
                     _mm512_cmp_pd_mask(b11, b00, _CMP_NEQ_UQ) |
                     _mm512_cmp_pd_mask(b10, b00, _CMP_NEQ_UQ) |
                     _mm512_cmp_pd_mask(vc, _mm512_mul_pd(b00, iv), _CMP_NGE_UQ) |
                     _mm512_cmp_pd_mask(vc, _mm512_mul_pd(_mm512_add_pd(b00, one), iv),
                                        _CMP_NLT_UQ);
        m &= in;
        _mm256_storeu_si256((__m256i *)(idx + n), _mm256_maskz_compress_epi32(m, col));
        n += __builtin_popcount(m);
    }
    return n;
}

/* The cells of a batch: eight lanes. */
typedef struct c5_cells {
    __m512d v[5], b[5]; /* corners and centre: heights, bands */
    __m512d fr, fc;     /* the cells' row and columns, as doubles */
    __m512d iv;         /* interval */
    __m512i index_c, index_c1; /* is_index's c and c - 1 */
    __mmask8 use_index;        /* 0xFF when index_every > 0 */
} c5_cells;

/* The edge from corner f to corner t of the lanes `fast` (contours_kernel.h's
 * CK(fast_cell)(), the same operations: 0..3 the corners (0,0), (0,1),
 * (1,1), (1,0) with offsets (ra, ca), (rb, cb), 4 the centre (0.5, 0.5)):
 * the value of its vertex, if a level crosses it, put into *w by byte max
 * at the byte of the vertex's pixel (0 (r,c), 1 (r,c+1), 2 (r+1,c),
 * 3 (r+1,c+1)); *count +1 in those lanes. */
C5_INLINE void c5_edge(const c5_cells *s, int f, int t, double ra, double ca, double rb, double cb,
                       __mmask8 fast, __m256i *w, __m256i *count)
{
    const __m512d half = _mm512_set1_pd(0.5), unit = _mm512_set1_pd(1.0);
    const __m256i one = _mm256_set1_epi32(1);
    __m512d va = s->v[f], vb = s->v[t], ba = s->b[f], bb = s->b[t];
    const __mmask8 m = fast & _mm512_cmp_pd_mask(_mm512_sub_pd(bb, ba), _mm512_setzero_pd(),
                                                 _CMP_NEQ_UQ);
    /* (ba < bb ? ba : bb) + 1.0: minpd returns its second operand unless a < b */
    __m512d lv = _mm512_add_pd(_mm512_min_pd(ba, bb), unit);
    __m512d num = _mm512_sub_pd(_mm512_mul_pd(lv, s->iv), va);
    __m512d tt = _mm512_maskz_div_pd(m, num, _mm512_sub_pd(vb, va));
    __m512d row = _mm512_add_pd(
        s->fr, _mm512_add_pd(_mm512_set1_pd(ra), _mm512_mul_pd(tt, _mm512_set1_pd(rb - ra))));
    __m512d col = _mm512_add_pd(
        s->fc, _mm512_add_pd(_mm512_set1_pd(ca), _mm512_mul_pd(tt, _mm512_set1_pd(cb - ca))));
    __mmask8 down = _mm512_cmp_pd_mask(_mm512_add_pd(row, half), _mm512_add_pd(s->fr, unit),
                                       _CMP_GE_OQ);
    __mmask8 right = _mm512_cmp_pd_mask(_mm512_add_pd(col, half), _mm512_add_pd(s->fc, unit),
                                        _CMP_GE_OQ);
    /* (uint64_t)(uint32_t)fabs(lv) * c <= c - 1 (|lv| < 2^32: FAST_BAND) */
    __m512i k = _mm512_cvttpd_epu64(_mm512_abs_pd(lv));
    __mmask8 idx = s->use_index &
                   _mm512_cmple_epu64_mask(_mm512_mullo_epi64(k, s->index_c), s->index_c1);
    /* the value (1, 2 for an index contour, 0 no vertex) shifted to its byte */
    __m256i value = _mm256_mask_add_epi32(_mm256_maskz_mov_epi32(m, one), idx & m,
                                          _mm256_maskz_mov_epi32(m, one), one);
    __m256i shift = _mm256_mask_add_epi32(_mm256_maskz_mov_epi32(down, _mm256_set1_epi32(16)),
                                          right, _mm256_maskz_mov_epi32(down, _mm256_set1_epi32(16)),
                                          _mm256_set1_epi32(8));
    *w = _mm256_max_epu8(*w, _mm256_sllv_epi32(value, shift));
    *count = _mm256_mask_add_epi32(*count, m, *count, one);
}

/* The pixels of a row of cells' crossed cells idx[0 .. n) into words (per
 * column c: byte q the value of slot q, see c5_edge; zero where nothing),
 * those taking the vector path; the others (an edge crossing two levels or
 * more; the cells from where the limit is near) by CK(cell)() into the
 * mask.  Returns the total crossings, or more than the limit (stopped). */
C5_INLINE int64_t c5_row(const job *j, const target *tg, int64_t r, const double *z0,
                         const double *z1, const double *b0, const double *b1,
                         const int32_t *idx, int64_t n, uint32_t *words, double inverse,
                         int64_t total)
{
    const double interval = j->interval;
    c5_cells s;
    s.iv = _mm512_set1_pd(interval);
    s.fr = _mm512_set1_pd((double)r);
    s.index_c = _mm512_set1_epi64((long long)j->index_c);
    s.index_c1 = _mm512_set1_epi64((long long)(j->index_c - 1));
    s.use_index = j->index_every ? (__mmask8)0xFF : (__mmask8)0;
    const __m512d iv = s.iv, inv = _mm512_set1_pd(inverse), unit = _mm512_set1_pd(1.0),
                  quarter = _mm512_set1_pd(0.25);
    for (int64_t i = 0; i < n; i += 8) {
        /* the limit near: the rest cell by cell (each batch adds <= 64) */
        if (!(j->max_crossings >= 64 && total <= j->max_crossings - 64)) {
            for (; i < n; i++) {
                total = CK(cell)(j, tg, r, idx[i], z0, z1, b0, b1, 1, inverse, total);
                if (total > j->max_crossings) return total;
            }
            return total;
        }
        __mmask8 in = n - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (n - i)) - 1u);
        __m256i ci = _mm256_maskz_loadu_epi32(in, idx + i);
        const __m512d zero = _mm512_setzero_pd();
        s.v[0] = _mm512_mask_i32gather_pd(zero, in, ci, z0, 8);
        s.v[1] = _mm512_mask_i32gather_pd(zero, in, ci, z0 + 1, 8);
        s.v[2] = _mm512_mask_i32gather_pd(zero, in, ci, z1 + 1, 8);
        s.v[3] = _mm512_mask_i32gather_pd(zero, in, ci, z1, 8);
        s.b[0] = _mm512_mask_i32gather_pd(zero, in, ci, b0, 8);
        s.b[1] = _mm512_mask_i32gather_pd(zero, in, ci, b0 + 1, 8);
        s.b[2] = _mm512_mask_i32gather_pd(zero, in, ci, b1 + 1, 8);
        s.b[3] = _mm512_mask_i32gather_pd(zero, in, ci, b1, 8);
        __m512d vc = _mm512_mul_pd(
            _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(s.v[0], s.v[1]), s.v[2]), s.v[3]), quarter);
        /* CK(band_near)(): floor(q) (its int32 truncation and correction
         * give floor(q) too), then the two corrections */
        __m512d q = _mm512_mul_pd(vc, inv);
        __m512d f = _mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        f = _mm512_mask_add_pd(f, _mm512_cmp_pd_mask(vc, _mm512_mul_pd(_mm512_add_pd(f, unit), iv),
                                                     _CMP_GE_OQ),
                               f, unit);
        f = _mm512_mask_sub_pd(f, _mm512_cmp_pd_mask(vc, _mm512_mul_pd(f, iv), _CMP_LT_OQ), f,
                               unit);
        s.v[4] = vc;
        s.b[4] = f;
        s.fc = _mm512_cvtepi32_pd(ci);
        /* the cells with an edge crossing two levels or more */
        static const int from[8] = {0, 0, 1, 1, 2, 2, 3, 3}, to[8] = {1, 4, 2, 4, 3, 4, 0, 4};
        __mmask8 many = 0;
        const __m512d pone = _mm512_set1_pd(1.0), mone = _mm512_set1_pd(-1.0);
        for (int e = 0; e < 8; e++) {
            __m512d d = _mm512_sub_pd(s.b[to[e]], s.b[from[e]]);
            many |= _mm512_cmp_pd_mask(d, pone, _CMP_GT_OQ) | _mm512_cmp_pd_mask(d, mone, _CMP_LT_OQ);
        }
        const __mmask8 fast = in & (__mmask8)~many;
        /* the four pixel values of each lane, a byte each, in its word; each
         * edge with its corners' offsets as constants */
        __m256i w = _mm256_setzero_si256(), count = _mm256_setzero_si256();
        c5_edge(&s, 0, 1, 0.0, 0.0, 0.0, 1.0, fast, &w, &count);
        c5_edge(&s, 0, 4, 0.0, 0.0, 0.5, 0.5, fast, &w, &count);
        c5_edge(&s, 1, 2, 0.0, 1.0, 1.0, 1.0, fast, &w, &count);
        c5_edge(&s, 1, 4, 0.0, 1.0, 0.5, 0.5, fast, &w, &count);
        c5_edge(&s, 2, 3, 1.0, 1.0, 1.0, 0.0, fast, &w, &count);
        c5_edge(&s, 2, 4, 1.0, 1.0, 0.5, 0.5, fast, &w, &count);
        c5_edge(&s, 3, 0, 1.0, 0.0, 0.0, 0.0, fast, &w, &count);
        c5_edge(&s, 3, 4, 1.0, 0.0, 0.5, 0.5, fast, &w, &count);
        _mm256_mask_i32scatter_epi32(words, fast, ci, w, 4);
        if (fast == in) {
            /* no lane left: add the batch's crossings */
            __m128i c4 = _mm_add_epi32(_mm256_castsi256_si128(count),
                                       _mm256_extracti128_si256(count, 1));
            c4 = _mm_add_epi32(c4, _mm_shuffle_epi32(c4, 0x4E));
            c4 = _mm_add_epi32(c4, _mm_shuffle_epi32(c4, 0xB1));
            total += _mm_cvtsi128_si32(c4);
            continue;
        }
        /* the others by CK(cell)(), in the order of the cells (the total at
         * a stop counts the cells before, as the portable kernel's) */
        int32_t counts[8];
        _mm256_storeu_si256((__m256i *)counts, count);
        for (int l = 0; l < 8 && i + l < n; l++) {
            /* a lane of the vectors counts as CK(fast_cell)(), which
             * CK(cell)() takes while the limit is 8 away; nearer, CK(cell)()
             * again (its vertices, already set, and its count up to a stop) */
            if (fast >> l & 1 && total <= j->max_crossings - 8) {
                total += counts[l];
            } else {
                total = CK(cell)(j, tg, r, idx[i + l], z0, z1, b0, b1, 1, inverse, total);
                if (total > j->max_crossings) return total;
            }
        }
    }
    return total;
}

/* words (a row of cells, nx - 1 of them, then a zero; words[-1] zero) into
 * the two pixel rows top (r) and bottom (r + 1) by byte max, zeroing them. */
C5_INLINE void c5_merge(uint32_t *words, int64_t nx, uint8_t *top, uint8_t *bottom)
{
    for (int64_t c = 0; c < nx; c += 16) {
        __mmask16 in = nx - c >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (nx - c)) - 1u);
        __m512i w = _mm512_maskz_loadu_epi32(in, words + c);
        __m512i wl = _mm512_maskz_loadu_epi32(in, words + c - 1); /* the cell on the left */
        __m128i t = _mm_max_epu8(_mm512_cvtepi32_epi8(w), _mm512_cvtepi32_epi8(_mm512_srli_epi32(wl, 8)));
        __m128i b = _mm_max_epu8(_mm512_cvtepi32_epi8(_mm512_srli_epi32(w, 16)),
                                 _mm512_cvtepi32_epi8(_mm512_srli_epi32(wl, 24)));
        _mm_mask_storeu_epi8(top + c, in, _mm_max_epu8(_mm_maskz_loadu_epi8(in, top + c), t));
        _mm_mask_storeu_epi8(bottom + c, in,
                             _mm_max_epu8(_mm_maskz_loadu_epi8(in, bottom + c), b));
    }
    memset(words, 0, (size_t)nx * sizeof *words);
}

static C5_ATTR void run_bands_avx512(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const int64_t nx = j->nx;
    const double interval = j->interval, inverse = 1.0 / interval;
    /* the bands of two rows of points; the crossed cells' columns; the words
     * of a row of cells (one zero before, one after) */
    double *rowb = malloc((size_t)(2 * nx) * sizeof *rowb);
    int32_t *idx = malloc((size_t)(nx + 8) * sizeof *idx);
    uint32_t *wordbuf = calloc((size_t)nx + 1, sizeof *wordbuf);
    if (!rowb || !idx || !wordbuf) {
        free(rowb);
        free(idx);
        free(wordbuf);
        *j->nomem = 1;
        return;
    }
    uint32_t *words = wordbuf + 1;
    for (int64_t bi = begin; bi < end; bi++) {
        int64_t r0 = band_start(j, bi), r1 = band_start(j, bi + 1);
        target tg = {j->mask, bi > 0 ? j->firsts + (bi - 1) * nx : NULL, nx, j->ny, r0};
        int64_t total = 0, pending = 0;
        double *b0 = rowb, *b1 = rowb + nx;
        const double *z = j->z;
        int near0 = CK(band_row)(z + r0 * nx, b0, nx, interval, inverse), near1;
        for (int64_t r = r0; r < r1; r++) {
            if (rt__watch_charge(j->w, &pending, 16 * nx)) break;
            const double *z0 = z + r * nx, *z1 = z0 + nx;
            near1 = CK(band_row)(z1, b1, nx, interval, inverse);
            int64_t n = c5_crossed(z0, z1, b0, b1, nx, interval, idx);
            if (near0 && near1) {
                /* (stopped on the limit too: the words are merged, so zero) */
                total = c5_row(j, &tg, r, z0, z1, b0, b1, idx, n, words, inverse, total);
                uint8_t *top = tg.first && r == tg.first_row ? tg.first : j->mask + r * nx;
                c5_merge(words, nx, top, j->mask + (r + 1) * nx);
            } else {
                for (int64_t i = 0; i < n && total <= j->max_crossings; i++)
                    total = CK(cell)(j, &tg, r, idx[i], z0, z1, b0, b1, 0, inverse, total);
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
    free(idx);
    free(wordbuf);
}

#endif
