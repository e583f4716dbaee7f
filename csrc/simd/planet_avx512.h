/*
 * planet_avx512.h - the rows of a planet map, eight columns a step, the
 * whole of terra in vector registers: AVX-512 F, BW, DQ, VL.  Included by
 * planet.c (which defines planet_job and feature_of_a) inside its x86-64
 * section.
 *
 * Every value is computed by the operations of map_point, terra_xyz_pre,
 * sum3, prof3 and round_js in their order, on IEEE doubles (no fused
 * multiply-add: -ffp-contract=off), so each lane holds the bits the scalar
 * rows hold; the profile is read by gathers at the indices the scalar code
 * uses (every floor converts to int32 exactly: map_kernel).  The
 * classification (lake, mud, town, grass, moor, thicket, wood) is a blend
 * of compares on the same sums.  The feature test computes
 * f = low32(round_js(a*uw/128)) & feature_mask in the vector only where
 * |a*uw/128| < 2^52 (then floor(t) and its int64 conversion are exact);
 * the rare lanes where f is 4, 8 or 16, or where |a*uw/128| is larger, get
 * the scalar feature_of_a with the very a, xr, yr, zr.  Lanes outside the
 * disc are stored as map_point stores them.  A planet with a placed table
 * is not served here (map_rows uses the AVX2 sums, map_chunk_avx2).
 *
 * A template, included twice by planet.c: PA_NAME(f) names the functions,
 * PA_TARGET is their target, PA_BYTES 1 reads the profile from four
 * registers of bytes (AVX-512 VBMI, a profile of integers 0..255 whose
 * length divides 256, repeated to 256 bytes) instead of gathers.  A byte
 * lookup is two vpermt2b and a blend on the index's bit 7, 64 indices at
 * once: the indices of four directions sit in the four bytes of a dword
 * (and p0's and p1's of four directions of the height in the two halves).
 * The values are the profile's integers, so p0, p1 and p1 - p0 are the
 * doubles the seed reads and subtracts, and a calcProf sum, every partial
 * sum an integer below 2^53, is the integer sum of the bytes, in any order.
 */

#define PA_ATTR __attribute__((target(PA_TARGET)))
#define PA_INLINE static inline __attribute__((always_inline, target(PA_TARGET)))

#if PA_BYTES
/* P[idx] at the 64 byte indices of idx (the profile's 256 bytes in T[0..3]) */
PA_INLINE __m512i PA_NAME(pa_lookup)(const __m512i *T, __m512i idx)
{
    const __m512i lo = _mm512_permutex2var_epi8(T[0], idx, T[1]);
    const __m512i hi = _mm512_permutex2var_epi8(T[2], idx, T[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), lo, hi);
}

/* the low bytes of m (1..4) dword vectors as bytes 0..m-1 of each dword */
PA_INLINE __m256i PA_NAME(pa_pack4)(const __m256i *d, int m)
{
    __m256i w = d[0];
    if (m > 1) w = _mm256_mask_blend_epi8(0x22222222u, w, _mm256_slli_epi32(d[1], 8));
    if (m > 2) w = _mm256_mask_blend_epi8(0x44444444u, w, _mm256_slli_epi32(d[2], 16));
    if (m > 3) w = _mm256_mask_blend_epi8(0x88888888u, w, _mm256_slli_epi32(d[3], 24));
    return w;
}

/* the bytes 0..m-1 of a dword (m 0..4) */
static inline int32_t PA_NAME(pa_bytes)(int m)
{
    return m >= 4 ? -1 : (int32_t)((1u << (8 * m)) - 1u);
}

