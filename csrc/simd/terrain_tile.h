/*
 * terrain_tile.h - the tile passes of the terrain block path, as a template:
 * tile_kernels.c includes it once per instruction set, with RT_TILE_SUFFIX naming
 * the variant and RT_TILE_ATTR its target attribute, and picks a variant at
 * run time (see rt_simd_* in relfterrain.h).
 *
 * Integer profiles only (every value an integer, bounded so that nothing
 * below overflows int32).  Then every floating-point operation of calcHeight
 * is exact: p0 + (k / 2^s) * (p1 - p0) is the rational (p0*2^s + k*(p1-p0)) /
 * 2^s, and the running sum of such terms stays far below 2^53.  So the
 * integer numerators summed here, times 2^-s, are the very doubles the seed's
 * arithmetic produces.  The profile sums of calcProf are exact integers too.
 *
 * The indices use 32-bit unsigned arithmetic: only V modulo 2^(s+log2 len)
 * matters, and that divides 2^32, so wrapping (well defined for unsigned)
 * changes nothing.  The loops over k have no branches and vectorise (gathers).
 */

#define RT_TILE_CAT2(a, b) a##b
#define RT_TILE_CAT(a, b) RT_TILE_CAT2(a, b)
#define RT_TILE_FN(name) RT_TILE_CAT(name, RT_TILE_SUFFIX)

/* Height numerators: out[k] = sum_i (p0*2^s + frac*(p1 - p0)) at column k. */
RT_TILE_ATTR static void RT_TILE_FN(tile_height_)(const rt_tile_args *ta, int32_t *restrict out)
{
    const int32_t *restrict P = ta->profile;
    const uint32_t mask = ta->mask, s = ta->shift, fm = (1u << s) - 1u;
    const int nk = ta->nk;
    for (int k = 0; k < nk; k++) out[k] = 0;
    for (uint32_t i = 0; i < ta->n; i++) {
        const uint32_t v0 = ta->v0[i], dv = ta->dv[i];
        for (int k = 0; k < nk; k++) {
            uint32_t v = v0 + (uint32_t)k * dv;
            uint32_t q = v >> s;
            int32_t p0 = P[q & mask], p1 = P[(q + 1u) & mask];
            out[k] += p0 * (int32_t)(1u << s) + (int32_t)(v & fm) * (p1 - p0);
        }
    }
}

/* Profile sums: out[k] = sum_i P[(V_i(k) >> s) & mask]. */
RT_TILE_ATTR static void RT_TILE_FN(tile_prof_)(const rt_tile_args *ta, int32_t *restrict out)
{
    const int32_t *restrict P = ta->profile;
    const uint32_t mask = ta->mask, s = ta->shift;
    const int nk = ta->nk;
    for (int k = 0; k < nk; k++) out[k] = 0;
    for (uint32_t i = 0; i < ta->n; i++) {
        const uint32_t v0 = ta->v0[i], dv = ta->dv[i];
        for (int k = 0; k < nk; k++) out[k] += P[((v0 + (uint32_t)k * dv) >> s) & mask];
    }
}

/* Profile sums at the rounded points: V_i(k) = a_i*xr[k] + by_i (mod 2^32). */
RT_TILE_ATTR static void RT_TILE_FN(tile_prof_at_)(const rt_tile_args *ta,
                                                   const uint32_t *restrict xr,
                                                   int32_t *restrict out)
{
    const int32_t *restrict P = ta->profile;
    const uint32_t mask = ta->mask, s = ta->shift;
    const int nk = ta->nk;
    for (int k = 0; k < nk; k++) out[k] = 0;
    for (uint32_t i = 0; i < ta->n; i++) {
        const uint32_t a = ta->dv[i], by = ta->v0[i];
        for (int k = 0; k < nk; k++) out[k] += P[((a * xr[k] + by) >> s) & mask];
    }
}

/* terra's decisions for a tile in the common case (no bleak, snow, paths,
 * wood_only or placed entries; a feature mask 2^k - 1), without branches:
 * lake, mud, town and vegetation, and the candidates for a point feature.
 * f = toint32(round_js(a*xr*yr/128)) & mask is computed as r - M*floor(r/M)
 * with M = mask + 1 and r = round_js(...): every step is exact for integer
 * r, so f equals the seed's.  Candidates (f one of the three feature codes,
 * on dry, non-town ground) are finished by the caller with feature_of. */
