/*
 * rt_terra.h - the terrain's shared pieces for the core's other generators
 * (streams, findGoodSite, mines, roads, planets): terra at one point, the
 * parameter and block checks, and the dyadic plan of a block.  Internal;
 * not installed.  Everything here is reentrant and allocates nothing.
 */
#ifndef RT_TERRA_H
#define RT_TERRA_H

#include <stdint.h>

#include "relfterrain.h"

/* What terra() says of one point (SPEC 5-6). */
typedef struct rt_terra_res {
    double height;   /* the water surface on lakes */
    double depth;    /* lake depth, 0 elsewhere */
    uint8_t terrain; /* rt_terrain_type */
    uint8_t feature; /* rt_feature */
    double ground;   /* the ground height (rt_terra_out.ground) */
} rt_terra_res;

/* terra(x, y) by the seed's double arithmetic, placed table included.  The
 * parameters must have passed rt__terrain_check_shape. */
void rt__terra_point(const rt_terrain *t, double x, double y, rt_terra_res *r);
/* terra's height at (x, y): the water surface on lakes, a quarry's floor.
 * Without quarries it does not depend on the placed table (so it is cheaper
 * than rt__terra_point). */
double rt__terra_height(const rt_terrain *t, double x, double y);
/* The same from the ground height ht = rt__height_point(t, x, y).  With
 * quarries (SPEC 17) a QUARRY is ht - quarry_depth unless a terrain other
 * than STREAM and MARSH is placed there (streams ignore those: SPEC 7). */
double rt__terra_height_from(const rt_terrain *t, double x, double y, double ht);
/* The generated point feature at the rounded point (xr, yr) (SPEC 5), as if
 * the ground were dry, open and without a placed entry: terra's feature
 * wherever terra reaches the feature test. */
uint8_t rt__point_feature(const rt_terrain *t, double xr, double yr);
/* The ground height (SPEC 4, mountains applied) at (x, y). */
double rt__height_point(const rt_terrain *t, double x, double y);
/* The structural checks of rt_terrain_check without the O(profile) scan of
 * the values (cheap enough for every call). */
rt_status rt__terrain_check_shape(const rt_terrain *t, int *bad_vector);
/* The features alone of a checked block (feature_grid.c): RT_OK with out
 * written when the block is one it serves (step 1 from an integer origin
 * inside the domain, on an AVX-512 variant), RT_ERR_PARAM with nothing
 * written otherwise, RT_ERR_NOMEM.  The same bytes as rt_terra_grid's. */
rt_status rt__feature_grid_sparse(const rt_terrain *t, const rt_block *b, uint8_t *out,
                                  int threads);
/* A block is valid: sizes, offsets and every point finite. */
rt_status rt__check_block(const rt_block *b);

/* The dyadic plan of a block: the smallest m <= RT_MAX_DYADIC with origin
 * and step multiples of 2^-m, every point inside |v| <= limit; then
 * X0 = x0*2^m, Y0 = y0*2^m and S = step*2^m are exact integers.  Returns 0
 * when there is none (the point path must serve the block). */
#define RT_MAX_DYADIC 4
typedef struct rt_dyadic {
    int m;
    int64_t X0, Y0, S;
} rt_dyadic;
int rt__plan_dyadic(const rt_block *b, double limit, rt_dyadic *plan);

#endif /* RT_TERRA_H */
