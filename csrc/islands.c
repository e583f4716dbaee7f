/*
 * islands.c - connected land of a block (Skylands, SPEC 14/16): 4-neighbour
 * components of a mask, labelled by a two-pass union-find.
 *
 * The passes run in runs of rows (or points) between checks of the watch;
 * each run's loop is its own function (not inlined), so that its speed does not
 * depend on the code around it.
 */
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

#if defined(__GNUC__)
#define HOT_LOOP __attribute__((noinline))
#else
#define HOT_LOOP __attribute__((noinline))
#endif

static int32_t find_root(int32_t *parent, int32_t k)
{
    while (parent[k] != k) {
        parent[k] = parent[parent[k]]; /* path halving */
        k = parent[k];
    }
    return k;
}

/* Pass 1 over rows r0 .. r1-1: provisional labels, unions; returns next. */
HOT_LOOP static int32_t provisional(const uint8_t *land, int64_t nx, int64_t r0, int64_t r1,
                                    int32_t *parent, int32_t *prov, int32_t next)
{
    for (int64_t r = r0; r < r1; r++) {
        for (int64_t c = 0; c < nx; c++) {
            int64_t k = r * nx + c;
            if (!land[k]) {
                prov[k] = 0;
                continue;
            }
            int32_t w = c > 0 ? prov[k - 1] : 0;  /* west */
            int32_t s = r > 0 ? prov[k - nx] : 0; /* south (the previous row) */
            if (!w && !s) {
                parent[next] = next;
                prov[k] = next++;
            } else if (w && s) {
                int32_t a = find_root(parent, w), b = find_root(parent, s);
                if (a != b) {
                    if (a < b) parent[b] = a;
                    else parent[a] = b;
                }
                prov[k] = a < b ? a : b;
            } else {
                prov[k] = w ? w : s;
            }
        }
    }
    return next;
}

/* Pass 2 over points k0 .. k1-1: final labels in the order of each island's
 * first point; *islands and *sea are running counts. */
HOT_LOOP static void final_labels(int64_t k0, int64_t k1, int32_t *parent, const int32_t *prov,
                                  int32_t *final, int32_t *labels, int64_t *islands,
                                  int64_t *sea)
{
    int64_t isl = *islands, sc = *sea;
    for (int64_t k = k0; k < k1; k++) {
        if (!prov[k]) {
            labels[k] = 0;
            sc++;
            continue;
        }
        int32_t root = find_root(parent, prov[k]);
        if (!final[root]) final[root] = (int32_t)++isl;
        labels[k] = final[root];
    }
    *islands = isl;
    *sea = sc;
}

rt_status rt_label_islands(const uint8_t *land, int64_t nx, int64_t ny, int32_t *labels,
                           int64_t *counts, int64_t *count, const rt_poll *poll)
{
    if (nx < 1 || ny < 1 || nx > (int64_t)RT_MAX_ISLAND_POINTS / ny) return RT_ERR_SIZE;
    if (!land || !labels || !counts || !count) return RT_ERR_NULL;
    rt__watch wt;
    if (rt__watch_start(&wt, poll)) return RT_ERR_INTERRUPTED;
    const int64_t n = nx * ny;
    /* provisional labels 1..; a land point opens at most one, so n + 1 entries */
    int32_t *parent = malloc((size_t)(n + 1) * sizeof *parent);
    int32_t *prov = malloc((size_t)n * sizeof *prov);
    int32_t *final = malloc((size_t)(n + 1) * sizeof *final);
    if (!parent || !prov || !final) {
        free(parent), free(prov), free(final);
        return RT_ERR_NOMEM;
    }
    /* about 2^20 points between checks (a few ms) */
    const int64_t run = (int64_t)1 << 20, rows = nx >= run ? 1 : run / nx;
    int32_t next = 1;
    parent[0] = 0;
    for (int64_t r0 = 0; r0 < ny; r0 += rows) {
        if (rt__watch_stop(&wt, 8 * rows * nx)) goto stopped;
        next = provisional(land, nx, r0, ny - r0 > rows ? r0 + rows : ny, parent, prov, next);
    }
    memset(final, 0, (size_t)next * sizeof *final);
    int64_t islands = 0, sea = 0;
    for (int64_t k0 = 0; k0 < n; k0 += run) {
        if (rt__watch_stop(&wt, 4 * run)) goto stopped;
        final_labels(k0, n - k0 > run ? k0 + run : n, parent, prov, final, labels, &islands, &sea);
    }
    memset(counts, 0, (size_t)(islands + 1) * sizeof *counts);
    counts[0] = sea;
    for (int64_t k = 0; k < n; k++)
        if (labels[k]) counts[labels[k]]++;
    *count = islands;
    free(parent), free(prov), free(final);
    return RT_OK;
stopped:
    free(parent), free(prov), free(final);
    return RT_ERR_INTERRUPTED;
}
