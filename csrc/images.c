/*
 * images.c - byte passes over the pictures of maps (SPEC 15): the flat
 * indices of a mask's non-zero bytes (the map's point features), and the
 * scanlines of an RGB image of at most 256 colours as a palette PNG's
 * (the PNG encoder then only compresses them).
 */
#include <string.h>

#include "relfterrain.h"

int64_t rt_count_nonzero_u8(const uint8_t *d, int64_t n)
{
    if (!d || n <= 0) return 0;
    int64_t count = 0, k = 0;
    /* eight zero bytes skipped at a time: the masks are sparse */
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, d + k, 8);
        if (w)
            for (int i = 0; i < 8; i++) count += d[k + i] != 0;
    }
    for (; k < n; k++) count += d[k] != 0;
    return count;
}

int64_t rt_flat_nonzero_u8(const uint8_t *d, int64_t n, int64_t *out, int64_t cap)
{
    if (!d || !out || n <= 0 || cap <= 0) return 0;
    int64_t m = 0, k = 0;
    for (; k + 8 <= n && m < cap; k += 8) {
        uint64_t w;
        memcpy(&w, d + k, 8);
        if (w)
            for (int i = 0; i < 8 && m < cap; i++)
                if (d[k + i]) out[m++] = k + i;
    }
    for (; k < n && m < cap; k++)
        if (d[k]) out[m++] = k;
    return m;
}

rt_status rt_palette_index(const uint8_t *rgb, int64_t total, uint8_t *idx, uint8_t *colours,
                           int *ncolours)
{
    if (!rgb || !idx || !colours || !ncolours) return RT_ERR_NULL;
    if (total < 0 || total > INT64_MAX / 3) return RT_ERR_SIZE;
    /* an exact hash of the 24-bit colours: 1024 slots, linear probing.
     * index_of[h]: the palette index of the colour in slot h; a pixel whose
     * colour sits in its home slot (nearly all, after the first of each
     * colour) takes it without a branch that mispredicts at each change of
     * colour; the others probe and insert */
    uint32_t keys[1024];
    int16_t slot_of[1024];
    uint8_t index_of[1024];
    memset(slot_of, -1, sizeof slot_of);
    memset(index_of, 0, sizeof index_of);
    int n = 0;
    for (int64_t k = 0; k < total; k++) {
        uint32_t key;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (k + 1 < total) { /* four bytes read, the fourth dropped */
            memcpy(&key, rgb + 3 * k, 4);
            key &= 0xFFFFFFu;
        } else
#endif
        {
            key = (uint32_t)rgb[3 * k] | (uint32_t)rgb[3 * k + 1] << 8 |
                  (uint32_t)rgb[3 * k + 2] << 16;
        }
        uint32_t hsh = (key * 2654435761u) >> 22;
        if (slot_of[hsh] >= 0 && keys[hsh] == key) {
            idx[k] = index_of[hsh];
            continue;
        }
        while (slot_of[hsh] >= 0 && keys[hsh] != key) hsh = (hsh + 1) & 1023u;
        if (slot_of[hsh] < 0) {
            if (n == 256) {
                *ncolours = 257;
                return RT_ERR_PARAM;
            }
            keys[hsh] = key;
            colours[3 * n] = (uint8_t)key;
            colours[3 * n + 1] = (uint8_t)(key >> 8);
            colours[3 * n + 2] = (uint8_t)(key >> 16);
            index_of[hsh] = (uint8_t)n;
            slot_of[hsh] = (int16_t)n++;
        }
        idx[k] = index_of[hsh];
    }
    *ncolours = n;
    return RT_OK;
}

int64_t rt_palette_row_bytes(int64_t w, int bits)
{
    if (w < 0 || (bits != 4 && bits != 8)) return -1;
    return 1 + (bits == 4 ? w / 2 + w % 2 : w);
}

rt_status rt_palette_rows(const uint8_t *idx, int64_t w, int64_t h, int bits, uint8_t *rows)
{
    if (!idx || !rows) return RT_ERR_NULL;
    if (w < 0 || h < 0) return RT_ERR_SIZE;
    if (bits != 4 && bits != 8) return RT_ERR_PARAM;
    const int64_t row_bytes = rt_palette_row_bytes(w, bits);
    for (int64_t y = 0; y < h; y++) {
        uint8_t *row = rows + y * row_bytes;
        const uint8_t *src = idx + y * w;
        row[0] = 0; /* filter: none */
        if (bits == 8) {
            memcpy(row + 1, src, (size_t)w);
        } else {
            for (int64_t x = 0; x < w / 2; x++)
                row[1 + x] = (uint8_t)(src[2 * x] << 4 | (src[2 * x + 1] & 15));
            if (w % 2) row[row_bytes - 1] = (uint8_t)(src[w - 1] << 4);
        }
    }
    return RT_OK;
}
