/*
 * rt_veg_bounds.h - bounds of the vegetation sums over a group of columns
 * of the point path (any step and origin), so that a group whose lanes
 * all fall on one side of every threshold skips its profile lookups.
 * Internal; not installed.
 *
 * The point path's profile sums a1, a2, a3 (rt_point_prof.a) are read by
 * one thing only: the classify pass, which compares them with the
 * thresholds (SPEC 5: TOWN where a1 < town_lt, or |a1| < town_lt; then
 * a2 < grass_lt, then a3 < open_lt or a3 < thicket_lt).  A sum is the sum
 * over its directions of P[q_d], and over the G columns of a group a
 * direction's index q_d moves by at most `span` (|A| (G - 1) step / 128,
 * rounded up, plus one: the floors of two reals that far apart).  So the
 * group's sums lie between the sums of each direction's least and
 * greatest P over the indices it can reach.  Where no threshold lies
 * between those two bounds, every lane of the group is classified as the
 * lower bound is, and the kernel writes that bound to all of them in
 * place of their sums: the terrain bytes are those of the exact sums
 * (the sums themselves are not an output).  The cascade: a group all
 * TOWN needs neither a2 nor a3; a group all below (or all at or above)
 * grass_lt needs a3 against open_lt (thicket_lt) only.
 *
 * The indices come from the kernels' fixed point (point_rows_avx2.h): the
 * index U >> (F+7) of a group's first lane is the exact one or one more
 * (v 2^F lies in (U - 2E, U), 2E < 2^(F+7)), so the reachable indices of
 * a direction are [q - 1, q + span] for A >= 0 and [q - 1 - span, q] for
 * A < 0: span + 2 entries from q - off, off = 1 or 1 + span.  The tables
 * hold, for each window length L in use and each start e (modulo the
 * profile's length), the least and greatest P over [e, e + L) packed in
 * one uint64: (greatest + bias) << 32 | (least + bias), bias = -min P, so
 * that one 64-bit addition a direction sums both (each half below 2^31:
 * n (max P - min P) < 2^31 is checked).  With n max|P| < 2^31 too the
 * kernels' int32 sums are the real sums (no wrap), which the bounds bound.
 */
#ifndef RT_VEG_BOUNDS_H
#define RT_VEG_BOUNDS_H

#include <stdint.h>

#include "relfterrain.h"

#define RT_VB_TABLES 8      /* distinct window lengths at most */
#define RT_VB_ROWS 1024     /* the profile's length at most (RT_WIN16_ROWS) */
/* direction slots: 3n rounded up to 16, the kernels' vectors */
#define RT_VB_SLOTS (((3 * RT_MAX_DIRECTIONS) + 15) & ~15)

typedef struct rt_veg_bounds {
    const uint64_t *tab;    /* RT_VB_TABLES tables of `len` entries */
    uint32_t mask;          /* the profile's length - 1 */
    /* per direction d = p*n + i (unused slots 0): the window's start below
     * the first lane's index (off) and its table's first entry (toff) */
    uint32_t off[RT_VB_SLOTS] __attribute__((aligned(64)));
    uint32_t toff[RT_VB_SLOTS] __attribute__((aligned(64)));
    int64_t nbias;          /* n * bias: a packed sum's halves less this */
    int64_t town_lt, grass_lt, open_lt, thicket_lt;
    int town_abs;
} rt_veg_bounds;

/* Fills vb (and tab, RT_VB_TABLES * RT_VB_ROWS entries) for the point rows
 * of a call: the model t, its integer profile iprof, the step and the
 * kernel's group of `lanes` columns, the classify thresholds veg_lt (town,
 * grass, open, thicket, as the classify pass takes them).  Returns 0 (vb
 * not to be used) where the bounds do not apply: a profile longer than
 * RT_VB_ROWS, sums that could wrap, more window lengths than tables. */
int rt__veg_bounds_init(rt_veg_bounds *vb, uint64_t *tab, const rt_terrain *t,
                        const int32_t *iprof, double step, int lanes, const int32_t veg_lt[4]);

/* The pairs a group needs (bit p: its exact sums), from its packed bound
 * sums S[p] (each direction's vb->tab entry added); rep[p]: the value an
 * unneeded pair's lanes take (its lower bound, classified as each lane). */
static inline unsigned rt__vb_need(const rt_veg_bounds *vb, const uint64_t S[3], int32_t rep[3])
{
    int64_t lo[3], hi[3];
    for (int p = 0; p < 3; p++) {
        lo[p] = (int64_t)(uint32_t)S[p] - vb->nbias;
        hi[p] = (int64_t)(S[p] >> 32) - vb->nbias;
        rep[p] = (int32_t)lo[p];
    }
#define RT_VB_SAME(p, T) ((hi[p] < (T)) == (lo[p] < (T)))
    unsigned need = 0;
    int town_all;
    if (vb->town_abs) { /* |a1| < T: a1 < T and a1 >= 1 - T */
        const int u = RT_VB_SAME(0, vb->town_lt) && RT_VB_SAME(0, 1 - vb->town_lt);
        need |= (unsigned)!u;
        town_all = u && hi[0] < vb->town_lt && lo[0] >= 1 - vb->town_lt;
    } else {
        const int u = RT_VB_SAME(0, vb->town_lt);
        need |= (unsigned)!u;
        town_all = u && hi[0] < vb->town_lt;
    }
    if (town_all) return need; /* 0: every lane TOWN */
    int u3;
    if (!RT_VB_SAME(1, vb->grass_lt)) {
        need |= 2u;
        u3 = RT_VB_SAME(2, vb->open_lt) && RT_VB_SAME(2, vb->thicket_lt);
    } else if (hi[1] < vb->grass_lt) { /* every lane open: a3 against open_lt */
        u3 = RT_VB_SAME(2, vb->open_lt);
    } else {
        u3 = RT_VB_SAME(2, vb->thicket_lt);
    }
#undef RT_VB_SAME
    return need | (u3 ? 0u : 4u);
}

#endif /* RT_VEG_BOUNDS_H */
