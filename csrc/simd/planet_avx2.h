/*
 * planet_avx2.h - the rows of a planet map, four columns a step, the whole
 * of terra in vector registers: AVX2.  Included by planet.c (which defines
 * planet_job and feature_of_a) inside its x86-64 section; the AVX-512 rows
 * (planet_avx512.h) do the same eight columns a step, and what is argued
 * there holds here: the operations of map_point, terra_xyz_pre, sum3,
 * prof3 and round_js in their order, gathers at the scalar code's indices,
 * the classification as a blend of compares on the same sums, and
 * f = low32(round_js(a*uw/128)) & feature_mask in the vector where
 * |a*uw/128| < 2^51 (round_js(t) + 1.5*2^52 is then exact, and its low 32
 * bits are round_js(t) modulo 2^32), feature_of_a for the lanes where f is
 * 4, 8 or 16 or |a*uw/128| is larger.  Not with a placed table.
 */

#define PV_ATTR __attribute__((target("avx2")))
#define PV_INLINE static inline __attribute__((always_inline, target("avx2")))

/* A, B, C: each component broadcast to four lanes (pv_row_n's table) */
PV_INLINE __m256d pv_sum3(const double *P, __m128i vmask, const __m256d *A, const __m256d *B,
                          const __m256d *C, uint32_t n, __m256d x, __m256d y, __m256d z)
{
    const __m256d r128 = _mm256_set1_pd(RT_RECIP128);
    const __m128i one = _mm_set1_epi32(1);
    __m256d acc = _mm256_setzero_pd();
    for (uint32_t i = 0; i < n; i++) {
        const __m256d v = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(A[i], x), _mm256_mul_pd(B[i], y)), _mm256_mul_pd(C[i], z));
        const __m256d jv = _mm256_mul_pd(v, r128);
        const __m256d q = _mm256_floor_pd(jv);
        const __m256d jfrac = _mm256_sub_pd(jv, q);
        const __m128i qi = _mm256_cvttpd_epi32(q);
        const __m256d p0 = _mm256_i32gather_pd(P, _mm_and_si128(qi, vmask), 8);
        const __m256d p1 = _mm256_i32gather_pd(P, _mm_and_si128(_mm_add_epi32(qi, one), vmask), 8);
        acc = _mm256_add_pd(acc, _mm256_add_pd(p0, _mm256_mul_pd(jfrac, _mm256_sub_pd(p1, p0))));
    }
    return acc;
}

PV_INLINE __m256d pv_prof3(const double *P, __m128i vmask, const __m256d *A, const __m256d *B,
                           const __m256d *C, uint32_t n, __m256d x, __m256d y, __m256d z)
{
    const __m256d r128 = _mm256_set1_pd(RT_RECIP128);
    __m256d acc = _mm256_setzero_pd();
    for (uint32_t i = 0; i < n; i++) {
        const __m256d v = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(A[i], x), _mm256_mul_pd(B[i], y)), _mm256_mul_pd(C[i], z));
        const __m256d q = _mm256_floor_pd(_mm256_mul_pd(_mm256_floor_pd(v), r128));
        acc = _mm256_add_pd(acc, _mm256_i32gather_pd(P, _mm_and_si128(_mm256_cvttpd_epi32(q), vmask), 8));
    }
    return acc;
}

PV_INLINE __m256d pv_round_js(__m256d v)
{
    const __m256d f = _mm256_floor_pd(v);
    const __m256d up = _mm256_cmp_pd(_mm256_sub_pd(v, f), _mm256_set1_pd(0.5), _CMP_GE_OQ);
    return _mm256_add_pd(f, _mm256_and_pd(up, _mm256_set1_pd(1.0)));
}

/* four codes (doubles 0..255) as four bytes at out */
PV_INLINE void pv_store_codes(uint8_t *out, __m256d codes)
{
    const __m128i b = _mm_shuffle_epi8(_mm256_cvttpd_epi32(codes),
                                       _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                     -1, -1, -1));
    const int32_t v = _mm_cvtsi128_si32(b);
    memcpy(out, &v, 4);
}

/* Columns c0 .. c1 (c1 - c0 a multiple of 4) of row r, w its northward
 * offset, n <= PV_DIRECTIONS directions, V the vectors broadcast. */
