/*
 * stream_limit.c - the streaming-store limit of a grid's outputs, for
 * bench_speed.py: the fastest one thread can write n points of the four
 * outputs of Terrain.grid (height and depth float64, terrain and feature
 * uint8: 18 bytes a point) with non-temporal stores, which write memory
 * without reading the lines first.  Nothing is computed: what is written is
 * a constant.  Built by bench_speed.py with the system's C compiler and
 * loaded with ctypes; x86-64 with SSE2 (baseline) only, elsewhere plain
 * stores (the limit is then that of ordinary stores).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* Writes every byte of the four arrays (n points each); the arrays must be
 * 16-byte aligned (NumPy's allocations of this size are). */
void stream_fill(double *h, double *d, uint8_t *t, uint8_t *f, size_t n)
{
#if defined(__x86_64__)
    const __m128d hv = _mm_set1_pd(300.0), dv = _mm_setzero_pd();
    const __m128i tv = _mm_set1_epi8(3), fv = _mm_setzero_si128();
    size_t k = 0;
    for (; k + 16 <= n; k += 16) {
        for (int q = 0; q < 16; q += 2) {
            _mm_stream_pd(h + k + q, hv);
            _mm_stream_pd(d + k + q, dv);
        }
        _mm_stream_si128((__m128i *)(void *)(t + k), tv);
        _mm_stream_si128((__m128i *)(void *)(f + k), fv);
    }
    for (; k < n; k++) {
        h[k] = 300.0;
        d[k] = 0.0;
        t[k] = 3;
        f[k] = 0;
    }
    _mm_sfence();
#else
    for (size_t k = 0; k < n; k++) {
        h[k] = 300.0;
        d[k] = 0.0;
    }
    memset(t, 3, n);
    memset(f, 0, n);
#endif
}