/* calcHeight with three vectors at eight points, the profile in bytes */
PA_INLINE __m512d PA_NAME(pa_sum3)(const double *P, __m256i vmask, const __m512i *T, const double *A,
                                   const double *B, const double *C, uint32_t n, __m512d x,
                                   __m512d y, __m512d z)
{
    (void)P, (void)vmask;
    const __m512d r128 = _mm512_set1_pd(RT_RECIP128);
    const __m256i one = _mm256_set1_epi32(1), ff = _mm256_set1_epi32(0xff);
    __m512d acc = _mm512_setzero_pd();
    for (uint32_t i0 = 0; i0 < n; i0 += 4) {
        const int m = n - i0 < 4 ? (int)(n - i0) : 4;
        __m256i d0[4], d1[4];
        __m512d jfrac[4];
        for (int k = 0; k < m; k++) {
            const uint32_t i = i0 + (uint32_t)k;
            const __m512d v = _mm512_add_pd(
                _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(A[i]), x), _mm512_mul_pd(_mm512_set1_pd(B[i]), y)),
                _mm512_mul_pd(_mm512_set1_pd(C[i]), z));
            const __m512d jv = _mm512_mul_pd(v, r128);
            const __m512d q = _mm512_roundscale_pd(jv, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            jfrac[k] = _mm512_sub_pd(jv, q);
            d0[k] = _mm512_cvttpd_epi32(q);
            d1[k] = _mm256_add_epi32(d0[k], one);
        }
        /* p0's indices in the low half, p1's in the high half */
        const __m512i R = PA_NAME(pa_lookup)(
            T, _mm512_inserti64x4(_mm512_castsi256_si512(PA_NAME(pa_pack4)(d0, m)), PA_NAME(pa_pack4)(d1, m), 1));
        const __m256i r0 = _mm512_castsi512_si256(R), r1 = _mm512_extracti64x4_epi64(R, 1);
        for (int k = 0; k < m; k++) {
            const __m512d p0 = _mm512_cvtepi32_pd(_mm256_and_si256(_mm256_srli_epi32(r0, 8 * k), ff));
            const __m512d p1 = _mm512_cvtepi32_pd(_mm256_and_si256(_mm256_srli_epi32(r1, 8 * k), ff));
            acc = _mm512_add_pd(acc, _mm512_add_pd(p0, _mm512_mul_pd(jfrac[k], _mm512_sub_pd(p1, p0))));
        }
    }
    return acc;
}

/* calcProf with three vectors at eight points, the profile in bytes */
PA_INLINE __m512d PA_NAME(pa_prof3)(const double *P, __m256i vmask, const __m512i *T, const double *A,
                                    const double *B, const double *C, uint32_t n, __m512d x,
                                    __m512d y, __m512d z)
{
    (void)P, (void)vmask;
    const __m512d r128 = _mm512_set1_pd(RT_RECIP128);
    __m256i sum = _mm256_setzero_si256();
    for (uint32_t i0 = 0; i0 < n; i0 += 8) {
        const int m = n - i0 < 8 ? (int)(n - i0) : 8;
        __m256i d[8];
        for (int k = 0; k < m; k++) {
            const uint32_t i = i0 + (uint32_t)k;
            const __m512d v = _mm512_add_pd(
                _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(A[i]), x), _mm512_mul_pd(_mm512_set1_pd(B[i]), y)),
                _mm512_mul_pd(_mm512_set1_pd(C[i]), z));
            const __m512d fv = _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            const __m512d q = _mm512_roundscale_pd(_mm512_mul_pd(fv, r128), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            d[k] = _mm512_cvttpd_epi32(q);
        }
        const __m256i lo = PA_NAME(pa_pack4)(d, m < 4 ? m : 4);
        const __m256i hi = m > 4 ? PA_NAME(pa_pack4)(d + 4, m - 4) : _mm256_setzero_si256();
        /* the values of the m directions, the other bytes 0 */
        const __m512i keep = _mm512_inserti64x4(_mm512_set1_epi32(PA_NAME(pa_bytes)(m < 4 ? m : 4)),
                                                _mm256_set1_epi32(PA_NAME(pa_bytes)(m > 4 ? m - 4 : 0)), 1);
        const __m512i R = _mm512_and_si512(
            PA_NAME(pa_lookup)(T, _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1)), keep);
        /* the four bytes of each dword summed (unsigned bytes times 1, pairs, then dwords) */
        const __m512i s = _mm512_madd_epi16(_mm512_maddubs_epi16(R, _mm512_set1_epi8(1)), _mm512_set1_epi16(1));
        sum = _mm256_add_epi32(sum, _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1)));
    }
    return _mm512_cvtepi32_pd(sum);
}
#else

