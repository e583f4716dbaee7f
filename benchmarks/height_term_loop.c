/*
 * height_term_loop.c - the AVX-512 any-step height rows' inner loop
 * (csrc/simd/point_rows_avx512.h, px_row_ax with four directions) alone,
 * on data in the L1 cache, with parts of it taken out, to see what each
 * costs (docs/performance/speed.md, "What this CPU does differently").
 * Not the kernel: its values are not checked, only its time.
 *
 *     for v in "0 0 1" "1 0 1" "2 0 1" "0 1 1" "0 0 0"; do set -- $v
 *       cc -O2 -mavx512f -mavx512dq -mavx512vl -mfma -DJF=$1 -DROW=$2 -DPERM=$3 \
 *          benchmarks/height_term_loop.c -o /tmp/htl_$1$2$3 && /tmp/htl_$1$2$3; done
 *
 * JF: jfrac by vreducepd (0, the kernel's), by two fused operations (1),
 * or left out (2).  ROW: the window row from lane 0's index (0, the
 * kernel's) or one fixed row (1).  PERM: the two permutes (1, the
 * kernel's), none (0), or a mask and two blends (2).  Prints cycles per
 * direction and eight columns at 3.65 GHz (benchmarks/op_throughput.c
 * measures the clock).
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define RD (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
static double win[256*16] __attribute__((aligned(64)));
typedef struct { double a7, by7; uint32_t off; } dir;
static inline __m512d term(const dir *d, __m512d ax, const double *w, uint32_t wm) {
  const __m512d magic = _mm512_set1_pd(6755399441055744.0), one = _mm512_set1_pd(1.0);
  __m512d j = _mm512_add_pd(ax, _mm512_set1_pd(d->by7));
  __m512d qd = _mm512_add_round_pd(j, magic, RD);
#if JF == 0
  __m512d jfrac = _mm512_reduce_pd(j, RD);
#elif JF == 1
  __m512d jfrac = _mm512_fnmadd_pd(_mm512_fmsub_pd(qd, one, magic), one, j);
#else
  __m512d jfrac = j;
#endif
  __m512i qb = _mm512_castpd_si512(qd);
#if ROW == 0
  const double *row = w + ((size_t)((_mm_cvtsi128_si32(_mm512_castsi512_si128(qb)) - d->off) & wm) << 4);
#else
  const double *row = w;
#endif
#if PERM == 2
  const __mmask8 odd = _mm512_test_epi64_mask(qb, _mm512_set1_epi64(1));
  __m512d p0 = _mm512_mask_blend_pd(odd, _mm512_set1_pd(row[0]), _mm512_set1_pd(row[1]));
  __m512d dd = _mm512_mask_blend_pd(odd, _mm512_set1_pd(row[2]), _mm512_set1_pd(row[3]));
#elif PERM
  __m512d p0 = _mm512_permutexvar_pd(qb, _mm512_loadu_pd(row));
  __m512d dd = _mm512_permutexvar_pd(qb, _mm512_loadu_pd(row + 8));
#else
  __m512d p0 = _mm512_castsi512_pd(_mm512_xor_si512(qb, _mm512_loadu_si512(row))), dd = _mm512_loadu_pd(row + 8);
#endif
  return _mm512_fmadd_pd(jfrac, dd, p0);
}
__attribute__((noinline)) void rowk(const dir *dd, const double *ax, int64_t n16, double *out) {
  for (int64_t c = 0; c < n16; c += 16) {
    __m512d h0 = _mm512_setzero_pd(), h1 = h0;
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
      h0 = _mm512_add_pd(h0, term(&dd[i], _mm512_loadu_pd(ax + i * n16 + c), win, 255));
      h1 = _mm512_add_pd(h1, term(&dd[i], _mm512_loadu_pd(ax + i * n16 + c + 8), win, 255));
    }
    _mm512_storeu_pd(out + c, h0); _mm512_storeu_pd(out + c + 8, h1);
  }
}
int main(int argc, char **argv) {
  int64_t n = 2048; double step = 0.37;
  for (int k = 0; k < 256*16; k++) win[k] = k % 7;
  int A[4] = {13, 21, 22, 29}, B[4] = {26, 21, 11, 1};
  dir d[4]; double *ax = aligned_alloc(64, 4 * n * 8), *out = aligned_alloc(64, n * 8 * 2);
  for (int i = 0; i < 4; i++) { d[i].a7 = A[i] / 128.0; d[i].by7 = B[i] * 5318.0 / 128.0; d[i].off = 0;
    for (int64_t c = 0; c < n; c++) ax[i * n + c] = d[i].a7 * (23396 + c * step); }
  int64_t rows = 2048L * 2048 / n; double best = 1e9;
  for (int r = 0; r < 9; r++) { double t = now(); for (int64_t y = 0; y < rows; y++) { d[0].by7 += 1e-3; rowk(d, ax, n, out); } t = now() - t; if (t < best) best = t; }
  printf("%s: %.2f cycles per dir-8\n", argv[0], best * 3.65e9 / (2048.0*2048/8*4));
  return 0; }
