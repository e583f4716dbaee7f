/*
 * placed.c - the placed table of SPEC 6 ("Enabling things to move").
 *
 * The seed keys a JavaScript object by the string "x,y"; here an
 * open-addressing hash table keyed by the integer pair, with linear probing
 * and tombstones.  A bounding box of every key ever set lets the grid loops
 * skip the lookup for points that cannot have an entry.
 */
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

#define SLOT_EMPTY 0x00u
#define SLOT_TOMB 0xFFu

struct rt_placed {
    uint64_t cap;      /* power of two, or 0 before the first insertion */
    int64_t count;     /* live entries */
    int64_t used;      /* live entries + tombstones */
    int64_t *keys;     /* 2*cap: x, y */
    uint8_t *vals;     /* cap: SLOT_EMPTY, SLOT_TOMB or a value */
    int64_t xmin, xmax, ymin, ymax; /* bounding box of keys ever set */
};

static uint64_t hash_xy(int64_t x, int64_t y)
{
    /* splitmix64 finaliser over both coordinates */
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15u ^ ((uint64_t)y + 0x632BE59BD9B4E019u);
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBu;
    h ^= h >> 31;
    return h;
}

static int valid_value(uint8_t v)
{
    if (RT_PLACED_IS_TERRAIN(v)) return RT_PLACED_CODE(v) < RT_TERRAIN_TYPE_COUNT;
    if (RT_PLACED_IS_FEATURE(v)) return RT_PLACED_CODE(v) < RT_FEATURE_COUNT;
    return 0;
}

rt_placed *rt_placed_new(void)
{
    rt_placed *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->xmin = p->ymin = INT64_MAX;
    p->xmax = p->ymax = INT64_MIN;
    return p;
}

void rt_placed_free(rt_placed *p)
{
    if (!p) return;
    free(p->keys);
    free(p->vals);
    free(p);
}

rt_placed *rt_placed_clone(const rt_placed *p)
{
    rt_placed *q = rt_placed_new();
    if (!q || !p) return q;
    *q = *p;
    q->keys = NULL;
    q->vals = NULL;
    if (p->cap) {
        q->keys = malloc(p->cap * 2 * sizeof *q->keys);
        q->vals = malloc(p->cap);
        if (!q->keys || !q->vals) {
            rt_placed_free(q);
            return NULL;
        }
        memcpy(q->keys, p->keys, p->cap * 2 * sizeof *q->keys);
        memcpy(q->vals, p->vals, p->cap);
    }
    return q;
}

/* Slot of (x, y), or of the first free slot on its probe path (-1: full). */
static int64_t find_slot(const rt_placed *p, int64_t x, int64_t y, int *found)
{
    uint64_t mask = p->cap - 1;
    uint64_t i = hash_xy(x, y) & mask;
    int64_t first_free = -1;
    *found = 0;
    for (uint64_t n = 0; n < p->cap; n++, i = (i + 1) & mask) {
        uint8_t v = p->vals[i];
        if (v == SLOT_EMPTY) return first_free >= 0 ? first_free : (int64_t)i;
        if (v == SLOT_TOMB) {
            if (first_free < 0) first_free = (int64_t)i;
        } else if (p->keys[2 * i] == x && p->keys[2 * i + 1] == y) {
            *found = 1;
            return (int64_t)i;
        }
    }
    return first_free;
}

static rt_status rehash(rt_placed *p, uint64_t new_cap)
{
    int64_t *keys = malloc(new_cap * 2 * sizeof *keys);
    uint8_t *vals = calloc(new_cap, 1);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return RT_ERR_NOMEM;
    }
    rt_placed old = *p;
    p->keys = keys;
    p->vals = vals;
    p->cap = new_cap;
    p->used = p->count;
    for (uint64_t i = 0; i < old.cap; i++) {
        uint8_t v = old.vals[i];
        if (v == SLOT_EMPTY || v == SLOT_TOMB) continue;
        int found;
        int64_t s = find_slot(p, old.keys[2 * i], old.keys[2 * i + 1], &found);
        p->keys[2 * s] = old.keys[2 * i];
        p->keys[2 * s + 1] = old.keys[2 * i + 1];
        p->vals[s] = v;
    }
    free(old.keys);
    free(old.vals);
    return RT_OK;
}

rt_status rt_placed_set(rt_placed *p, int64_t x, int64_t y, uint8_t value)
{
    if (!p) return RT_ERR_NULL;
    if (!valid_value(value)) return RT_ERR_PLACED_VALUE;
    /* keep the load (with tombstones) at most one half */
    if ((uint64_t)(p->used + 1) * 2 > p->cap) {
        /* after the rehash the live entries fill at most a quarter */
        uint64_t cap = 16;
        while ((uint64_t)(p->count + 1) * 4 > cap) cap *= 2;
        rt_status s = rehash(p, cap);
        if (s != RT_OK) return s;
    }
    int found;
    int64_t s = find_slot(p, x, y, &found);
    if (!found) {
        if (p->vals[s] == SLOT_EMPTY) p->used++;
        p->count++;
        p->keys[2 * s] = x;
        p->keys[2 * s + 1] = y;
        if (x < p->xmin) p->xmin = x;
        if (x > p->xmax) p->xmax = x;
        if (y < p->ymin) p->ymin = y;
        if (y > p->ymax) p->ymax = y;
    }
    p->vals[s] = value;
    return RT_OK;
}

uint8_t rt_placed_get(const rt_placed *p, int64_t x, int64_t y)
{
    if (!p || p->count == 0) return 0;
    if (x < p->xmin || x > p->xmax || y < p->ymin || y > p->ymax) return 0;
    int found;
    int64_t s = find_slot(p, x, y, &found);
    return found ? p->vals[s] : 0;
}

int rt_placed_remove(rt_placed *p, int64_t x, int64_t y)
{
    if (!p || p->count == 0) return 0;
    int found;
    int64_t s = find_slot(p, x, y, &found);
    if (!found) return 0;
    p->vals[s] = SLOT_TOMB;
    p->count--;
    return 1;
}

int64_t rt_placed_remove_all(rt_placed *p, uint8_t value)
{
    if (!p || !valid_value(value)) return 0;
    int64_t n = 0;
    for (uint64_t i = 0; i < p->cap; i++) {
        if (p->vals[i] == value) {
            p->vals[i] = SLOT_TOMB;
            n++;
        }
    }
    p->count -= n;
    return n;
}

int64_t rt_placed_count(const rt_placed *p) { return p ? p->count : 0; }

int64_t rt_placed_count_value(const rt_placed *p, uint8_t value)
{
    int64_t n = 0;
    for (uint64_t i = 0; p && i < p->cap; i++) n += p->vals[i] == value;
    return value == SLOT_EMPTY || value == SLOT_TOMB ? 0 : n;
}

int64_t rt_placed_items(const rt_placed *p, int64_t *xs, int64_t *ys,
                        uint8_t *values, int64_t cap)
{
    int64_t n = 0;
    if (!p) return 0;
    for (uint64_t i = 0; i < p->cap && n < cap; i++) {
        uint8_t v = p->vals[i];
        if (v == SLOT_EMPTY || v == SLOT_TOMB) continue;
        if (xs) xs[n] = p->keys[2 * i];
        if (ys) ys[n] = p->keys[2 * i + 1];
        if (values) values[n] = v;
        n++;
    }
    return n;
}

int rt__placed_near(const rt_placed *p, int64_t x0, int64_t x1, int64_t y)
{
    if (!p || p->count == 0) return 0;
    return !(x1 < p->xmin || x0 > p->xmax || y < p->ymin || y > p->ymax);
}