RT_TILE_ATTR static void RT_TILE_FN(tile_classify_)(const rt_classify_args *ca)
{
    const int nk = ca->nk;
    const double lake_h = ca->lake_height, lake_b = ca->lake_base, yr = ca->yr;
    const double M = ca->fmod_m, invM = ca->fmod_inv;
    const double fp = ca->f_point, fx = ca->f_x, fc = ca->f_cone;
    const double *restrict ht = ca->ht;
    const int32_t *restrict a1 = ca->a1, *restrict a2 = ca->a2, *restrict a3 = ca->a3;
    const int32_t *restrict fa = ca->fa, *restrict xr = ca->xr;
    double *restrict height = ca->height, *restrict depth = ca->depth;
    int32_t *restrict code = ca->code;
    const int32_t town_lt = ca->town_lt, grass_lt = ca->grass_lt;
    const int32_t open_lt = ca->open_lt, thicket_lt = ca->thicket_lt;
    /* |a1| without a branch when town_abs: the sums are far inside int32 */
    const int32_t abs_mask = ca->town_abs ? -1 : 0;
    /* the floating-point half: water, and the feature value f */
    for (int k = 0; k < nk; k++) {
        double h = ht[k];
        int64_t lake = lake_h > h, mud = lake_b > h;
        double v = (double)fa[k] * ((double)xr[k] * yr) * RT_RECIP128;
        double r = RT_TILE_FLOOR(v);
        r += (double)(v - r >= 0.5);
        double f = r - M * RT_TILE_FLOOR(r * invM);
        int64_t cand = (f == fp) | (f == fx) | (f == fc);
        height[k] = lake ? lake_h : h;
        depth[k] = lake ? lake_h - h : 0.0;
        code[k] = (int32_t)(lake | mud << 1 | cand << 2);
    }
    /* the integer half: terrain codes; bit 8 marks a feature candidate */
    for (int k = 0; k < nk; k++) {
        int32_t w = code[k];
        int32_t lake = w & 1, mud = (w >> 1) & 1, cand = (w >> 2) & 1;
        int32_t a = a1[k], neg = (a < 0) & abs_mask;
        int32_t town = (neg ? -a : a) < town_lt;
        int32_t open = a2[k] < grass_lt;
        int32_t veg = open ? (a3[k] < open_lt ? RT_GRASS : RT_MOOR)
                           : (a3[k] < thicket_lt ? RT_THICKET : RT_WOOD);
        int32_t ter = town ? RT_TOWN : veg;
        ter = mud ? RT_MUD : ter;
        ter = lake ? RT_LAKE : ter;
        code[k] = ter | ((cand & ~(lake | mud | town)) << 8);
    }
}

/* Heights from numerators: out[k] = num[k] * 2^-s (exact). */
RT_TILE_ATTR static void RT_TILE_FN(tile_store_heights_)(const int32_t *restrict num, int nk,
                                                         double scale, double *restrict out)
{
    for (int k = 0; k < nk; k++) out[k] = (double)num[k] * scale;
}

#ifndef RT_TILE_TABLE_ATTR
#define RT_TILE_TABLE_ATTR
#define RT_TILE_TABLE_ATTR_LOCAL
#endif
RT_TILE_TABLE_ATTR static const rt_tile_kernels RT_TILE_FN(tile_kernels_) = {
    RT_TILE_FN(tile_height_), RT_TILE_FN(tile_prof_), RT_TILE_FN(tile_prof_at_),
    RT_TILE_FN(tile_classify_), RT_TILE_FN(tile_store_heights_), NULL, NULL, NULL, NULL, NULL, NULL};
#ifdef RT_TILE_TABLE_ATTR_LOCAL
#undef RT_TILE_TABLE_ATTR
#undef RT_TILE_TABLE_ATTR_LOCAL
#endif

#undef RT_TILE_FN
#undef RT_TILE_CAT
#undef RT_TILE_CAT2
