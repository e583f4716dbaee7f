/*
 * veg_bounds.c - the tables of rt_veg_bounds.h: the least and greatest
 * profile entry over each window of the lengths the point rows' groups
 * reach, and each direction's window and table.
 */
#include <math.h>
#include <stdint.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_veg_bounds.h"

int rt__veg_bounds_init(rt_veg_bounds *vb, uint64_t *tab, const rt_terrain *t,
                        const int32_t *iprof, double step, int lanes, const int32_t veg_lt[4])
{
    static const int pa[3] = {RT_A1, RT_A2, RT_A3};
    const uint32_t len = t->profile_len, n = t->directions;
    if (!iprof || len < 1 || len > RT_VB_ROWS || (len & (len - 1)) != 0 || n < 1 ||
        n > RT_MAX_DIRECTIONS || !(step > 0.0) || lanes < 2)
        return 0;
    int64_t pmin = iprof[0], pmax = iprof[0];
    for (uint32_t e = 1; e < len; e++) {
        if (iprof[e] < pmin) pmin = iprof[e];
        if (iprof[e] > pmax) pmax = iprof[e];
    }
    const int64_t pabs = -pmin > pmax ? -pmin : pmax;
    /* each half of a packed sum below 2^31, and the int32 sums unwrapped */
    if ((int64_t)n * (pmax - pmin) >= ((int64_t)1 << 31) || (int64_t)n * pabs >= ((int64_t)1 << 31))
        return 0;
    const int64_t bias = -pmin;
    int lens[RT_VB_TABLES], ntab = 0;
    for (uint32_t d = 0; d < RT_VB_SLOTS; d++) vb->off[d] = vb->toff[d] = 0;
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            /* the real moves of j = (A x + B y) / 128 over lanes - 1 columns,
             * with room for the roundings of x, A*x and the sum (far below
             * 2^-8 within the rows' bounds) and of this product */
            const double move = fabs((double)a) * (double)(lanes - 1) * step / 128.0;
            if (!(move < 64.0)) return 0;
            const int span = (int)floor(move * (1.0 + 0x1p-40) + 0x1p-8) + 1;
            const int L = span + 2;
            int k = 0;
            while (k < ntab && lens[k] != L) k++;
            if (k == ntab) {
                if (ntab == RT_VB_TABLES) return 0;
                lens[ntab++] = L;
            }
            const uint32_t d = (uint32_t)p * n + i;
            vb->off[d] = a < 0 ? 1u + (uint32_t)span : 1u;
            vb->toff[d] = (uint32_t)k * len;
        }
    const uint32_t mask = len - 1;
    for (int k = 0; k < ntab; k++)
        for (uint32_t e = 0; e < len; e++) {
            int64_t lo = iprof[e], hi = iprof[e];
            for (int q = 1; q < lens[k]; q++) {
                const int64_t v = iprof[(e + (uint32_t)q) & mask];
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
            tab[(size_t)k * len + e] = (uint64_t)(hi + bias) << 32 | (uint64_t)(lo + bias);
        }
    vb->tab = tab;
    vb->mask = mask;
    vb->nbias = (int64_t)n * bias;
    vb->town_lt = veg_lt[0];
    vb->grass_lt = veg_lt[1];
    vb->open_lt = veg_lt[2];
    vb->thicket_lt = veg_lt[3];
    vb->town_abs = t->town_abs != 0;
    return 1;
}
