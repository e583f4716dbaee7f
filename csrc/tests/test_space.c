/*
 * test_space.c - the C driver's checks of the evolving terrain, nebulae,
 * planets and islands (SPEC 14, 16), and their fingerprint.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

uint64_t test_space(void)
{
    uint64_t h = FNV_START;
    /* evolving terrain: t = 0 equals the static grid on every SIMD variant */
    rt_terrain t;
    rt_terrain_defaults(&t);
    const double tvec[5] = {1, -2, 0.5, 3, -1};
    enum { NX = 150, NY = 40 };
    double *a = malloc(NX * NY * sizeof *a), *b = malloc(NX * NY * sizeof *b);
    rt_block blk = {23396, 5318, 1.0, 0, 0, NX, NY};
    for (int v = 0; v < RT_SIMD_COUNT; v++) {
        if (!rt_simd_supported(v)) continue;
        t.simd = v;
        CHECK(rt_height_grid(&t, &blk, a, 2) == RT_OK);
        CHECK(rt_height_time_grid(&t, tvec, &blk, 0.0, b, 3) == RT_OK);
        int bad = 0;
        for (int k = 0; k < NX * NY; k++) bad += !same_bits(a[k], b[k]);
        CHECK(bad == 0);
    }
    CHECK(rt_height_time_grid(&t, tvec, &blk, 100.0, b, 2) == RT_OK);
    h = fnv1a(h, b, NX * NY * sizeof *b);
    CHECK(rt_height_time_grid(&t, tvec, &blk, NAN, b, 1) == RT_ERR_COORD);

    /* nebula: the integer path equals the point path */
    rt_nebula nb;
    rt_nebula_defaults(&nb);
    rt_grid3 g = {-20, 30, 5, 1.0, 25, 6, 4};
    double *d = malloc(25 * 6 * 4 * sizeof *d), amount = 0;
    double px[25 * 6 * 4], py[25 * 6 * 4], pz[25 * 6 * 4], pd[25 * 6 * 4];
    rt_nebula_out o = {d, NULL, NULL, &amount};
    CHECK(rt_nebula_grid(&nb, &g, &o, 2, NULL) == RT_OK);
    for (int k = 0; k < 25 * 6 * 4; k++) {
        px[k] = g.x0 + (double)(k % 25);
        py[k] = g.y0 + (double)((k / 25) % 6);
        pz[k] = g.z0 + (double)(k / 150);
    }
    CHECK(rt_nebula_points(&nb, px, py, pz, 25 * 6 * 4, pd, 1) == RT_OK);
    int bad = 0;
    for (int k = 0; k < 25 * 6 * 4; k++) bad += !same_bits(d[k], pd[k]);
    CHECK(bad == 0);
    h = fnv1a(h, d, 25 * 6 * 4 * sizeof *d);
    h = fnv1a(h, &amount, sizeof amount);
    nb.threshold = INFINITY;
    CHECK(rt_nebula_check(&nb, NULL) == RT_ERR_PARAM);

    /* planet: a map centred on the pole, and bad radii */
    rt_planet p;
    rt_planet_defaults(&p);
    enum { MX = 61, MY = 41 };
    double mh[MX * MY], md[MX * MY];
    uint8_t mt[MX * MY], mf[MX * MY], vis[MX * MY];
    rt_terra_out mo = {mh, md, mt, mf};
    CHECK(rt_planet_map(&p, 90.0, 0.0, MX, MY, 400.0, &mo, vis, 2, NULL) == RT_OK);
    CHECK(vis[20 * MX + 30] == 1 && vis[0] == 0 && mt[0] == RT_MAP_OUTSIDE);
    h = fnv1a(h, mt, sizeof mt);
    h = fnv1a(h, mf, sizeof mf);
    for (int k = 0; k < MX * MY; k++)
        if (vis[k]) h = fnv1a(h, &mh[k], sizeof mh[k]);
    p.radius = 0.0;
    CHECK(rt_planet_check(&p, NULL) == RT_ERR_PARAM);

    /* islands: a ring and a dot */
    const uint8_t land[5 * 5] = {1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0,
                                 0, 0, 0, 0, 1, 1, 0, 0, 1, 1};
    int32_t labels[25];
    int64_t counts[26], n = 0;
    CHECK(rt_label_islands(land, 5, 5, labels, counts, &n, NULL) == RT_OK);
    CHECK(n == 4 && counts[1] == 8 && labels[4 * 5 + 4] == labels[3 * 5 + 4]);
    h = fnv1a(h, labels, sizeof labels);
    CHECK(rt_label_islands(land, 0, 5, labels, counts, &n, NULL) == RT_ERR_SIZE);
    free(a), free(b), free(d);
    return h;
}