#define PV_DIRECTIONS 8
PV_INLINE void pv_row_n(const planet_job *j, const __m256d (*V)[PV_DIRECTIONS], int64_t r,
                        double w, int64_t c0, int64_t c1, uint32_t n)
{
    const rt_planet *p = j->p;
    const rt_terra_out *o = j->out;
    const double *P = p->profile;
    const __m128i vmask = _mm_set1_epi32((int)(p->profile_len - 1));
    const double hc = 0.5 * (double)(j->cols - 1);
    const __m256d vR2 = _mm256_set1_pd(p->radius * p->radius), vstep = _mm256_set1_pd(j->step);
    const __m256d vhc = _mm256_set1_pd(hc), zero = _mm256_setzero_pd();
    const __m256d ww = _mm256_set1_pd(w * w);
    const __m256d wnx = _mm256_set1_pd(w * j->nx), wny = _mm256_set1_pd(w * j->ny);
    const __m256d wnz = _mm256_set1_pd(w * j->nz);
    const __m256d lake_h = _mm256_set1_pd(p->lake_height), lake_b = _mm256_set1_pd(p->lake_base);
    const __m256d nan = _mm256_set1_pd(NAN);
    const __m128i fmask = _mm_set1_epi32((int)p->feature_mask);
    const __m256d two51 = _mm256_set1_pd(2251799813685248.0);
    const __m256d magic = _mm256_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    const __m128i even = _mm_setr_epi32(0, 2, 4, 6);
    const __m256d absm = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m256d ci = _mm256_add_pd(_mm256_set1_pd((double)c0), _mm256_setr_pd(0.0, 1.0, 2.0, 3.0));
    for (int64_t c = c0; c < c1; c += 4, ci = _mm256_add_pd(ci, _mm256_set1_pd(4.0))) {
        const int64_t k = r * j->cols + c;
        const __m256d u = _mm256_mul_pd(_mm256_sub_pd(ci, vhc), vstep);
        const __m256d rr = _mm256_sub_pd(_mm256_sub_pd(vR2, _mm256_mul_pd(u, u)), ww);
        const __m256d in = _mm256_cmp_pd(rr, zero, _CMP_GE_OQ);
        const int inm = _mm256_movemask_pd(in);
        __m256d height = nan, depth = nan, terrain = _mm256_set1_pd((double)RT_MAP_OUTSIDE);
        int slow = 0; /* lanes whose feature feature_of_a decides */
        __m256d a_f = zero, rd[3] = {zero, zero, zero};
        if (inm) {
            const __m256d d = _mm256_sqrt_pd(_mm256_max_pd(zero, rr));
            const __m256d x = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(j->ex)), wnx),
                                            _mm256_mul_pd(d, _mm256_set1_pd(j->cx)));
            const __m256d y = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(j->ey)), wny),
                                            _mm256_mul_pd(d, _mm256_set1_pd(j->cy)));
            const __m256d z = _mm256_add_pd(wnz, _mm256_mul_pd(d, _mm256_set1_pd(j->cz)));
            const __m256d ht = pv_sum3(P, vmask, V[RT_PLANET_AH], V[RT_PLANET_BH], V[RT_PLANET_CH], n, x, y, z);
            const __m256d lake = _mm256_and_pd(in, _mm256_cmp_pd(lake_h, ht, _CMP_GT_OQ));
            const __m256d mud = _mm256_andnot_pd(lake, _mm256_and_pd(in, _mm256_cmp_pd(lake_b, ht, _CMP_GT_OQ)));
            const __m256d land = _mm256_andnot_pd(_mm256_or_pd(lake, mud), in);
            height = _mm256_blendv_pd(nan, _mm256_blendv_pd(ht, lake_h, lake), in);
            depth = _mm256_blendv_pd(nan, _mm256_and_pd(lake, _mm256_sub_pd(lake_h, ht)), in);
            terrain = _mm256_blendv_pd(terrain, _mm256_set1_pd((double)RT_LAKE), lake);
            terrain = _mm256_blendv_pd(terrain, _mm256_set1_pd((double)RT_MUD), mud);
            if (_mm256_movemask_pd(land)) {
                const __m256d a1 = pv_prof3(P, vmask, V[RT_PLANET_A1], V[RT_PLANET_B1], V[RT_PLANET_C1], n, x, y, z);
                const __m256d town = _mm256_and_pd(land, _mm256_cmp_pd(a1, _mm256_set1_pd(120.0), _CMP_LT_OQ));
                const __m256d open = _mm256_andnot_pd(town, land);
                terrain = _mm256_blendv_pd(terrain, _mm256_set1_pd((double)RT_TOWN), town);
                const int openm = _mm256_movemask_pd(open);
                if (openm) {
                    const __m256d a = pv_prof3(P, vmask, V[RT_PLANET_A2], V[RT_PLANET_B2], V[RT_PLANET_C2], n, x, y, z);
                    const __m256d b = pv_prof3(P, vmask, V[RT_PLANET_A3], V[RT_PLANET_B3], V[RT_PLANET_C3], n, x, y, z);
                    const __m256d a_lo = _mm256_cmp_pd(a, _mm256_set1_pd(255.0), _CMP_LT_OQ);
                    const __m256d b_lo = _mm256_cmp_pd(b, _mm256_set1_pd(255.0), _CMP_LT_OQ);
                    const __m256d b_lo2 = _mm256_cmp_pd(b, _mm256_set1_pd(200.0), _CMP_LT_OQ);
                    const __m256d low = _mm256_blendv_pd(_mm256_set1_pd((double)RT_MOOR),
                                                         _mm256_set1_pd((double)RT_GRASS), b_lo);
                    const __m256d high = _mm256_blendv_pd(_mm256_set1_pd((double)RT_WOOD),
                                                          _mm256_set1_pd((double)RT_THICKET), b_lo2);
                    terrain = _mm256_blendv_pd(terrain, _mm256_blendv_pd(high, low, a_lo), open);
                    rd[0] = pv_round_js(x);
                    rd[1] = pv_round_js(y);
                    rd[2] = pv_round_js(z);
                    a_f = pv_prof3(P, vmask, V[RT_PLANET_B2], V[RT_PLANET_A3], V[RT_PLANET_C3], n, rd[0],
                                   rd[1], rd[2]);
                    const __m256d ax = _mm256_and_pd(rd[0], absm), ay = _mm256_and_pd(rd[1], absm);
                    const __m256d az = _mm256_and_pd(rd[2], absm);
                    const __m256d big1 = _mm256_cmp_pd(ay, ax, _CMP_GE_OQ);
                    const __m256d big2 = _mm256_cmp_pd(az, _mm256_blendv_pd(ax, ay, big1), _CMP_GE_OQ);
                    const __m256d uu = _mm256_blendv_pd(rd[1], rd[0], _mm256_or_pd(big1, big2));
                    const __m256d vv = _mm256_blendv_pd(rd[2], rd[1], big2);
                    const __m256d t =
                        _mm256_mul_pd(_mm256_mul_pd(a_f, _mm256_mul_pd(uu, vv)), _mm256_set1_pd(RT_RECIP128));
                    const __m256d big = _mm256_cmp_pd(_mm256_and_pd(t, absm), two51, _CMP_NLT_UQ);
                    const __m256d rt_ = pv_round_js(_mm256_andnot_pd(big, t));
                    const __m128i lo = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                        _mm256_castpd_si256(_mm256_add_pd(rt_, magic)), _mm256_castsi128_si256(even)));
                    const __m128i f = _mm_and_si128(lo, fmask);
                    const __m128i hit = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi32(f, _mm_set1_epi32(4)), _mm_cmpeq_epi32(f, _mm_set1_epi32(8))),
                        _mm_cmpeq_epi32(f, _mm_set1_epi32(16)));
                    slow = openm & (_mm256_movemask_pd(big) | _mm_movemask_ps(_mm_castsi128_ps(hit)));
                }
            }
        }
        if (o->height) _mm256_storeu_pd(o->height + k, height);
        if (o->depth) _mm256_storeu_pd(o->depth + k, depth);
        if (o->terrain) pv_store_codes(o->terrain + k, terrain);
        if (o->feature) {
            memset(o->feature + k, RT_NONE, 4);
            if (slow) {
                double av[4], xr[4], yr[4], zr[4];
                _mm256_storeu_pd(av, a_f);
                _mm256_storeu_pd(xr, rd[0]);
                _mm256_storeu_pd(yr, rd[1]);
                _mm256_storeu_pd(zr, rd[2]);
                for (int q = 0; q < 4; q++)
                    if (slow >> q & 1) o->feature[k + q] = feature_of_a(p, xr[q], yr[q], zr[q], &av[q]);
            }
        }
        if (j->visible) pv_store_codes(j->visible + k, _mm256_and_pd(in, _mm256_set1_pd(1.0)));
    }
}

/* The rows of planets with at most PV_DIRECTIONS directions (the table of
 * broadcast vectors stays small on the stack: 3 KiB). */
static PV_ATTR void map_cols_avx2(const planet_job *j, int64_t r, double w, int64_t c0, int64_t c1)
{
    const uint32_t n = j->p->directions;
    __m256d V[RT_PLANET_VECTOR_COUNT][PV_DIRECTIONS];
    for (int s = 0; s < RT_PLANET_VECTOR_COUNT; s++)
        for (uint32_t i = 0; i < n; i++) V[s][i] = _mm256_set1_pd(j->p->vec[s][i]);
    if (n == 5)
        pv_row_n(j, (const __m256d(*)[PV_DIRECTIONS])V, r, w, c0, c1, 5);
    else
        pv_row_n(j, (const __m256d(*)[PV_DIRECTIONS])V, r, w, c0, c1, n);
}
