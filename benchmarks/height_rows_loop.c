/*
 * height_rows_loop.c - the AVX-512 any-step height rows' inner loop as the
 * kernel runs it (csrc/simd/point_rows_avx512.h: one window for sixteen
 * columns, j and RD(j + 1.5*2^52) by fused multiply-adds, jfrac by
 * vreducepd, four directions unrolled), one row at a time (ROWS=1,
 * px_row_ax) or two rows sharing each window (ROWS=2, px_row_ax2), alone
 * on data in the L1 cache (docs/performance/speed.md, "the night's runs
 * (2026-11-28)").
 * Not the kernel: its values are not checked, only its time.
 *
 *     for r in 1 2; do cc -O2 -mavx512f -mavx512dq -mavx512vl -mfma -DROWS=$r \
 *         benchmarks/height_rows_loop.c -o /tmp/hrl_$r; done
 *     for k in 1 2 3 4 5 6 7 8; do taskset -c 1 /tmp/hrl_1; taskset -c 1 /tmp/hrl_2; done
 *
 * Prints cycles per direction, sixteen columns and row at 3.57 GHz
 * (benchmarks/op_throughput.c measures the clock); the fastest of 15 runs
 * of 2048 x 2048 points.  This VM's other tenants move single runs by up
 * to 30 %: compare the fastest of several alternate runs.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifndef ROWS
#define ROWS 2
#endif
#define RD (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double win[256 * 16] __attribute__((aligned(64)));
typedef struct { double a7, by7[2]; uint32_t off; } dir;
static inline __m512d add1(__m512d a, __m512d b) { return _mm512_fmadd_pd(a, _mm512_set1_pd(1.0), b); }
static inline __m512d add1_down(__m512d a, __m512d b) { return _mm512_fmadd_round_pd(a, _mm512_set1_pd(1.0), b, RD); }
/* the term of eight columns: j, its window index q, the window wp, wd */
static inline __m512d term(__m512d j, __m512d q, __m512d wp, __m512d wd)
{
    const __m512i qb = _mm512_castpd_si512(q);
    return _mm512_fmadd_pd(_mm512_reduce_pd(j, RD), _mm512_permutexvar_pd(qb, wd), _mm512_permutexvar_pd(qb, wp));
}
__attribute__((noinline)) static void rows(const dir *dd, const double *ax, int64_t n16, double *out)
{
    const __m512d magic = _mm512_set1_pd(6755399441055744.0);
    for (int64_t c = 0; c < n16; c += 16) {
        __m512d h[ROWS][2];
        for (int r = 0; r < ROWS; r++) h[r][0] = h[r][1] = _mm512_setzero_pd();
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++) {
            const __m512d ax0 = _mm512_loadu_pd(ax + i * n16 + c), ax1 = _mm512_loadu_pd(ax + i * n16 + c + 8);
            const double *row = NULL;
            __m512d wp = _mm512_setzero_pd(), wd = wp;
#pragma GCC unroll 2
            for (int r = 0; r < ROWS; r++) {
                const __m512d by = _mm512_set1_pd(dd[i].by7[r]);
                const __m512d j0 = add1(ax0, by), j1 = add1(ax1, by);
                const __m512d q0 = add1_down(j0, magic), q1 = add1_down(j1, magic);
                if (r == 0) { /* the window of row 0's lane 0 serves every row */
                    row = win + ((size_t)((_mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_castpd_si512(q0))) - dd[i].off) & 255) << 4);
                    wp = _mm512_loadu_pd(row);
                    wd = _mm512_loadu_pd(row + 8);
                }
                h[r][0] = _mm512_add_pd(h[r][0], term(j0, q0, wp, wd));
                h[r][1] = _mm512_add_pd(h[r][1], term(j1, q1, wp, wd));
            }
        }
        for (int r = 0; r < ROWS; r++) {
            _mm512_storeu_pd(out + r * n16 + c, h[r][0]);
            _mm512_storeu_pd(out + r * n16 + c + 8, h[r][1]);
        }
    }
}
int main(int argc, char **argv)
{
    (void)argc;
    const int64_t n = 2048;
    const double step = 0.37;
    for (int k = 0; k < 256 * 16; k++) win[k] = k % 7;
    const int A[4] = {13, 21, 22, 29}, B[4] = {26, 21, 11, 1};
    dir d[4];
    double *ax = aligned_alloc(64, 4 * n * 8), *out = aligned_alloc(64, ROWS * n * 8);
    for (int i = 0; i < 4; i++) {
        d[i].a7 = A[i] / 128.0;
        for (int r = 0; r < 2; r++) d[i].by7[r] = B[i] * (5318.0 + r * step) / 128.0;
        d[i].off = 0;
        for (int64_t c = 0; c < n; c++) ax[i * n + c] = d[i].a7 * (23396 + c * step);
    }
    double best = 1e9;
    for (int k = 0; k < 15; k++) {
        const double t = now();
        for (int64_t y = 0; y < 2048 / ROWS; y++) {
            d[0].by7[0] += 1e-3;
            rows(d, ax, n, out);
        }
        if (now() - t < best) best = now() - t;
    }
    printf("%s: %.2f cycles per direction, sixteen columns and row (%d row%s a window)\n", argv[0],
           best * 3.57e9 / (2048.0 * 2048 / 16 * 4), ROWS, ROWS > 1 ? "s" : "");
    free(ax);
    free(out);
    return 0;
}
