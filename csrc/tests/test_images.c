/*
 * test_images.c - images.c against the plain loops they replace: the
 * non-zero bytes of masks of every density and length around 8, and the
 * palette scanlines (colours in order of first appearance, 4 and 8 bits,
 * odd widths, more than 256 colours refused).
 */
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

static void test_nonzero(void)
{
    uint64_t s = 11;
    static const int64_t lengths[] = {0, 1, 7, 8, 9, 63, 64, 65, 1001};
    static const unsigned per1024[] = {0, 10, 512, 1024};
    uint8_t d[1001];
    int64_t got[1001], want[1001];
    for (size_t a = 0; a < sizeof lengths / sizeof *lengths; a++)
        for (size_t b = 0; b < sizeof per1024 / sizeof *per1024; b++) {
            const int64_t n = lengths[a];
            int64_t m = 0;
            for (int64_t k = 0; k < n; k++) {
                d[k] = next(&s) % 1024 < per1024[b] ? (uint8_t)(1 + next(&s) % 255) : 0;
                if (d[k]) want[m++] = k;
            }
            CHECK(rt_count_nonzero_u8(d, n) == m);
            CHECK(rt_flat_nonzero_u8(d, n, got, m) == m);
            CHECK(m == 0 || memcmp(got, want, (size_t)m * sizeof *got) == 0);
            /* a smaller cap: the first ones */
            if (m > 1) {
                CHECK(rt_flat_nonzero_u8(d, n, got, m - 1) == m - 1);
                CHECK(memcmp(got, want, (size_t)(m - 1) * sizeof *got) == 0);
            }
        }
    CHECK(rt_count_nonzero_u8(NULL, 5) == 0);
}

/* rt_palette_index and rt_palette_rows on an image of w x h pixels with
 * colours drawn from `ncol` */
static void check_palette(int64_t w, int64_t h, int ncol, uint64_t seed)
{
    uint64_t s = seed;
    const int64_t total = w * h;
    uint8_t *rgb = calloc((size_t)(3 * total + 1), 1), *idx = calloc((size_t)total + 1, 1);
    uint8_t *rows = malloc((size_t)(h * (w + 1)) + 1), colours[768];
    uint32_t choice[300];
    for (int c = 0; c < ncol; c++) choice[c] = (uint32_t)next(&s) & 0xFFFFFFu;
    for (int64_t k = 0; k < total; k++) {
        const uint32_t v = choice[next(&s) % (uint64_t)ncol];
        rgb[3 * k] = (uint8_t)v, rgb[3 * k + 1] = (uint8_t)(v >> 8), rgb[3 * k + 2] = (uint8_t)(v >> 16);
    }
    int n = -1;
    const rt_status st = rt_palette_index(rgb, total, idx, colours, &n);
    /* the palette by a plain search: first appearances in order */
    uint32_t pal[300];
    int m = 0, over = 0;
    for (int64_t k = 0; k < total && !over; k++) {
        const uint32_t v = (uint32_t)rgb[3 * k] | (uint32_t)rgb[3 * k + 1] << 8 | (uint32_t)rgb[3 * k + 2] << 16;
        int i = 0;
        while (i < m && pal[i] != v) i++;
        if (i == m) {
            if (m == 256) {
                over = 1;
                break;
            }
            pal[m++] = v;
        }
        CHECK(idx[k] == i);
    }
    if (over) {
        CHECK(st == RT_ERR_PARAM);
        CHECK(n == 257);
    } else {
        CHECK(st == RT_OK);
        CHECK(n == m);
        for (int i = 0; i < m; i++) {
            CHECK(colours[3 * i] == (uint8_t)pal[i]);
            CHECK(colours[3 * i + 1] == (uint8_t)(pal[i] >> 8));
            CHECK(colours[3 * i + 2] == (uint8_t)(pal[i] >> 16));
        }
        const int bits = m <= 16 ? 4 : 8;
        const int64_t rb = rt_palette_row_bytes(w, bits);
        CHECK(rb == 1 + (bits == 4 ? (w + 1) / 2 : w));
        CHECK(rt_palette_rows(idx, w, h, bits, rows) == RT_OK);
        for (int64_t y = 0; y < h; y++) {
            CHECK(rows[y * rb] == 0);
            for (int64_t x = 0; x < w; x++) {
                const uint8_t byte = rows[y * rb + 1 + (bits == 4 ? x / 2 : x)];
                const uint8_t got = bits == 8 ? byte : (x % 2 ? byte & 15 : byte >> 4);
                CHECK(got == idx[y * w + x]);
            }
            if (bits == 4 && w % 2) CHECK((rows[y * rb + rb - 1] & 15) == 0);
        }
    }
    free(rgb);
    free(idx);
    free(rows);
}

void test_images(void)
{
    test_nonzero();
    check_palette(0, 0, 1, 1);
    check_palette(1, 1, 1, 2);
    check_palette(7, 3, 5, 3);    /* 4 bits, odd width */
    check_palette(8, 4, 16, 4);   /* 4 bits, at most 16 */
    check_palette(33, 9, 17, 5);  /* 8 bits */
    check_palette(64, 64, 256, 6);
    check_palette(64, 64, 300, 7); /* more than 256: refused */
    CHECK(rt_palette_row_bytes(3, 5) == -1);
    uint8_t b[4] = {0};
    CHECK(rt_palette_rows(b, 1, 1, 5, b) == RT_ERR_PARAM);
    CHECK(rt_palette_index(NULL, 1, b, b, NULL) == RT_ERR_NULL);
}