/* calcHeight with three vectors at eight points (sum3) */
PA_INLINE __m512d PA_NAME(pa_sum3)(const double *P, __m256i vmask, const __m512i *T, const double *A,
                                   const double *B, const double *C, uint32_t n, __m512d x,
                                   __m512d y, __m512d z)
{
    (void)T;
    const __m512d r128 = _mm512_set1_pd(RT_RECIP128);
    const __m256i one = _mm256_set1_epi32(1);
    __m512d acc = _mm512_setzero_pd();
    for (uint32_t i = 0; i < n; i++) {
        const __m512d v = _mm512_add_pd(
            _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(A[i]), x), _mm512_mul_pd(_mm512_set1_pd(B[i]), y)),
            _mm512_mul_pd(_mm512_set1_pd(C[i]), z));
        const __m512d jv = _mm512_mul_pd(v, r128);
        const __m512d q = _mm512_roundscale_pd(jv, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512d jfrac = _mm512_sub_pd(jv, q);
        const __m256i qi = _mm512_cvttpd_epi32(q);
        const __m512d p0 = _mm512_i32gather_pd(_mm256_and_si256(qi, vmask), P, 8);
        const __m512d p1 = _mm512_i32gather_pd(_mm256_and_si256(_mm256_add_epi32(qi, one), vmask), P, 8);
        acc = _mm512_add_pd(acc, _mm512_add_pd(p0, _mm512_mul_pd(jfrac, _mm512_sub_pd(p1, p0))));
    }
    return acc;
}

/* calcProf with three vectors at eight points (prof3): floor(floor(v) / 128) */
PA_INLINE __m512d PA_NAME(pa_prof3)(const double *P, __m256i vmask, const __m512i *T, const double *A,
                                    const double *B, const double *C, uint32_t n, __m512d x,
                                    __m512d y, __m512d z)
{
    (void)T;
    const __m512d r128 = _mm512_set1_pd(RT_RECIP128);
    __m512d acc = _mm512_setzero_pd();
    for (uint32_t i = 0; i < n; i++) {
        const __m512d v = _mm512_add_pd(
            _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(A[i]), x), _mm512_mul_pd(_mm512_set1_pd(B[i]), y)),
            _mm512_mul_pd(_mm512_set1_pd(C[i]), z));
        const __m512d fv = _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512d q = _mm512_roundscale_pd(_mm512_mul_pd(fv, r128), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m256i qi = _mm512_cvttpd_epi32(q);
        acc = _mm512_add_pd(acc, _mm512_i32gather_pd(_mm256_and_si256(qi, vmask), P, 8));
    }
    return acc;
}

#endif

/* round_js: floor, plus one where the fraction is >= 0.5 */
PA_INLINE __m512d PA_NAME(pa_round_js)(__m512d v)
{
    const __m512d f = _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __mmask8 up = _mm512_cmp_pd_mask(_mm512_sub_pd(v, f), _mm512_set1_pd(0.5), _CMP_GE_OQ);
    return _mm512_mask_add_pd(f, up, f, _mm512_set1_pd(1.0));
}

/* Columns c0 .. c1 (c1 - c0 a multiple of 8) of row r, w its northward
 * offset, n directions. */
