/*
 * islands.c - connected land of a block (Skylands, SPEC 14/16): 4-neighbour
 * components of a mask, labelled by a two-pass union-find.
 */
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

static int32_t find_root(int32_t *parent, int32_t k)
{
    while (parent[k] != k) {
        parent[k] = parent[parent[k]]; /* path halving */
        k = parent[k];
    }
    return k;
}

rt_status rt_label_islands(const uint8_t *land, int64_t nx, int64_t ny, int32_t *labels,
                           int64_t *counts, int64_t *count, const rt_poll *poll)
{
    if (nx < 1 || ny < 1 || nx > (int64_t)RT_MAX_ISLAND_POINTS / ny) return RT_ERR_SIZE;
    if (!land || !labels || !counts || !count) return RT_ERR_NULL;
    rt__watch wt;
    if (rt__watch_start(&wt, poll)) return RT_ERR_INTERRUPTED;
    int64_t pending = 0;
    const int64_t n = nx * ny;
    /* provisional labels 1..; a land point opens at most one, so n + 1 entries */
    int32_t *parent = malloc((size_t)(n + 1) * sizeof *parent);
    int32_t *prov = malloc((size_t)n * sizeof *prov);
    int32_t *final = malloc((size_t)(n + 1) * sizeof *final);
    if (!parent || !prov || !final) {
        free(parent), free(prov), free(final);
        return RT_ERR_NOMEM;
    }
    int32_t next = 1;
    parent[0] = 0;
    for (int64_t r = 0; r < ny; r++) {
        if (rt__watch_charge(&wt, &pending, 8 * nx)) goto stopped;
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
    /* final labels in the order of each island's first point */
    memset(final, 0, (size_t)next * sizeof *final);
    int64_t islands = 0, sea = 0;
    for (int64_t k = 0; k < n; k++) {
        if (k % RT_WATCH_STEP == 0 && rt__watch_stop(&wt, 4 * RT_WATCH_STEP)) goto stopped;
        if (!prov[k]) {
            labels[k] = 0;
            sea++;
            continue;
        }
        int32_t root = find_root(parent, prov[k]);
        if (!final[root]) final[root] = (int32_t)++islands;
        labels[k] = final[root];
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
