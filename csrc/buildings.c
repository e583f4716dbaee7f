/*
 * buildings.c - the town buildings of an area (SPEC 5), found on the lattice
 * of multiples of 16 by one terra grid at step 16 instead of a terra call
 * per lattice point.
 */
#include <stdlib.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"

/* Lattice points a chunk (the terrain of one chunk: this many bytes). */
#define CHUNK_POINTS ((int64_t)1 << 14)

rt_status rt_buildings_lattice(const rt_terrain *t, int64_t xs, int64_t ys, int64_t kx,
                               int64_t ky, int64_t *xy, int64_t cap, int64_t *count,
                               const rt_poll *poll)
{
    if (!t || !count || (!xy && cap > 0)) return RT_ERR_NULL;
    *count = 0;
    if (kx < 1 || ky < 1) return RT_OK;
    const int64_t lim = (int64_t)1 << 40;
    if (xs % 16 != 0 || ys % 16 != 0 || xs < -lim || xs > lim || ys < -lim || ys > lim ||
        kx > lim / 8 || ky > lim / 8)
        return RT_ERR_PARAM;
    /* as rt_building_at: a terrain of a bad shape has no buildings */
    if (rt__terrain_check_shape(t, NULL) != RT_OK) return RT_OK;
    const int64_t rows = kx >= CHUNK_POINTS ? 1 : CHUNK_POINTS / kx;
    const int64_t width = kx >= CHUNK_POINTS ? CHUNK_POINTS : kx;
    uint8_t *kind = malloc((size_t)(rows * width));
    if (!kind) return RT_ERR_NOMEM;
    int64_t n = 0;
    rt_status s = RT_OK;
    /* point [r][c] of the grid (xs, ys, 16) is xs + c*16, ys + r*16 exactly
     * (|values| <= 2^41 + 2^40): the lattice point, with terra's bits there */
    for (int64_t r0 = 0; r0 < ky && s == RT_OK; r0 += rows) {
        const int64_t nr = ky - r0 < rows ? ky - r0 : rows;
        for (int64_t c0 = 0; c0 < kx && s == RT_OK; c0 += width) {
            const int64_t nc = kx - c0 < width ? kx - c0 : width;
            if (poll && poll->fn && poll->fn(poll->ctx)) {
                s = RT_ERR_INTERRUPTED;
                break;
            }
            rt_block b = {(double)xs, (double)ys, 16.0, c0, r0, nc, nr};
            rt_terra_out out = {NULL, NULL, kind, NULL, NULL};
            s = rt_terra_grid(t, &b, &out, 1);
            if (s != RT_OK) break;
            for (int64_t i = 0; i < nr; i++) {
                for (int64_t j = 0; j < nc; j++) {
                    const int64_t bx = xs + 16 * (c0 + j), by = ys + 16 * (r0 + i);
                    /* rt_building_at's test, then its terrain */
                    const double x = (double)bx, y = (double)by;
                    if ((rt__low32(RT_PI10000 * x * y) & 0xfu) >= 8) continue;
                    if (kind[i * nc + j] != RT_TOWN) continue;
                    if (n < cap) {
                        xy[2 * n] = bx;
                        xy[2 * n + 1] = by;
                    }
                    n++;
                }
            }
        }
    }
    free(kind);
    *count = n;
    return s;
}
