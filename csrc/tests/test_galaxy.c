/*
 * test_galaxy.c - the galaxy (SPEC 9) in the C driver: every block function
 * agrees with calcStar point by point for every thread count, the census,
 * counts and planet histogram agree with the catalogue, bad input is refused
 * with nothing written.
 */
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

/* Every star of a small block, by rt_galaxy_star at each point. */
static int64_t brute_force(const rt_galaxy *g, const rt_block3 *b, rt_star *out, int64_t cap)
{
    int64_t n = 0;
    for (int64_t x = b->x0; x < b->x0 + b->nx; x++)
        for (int64_t y = b->y0; y < b->y0 + b->ny; y++)
            for (int64_t z = b->z0; z < b->z0 + b->nz; z++) {
                rt_star s;
                int found = 0;
                CHECK(rt_galaxy_star(g, x, y, z, &s, &found) == RT_OK);
                if (found && n < cap) out[n] = s;
                n += found;
            }
    return n;
}

static void compare_block(const rt_galaxy *g, const rt_block3 *b, uint64_t *fp)
{
    enum { CAP = 4096 };
    rt_star *want = malloc(CAP * sizeof *want), *got = malloc(CAP * sizeof *got);
    int64_t n = brute_force(g, b, want, CAP);
    CHECK(n <= CAP);
    for (int threads = 1; threads <= 3; threads++) {
        int64_t count = -1, total = 0, hist[RT_STAR_PLANETS], census[256];
        CHECK(rt_galaxy_stars(g, b, got, CAP, &count, threads) == RT_OK);
        CHECK(count == n);
        /* the catalogue is sorted by (x, y, z): the brute force's order */
        for (int64_t k = 0; k < n && k < count; k++)
            CHECK(got[k].x == want[k].x && got[k].y == want[k].y && got[k].z == want[k].z &&
                  same_bits(got[k].magnitude, want[k].magnitude) &&
                  got[k].planets == want[k].planets && got[k].colour == want[k].colour);
        CHECK(rt_galaxy_count(g, b, &count, threads) == RT_OK && count == n);
        CHECK(rt_galaxy_planet_counts(g, b, hist, threads) == RT_OK);
        CHECK(rt_galaxy_census(g, b, census, threads) == RT_OK);
        for (int p = 0; p < RT_STAR_PLANETS; p++) {
            int64_t want_p = 0, row = 0;
            for (int64_t k = 0; k < n; k++) want_p += want[k].planets == p;
            for (int c = 0; c < RT_STAR_COLOURS; c++) row += census[p * RT_STAR_COLOURS + c];
            CHECK(hist[p] == want_p && row == want_p);
            total += hist[p];
        }
        CHECK(total == n);
    }
    for (int64_t k = 0; k < n; k++) *fp = fnv1a(*fp, &want[k], sizeof want[k]);
    free(want);
    free(got);
}

uint64_t test_galaxy(void)
{
    uint64_t fp = FNV_START;
    rt_galaxy g;
    rt_galaxy_defaults(&g);
    CHECK(rt_galaxy_check(&g, NULL) == RT_OK);
    CHECK(g.profile == rt_classic_profile() && g.s[0] == rt_classic_vector(RT_A1)[0]);
    /* blocks across the planes x = 0, y = 0 and the sign changes */
    static const rt_block3 blocks[] = {
        {-20, -15, 1, 40, 30, 60},
        {-400, -300, 1, 17, 13, 300},
        {1000, -2000, -500, 9, 11, 700},
        {131000, 131000, 130000, 4, 4, 900}, /* the domain's corner */
    };
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) compare_block(&g, &blocks[k], &fp);
    /* a denser galaxy: a smaller mask */
    rt_galaxy dense = g;
    dense.f_mask = 0xff;
    dense.f_value = 127;
    compare_block(&dense, &blocks[0], &fp);
    /* the initial view of the seed */
    rt_block3 view = {-400, -300, 1, 800, 600, 300};
    int64_t count = -1;
    CHECK(rt_galaxy_count(&g, &view, &count, 2) == RT_OK);
    fp = fnv1a(fp, &count, sizeof count);
    /* bad input: nothing written */
    int64_t hist[RT_STAR_PLANETS];
    for (int p = 0; p < RT_STAR_PLANETS; p++) hist[p] = -7;
    rt_block3 bad = {0, 0, 0, 0, 1, 1};
    CHECK(rt_galaxy_planet_counts(&g, &bad, hist, 1) == RT_ERR_SIZE);
    bad = (rt_block3){INT64_MAX, 0, 0, 2, 1, 1};
    CHECK(rt_galaxy_count(&g, &bad, &count, 1) == RT_ERR_SIZE);
    for (int p = 0; p < RT_STAR_PLANETS; p++) CHECK(hist[p] == -7);
    rt_galaxy broken = g;
    broken.profile_len = 3;
    CHECK(rt_galaxy_check(&broken, NULL) == RT_ERR_PROFILE_LENGTH);
    broken = g;
    broken.f_value = 0x10000;
    CHECK(rt_galaxy_check(&broken, NULL) == RT_ERR_PARAM);
    return fp;
}