PA_INLINE void PA_NAME(pa_row_n)(const planet_job *j, const __m512i *T, int64_t r, double w,
                                 int64_t c0, int64_t c1, uint32_t n)
{
    const rt_planet *p = j->p;
    const rt_terra_out *o = j->out;
    const double *P = p->profile;
    const double(*V)[RT_MAX_DIRECTIONS] = p->vec;
    const __m256i vmask = _mm256_set1_epi32((int)(p->profile_len - 1));
    const double hc = 0.5 * (double)(j->cols - 1);
    const __m512d vR2 = _mm512_set1_pd(p->radius * p->radius), vstep = _mm512_set1_pd(j->step);
    const __m512d vhc = _mm512_set1_pd(hc), zero = _mm512_setzero_pd();
    /* w*w, w*nx, w*ny, w*nz: the same products at every column of the row */
    const __m512d ww = _mm512_set1_pd(w * w);
    const __m512d wnx = _mm512_set1_pd(w * j->nx), wny = _mm512_set1_pd(w * j->ny);
    const __m512d wnz = _mm512_set1_pd(w * j->nz);
    const __m512d ex = _mm512_set1_pd(j->ex), ey = _mm512_set1_pd(j->ey);
    const __m512d cx = _mm512_set1_pd(j->cx), cy = _mm512_set1_pd(j->cy), cz = _mm512_set1_pd(j->cz);
    const __m512d lake_h = _mm512_set1_pd(p->lake_height), lake_b = _mm512_set1_pd(p->lake_base);
    const __m512d nan = _mm512_set1_pd(NAN);
    const __m512i fmask = _mm512_set1_epi64((long long)p->feature_mask);
    const __m512d two52 = _mm512_set1_pd(4503599627370496.0);
    const __m256i t_out = _mm256_set1_epi32(RT_MAP_OUTSIDE);
    __m512d ci = _mm512_add_pd(_mm512_set1_pd((double)c0),
                               _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0));
    for (int64_t c = c0; c < c1; c += 8, ci = _mm512_add_pd(ci, _mm512_set1_pd(8.0))) {
        const int64_t k = r * j->cols + c;
        const __m512d u = _mm512_mul_pd(_mm512_sub_pd(ci, vhc), vstep);
        const __m512d rr = _mm512_sub_pd(_mm512_sub_pd(vR2, _mm512_mul_pd(u, u)), ww);
        const __mmask8 in = _mm512_cmp_pd_mask(rr, zero, _CMP_GE_OQ);
        __m512d height = nan, depth = nan;
        __m256i terrain = t_out, feature = _mm256_setzero_si256();
        __mmask8 slow = 0; /* lanes whose feature feature_of_a decides */
        __m512d a_f = zero, rd[3] = {zero, zero, zero};
        if (in) {
            /* outside the disc: any d (nothing of it is stored) */
            const __m512d d = _mm512_sqrt_pd(_mm512_max_pd(zero, rr));
            const __m512d x = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(u, ex), wnx), _mm512_mul_pd(d, cx));
            const __m512d y = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(u, ey), wny), _mm512_mul_pd(d, cy));
            const __m512d z = _mm512_add_pd(wnz, _mm512_mul_pd(d, cz));
            const __m512d ht = PA_NAME(pa_sum3)(P, vmask, T, V[RT_PLANET_AH], V[RT_PLANET_BH], V[RT_PLANET_CH], n, x, y, z);
            const __mmask8 lake = in & _mm512_cmp_pd_mask(lake_h, ht, _CMP_GT_OQ);
            const __mmask8 mud = in & ~lake & _mm512_cmp_pd_mask(lake_b, ht, _CMP_GT_OQ);
            const __mmask8 land = in & ~lake & ~mud;
            height = _mm512_mask_blend_pd(in, nan, _mm512_mask_blend_pd(lake, ht, lake_h));
            depth = _mm512_mask_blend_pd(in, nan, _mm512_maskz_sub_pd(lake, lake_h, ht));
            terrain = _mm256_mask_blend_epi32(lake, terrain, _mm256_set1_epi32(RT_LAKE));
            terrain = _mm256_mask_blend_epi32(mud, terrain, _mm256_set1_epi32(RT_MUD));
            if (land) {
                const __m512d a1 = PA_NAME(pa_prof3)(P, vmask, T, V[RT_PLANET_A1], V[RT_PLANET_B1], V[RT_PLANET_C1], n, x, y, z);
                const __mmask8 town = land & _mm512_cmp_pd_mask(a1, _mm512_set1_pd(120.0), _CMP_LT_OQ);
                const __mmask8 open = land & ~town;
                terrain = _mm256_mask_blend_epi32(town, terrain, _mm256_set1_epi32(RT_TOWN));
                if (open) {
                    const __m512d a = PA_NAME(pa_prof3)(P, vmask, T, V[RT_PLANET_A2], V[RT_PLANET_B2], V[RT_PLANET_C2], n, x, y, z);
                    const __m512d b = PA_NAME(pa_prof3)(P, vmask, T, V[RT_PLANET_A3], V[RT_PLANET_B3], V[RT_PLANET_C3], n, x, y, z);
                    const __mmask8 a_lo = _mm512_cmp_pd_mask(a, _mm512_set1_pd(255.0), _CMP_LT_OQ);
                    const __mmask8 b_lo = _mm512_cmp_pd_mask(b, _mm512_set1_pd(255.0), _CMP_LT_OQ);
                    const __mmask8 b_lo2 = _mm512_cmp_pd_mask(b, _mm512_set1_pd(200.0), _CMP_LT_OQ);
                    __m256i kind = _mm256_set1_epi32(RT_WOOD);
                    kind = _mm256_mask_blend_epi32(~a_lo & b_lo2, kind, _mm256_set1_epi32(RT_THICKET));
                    kind = _mm256_mask_blend_epi32(a_lo, kind, _mm256_set1_epi32(RT_MOOR));
                    kind = _mm256_mask_blend_epi32(a_lo & b_lo, kind, _mm256_set1_epi32(RT_GRASS));
                    terrain = _mm256_mask_blend_epi32(open, terrain, kind);
                    /* the feature at the rounded point */
                    rd[0] = PA_NAME(pa_round_js)(x);
                    rd[1] = PA_NAME(pa_round_js)(y);
                    rd[2] = PA_NAME(pa_round_js)(z);
                    a_f = PA_NAME(pa_prof3)(P, vmask, T, V[RT_PLANET_B2], V[RT_PLANET_A3], V[RT_PLANET_C3], n, rd[0],
                                   rd[1], rd[2]);
                    /* the axis of the largest |coordinate| (ties to the later) */
                    const __m512d ax = _mm512_abs_pd(rd[0]), ay = _mm512_abs_pd(rd[1]);
                    const __m512d az = _mm512_abs_pd(rd[2]);
                    const __mmask8 big1 = _mm512_cmp_pd_mask(ay, ax, _CMP_GE_OQ);
                    const __mmask8 big2 =
                        _mm512_cmp_pd_mask(az, _mm512_mask_blend_pd(big1, ax, ay), _CMP_GE_OQ);
                    const __m512d uu = _mm512_mask_blend_pd(~big1 & ~big2, rd[0], rd[1]);
                    const __m512d vv = _mm512_mask_blend_pd(big2, rd[2], rd[1]);
                    const __m512d t =
                        _mm512_mul_pd(_mm512_mul_pd(a_f, _mm512_mul_pd(uu, vv)), _mm512_set1_pd(RT_RECIP128));
                    const __mmask8 big = _mm512_cmp_pd_mask(_mm512_abs_pd(t), two52, _CMP_NLT_UQ);
                    const __m512i f =
                        _mm512_and_si512(_mm512_cvttpd_epi64(PA_NAME(pa_round_js)(_mm512_maskz_mov_pd(~big, t))), fmask);
                    const __mmask8 hit = _mm512_cmpeq_epi64_mask(f, _mm512_set1_epi64(4)) |
                                         _mm512_cmpeq_epi64_mask(f, _mm512_set1_epi64(8)) |
                                         _mm512_cmpeq_epi64_mask(f, _mm512_set1_epi64(16));
                    slow = open & (big | hit);
                }
            }
        }
        if (o->height) _mm512_storeu_pd(o->height + k, height);
        if (o->depth) _mm512_storeu_pd(o->depth + k, depth);
        if (o->terrain) _mm_storel_epi64((__m128i *)(void *)(o->terrain + k), _mm256_cvtepi32_epi8(terrain));
        if (o->feature) {
            _mm_storel_epi64((__m128i *)(void *)(o->feature + k), _mm256_cvtepi32_epi8(feature));
            if (slow) {
                double av[8], xr[8], yr[8], zr[8];
                _mm512_storeu_pd(av, a_f);
                _mm512_storeu_pd(xr, rd[0]);
                _mm512_storeu_pd(yr, rd[1]);
                _mm512_storeu_pd(zr, rd[2]);
                for (int q = 0; q < 8; q++)
                    if (slow >> q & 1) o->feature[k + q] = feature_of_a(p, xr[q], yr[q], zr[q], &av[q]);
            }
        }
        if (j->visible)
            _mm_storel_epi64((__m128i *)(void *)(j->visible + k),
                             _mm_maskz_set1_epi8((__mmask16)in, 1));
    }
}

static PA_ATTR void PA_NAME(map_cols)(const planet_job *j, int64_t r, double w, int64_t c0, int64_t c1)
{
    __m512i T[4];
#if PA_BYTES
    for (int q = 0; q < 4; q++) T[q] = _mm512_loadu_si512((const void *)(j->bytes + 64 * q));
#else
    for (int q = 0; q < 4; q++) T[q] = _mm512_setzero_si512();
#endif
    if (j->p->directions == 5)
        PA_NAME(pa_row_n)(j, T, r, w, c0, c1, 5);
    else
        PA_NAME(pa_row_n)(j, T, r, w, c0, c1, j->p->directions);
}

#undef PA_ATTR
#undef PA_INLINE
