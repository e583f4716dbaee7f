/*
 * op_throughput.c - how many 512-bit operations of each kind a core issues
 * a cycle, alone and in pairs (the point path's height rows are made of
 * these: docs/performance/speed.md, "What this CPU does differently").
 *
 *     cc -O2 -mavx512f -mavx512dq -mavx512vl -mfma benchmarks/op_throughput.c -o /tmp/ops && /tmp/ops
 *
 * Each line times 10^8 operations of one kind (and 10^8 of another, for a
 * pair) on sixteen independent chains, and prints nanoseconds per step of
 * one operation of each kind; the first line times dependent integer adds,
 * one a cycle, for the clock.  A pair that takes the time of one of its
 * operations runs on separate pipes; one that takes the sum shares them.
 * Not a test and not portable: x86-64 with AVX-512 (F, DQ, VL) and FMA.
 */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N 100000000L
double buf[64] __attribute__((aligned(64)));
#define PERM(x) x=_mm512_permutexvar_pd(_mm512_castpd_si512(x),x)
#define PERMIL(x) x=_mm512_permutevar_pd(x,_mm512_castpd_si512(x))
#define BLEND(x) x=_mm512_mask_blend_pd(_mm512_test_epi64_mask(_mm512_castpd_si512(x),idx),x,a0)
#define BLENDK(x) x=_mm512_mask_blend_pd(k,x,a0)
#define ADD(x) x=_mm512_add_pd(x,a0)
#define FMA(x) x=_mm512_fmadd_pd(x,a0,a0)
#define ADDRD(x) x=_mm512_add_round_pd(x,a0,_MM_FROUND_TO_NEG_INF|_MM_FROUND_NO_EXC)
#define RED(x) x=_mm512_reduce_pd(x,9)
#define CVT(x) x=_mm512_castsi512_pd(_mm512_cvt_roundpd_epi64(x,_MM_FROUND_TO_NEG_INF|_MM_FROUND_NO_EXC))
#define TEST(x) k=_mm512_test_epi64_mask(_mm512_castpd_si512(x),idx)
#define SLL(x) x=_mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(x),1))
#define MOVD(x) x=_mm512_castsi512_pd(_mm512_castsi128_si512(_mm_cvtsi32_si128(_mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_castpd_si512(x))))))
#define DEF(NAME, OPA, OPB) double NAME(__m512d a0){ __m512d x0=a0,x1=a0,x2=a0,x3=a0,x4=a0,x5=a0,x6=a0,x7=a0,y0=a0,y1=a0,y2=a0,y3=a0,y4=a0,y5=a0,y6=a0,y7=a0; __asm__ volatile("":"+v"(x0),"+v"(x1),"+v"(x2),"+v"(x3),"+v"(x4),"+v"(x5),"+v"(x6),"+v"(x7)); __asm__ volatile("":"+v"(y0),"+v"(y1),"+v"(y2),"+v"(y3),"+v"(y4),"+v"(y5),"+v"(y6),"+v"(y7)); __m512i idx=_mm512_castpd_si512(a0); __mmask8 k=3; \
 for(long i=0;i<N/8;i++){ OPA(x0);OPB(y0);OPA(x1);OPB(y1);OPA(x2);OPB(y2);OPA(x3);OPB(y3);OPA(x4);OPB(y4);OPA(x5);OPB(y5);OPA(x6);OPB(y6);OPA(x7);OPB(y7); __asm__ volatile(""::"v"(idx),"k"(k));} \
 __m512d s=_mm512_add_pd(_mm512_add_pd(_mm512_add_pd(x0,x1),_mm512_add_pd(x2,x3)),_mm512_add_pd(_mm512_add_pd(x4,x5),_mm512_add_pd(x6,x7))); s=_mm512_add_pd(s,_mm512_add_pd(_mm512_add_pd(_mm512_add_pd(y0,y1),_mm512_add_pd(y2,y3)),_mm512_add_pd(_mm512_add_pd(y4,y5),_mm512_add_pd(y6,y7)))); return _mm512_reduce_add_pd(s);}
#define NOP(x) (void)0
DEF(perm_, PERM, NOP) DEF(perm_perm, PERM, PERM) DEF(perm_add, PERM, ADD) DEF(perm_fma, PERM, FMA) DEF(perm_addrd, PERM, ADDRD) DEF(perm_red, PERM, RED)
DEF(addrd_red, ADDRD, RED) DEF(addrd_add, ADDRD, ADD) DEF(addrd_fma, ADDRD, FMA) DEF(red_add, RED, ADD) DEF(red_fma, RED, FMA) DEF(add_fma, ADD, FMA) DEF(add_add, ADD, ADD)
DEF(permil_, PERMIL, NOP) DEF(permil_permil, PERMIL, PERMIL) DEF(permil_add, PERMIL, ADD) DEF(permil_perm, PERMIL, PERM) DEF(blendk_, BLENDK, NOP) DEF(blendk_add, BLENDK, ADD) DEF(blendk_perm, BLENDK, PERM) DEF(blendk_fma, BLENDK,FMA)
DEF(test_, TEST, NOP) DEF(test_perm, TEST, PERM) DEF(test_add, TEST, ADD) DEF(cvt_, CVT, NOP) DEF(cvt_perm, CVT, PERM) DEF(cvt_add, CVT, ADD) DEF(sll_, SLL, NOP) DEF(sll_perm, SLL, PERM) DEF(sll_add, SLL, ADD) DEF(movd_, MOVD, NOP) DEF(movd_perm, MOVD, PERM) DEF(movd_add,MOVD,ADD) DEF(red_, RED, NOP)
__attribute__((noinline)) long chain(long a){ for(long i=0;i<N;i++){ __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0":"+r"(a)); } return a; }
int main(){ {double t=now(); volatile long r=chain(1); (void)r; t=now()-t; printf("clock ~ %.2f GHz (4 dependent adds an iteration)\n", 4.0*N/t/1e9);} __m512d a=_mm512_set1_pd(1e-300);
 struct {const char*n; double(*f)(__m512d);} fs[]={
#define E(f) {#f, f},
 E(perm_) E(perm_perm) E(perm_add) E(perm_fma) E(perm_addrd) E(perm_red) E(addrd_red) E(addrd_add) E(addrd_fma) E(red_) E(red_add) E(red_fma) E(add_fma) E(add_add)
 E(permil_) E(permil_permil) E(permil_add) E(permil_perm) E(blendk_) E(blendk_add) E(blendk_perm) E(blendk_fma) E(test_) E(test_perm) E(test_add) E(cvt_) E(cvt_perm) E(cvt_add) E(sll_) E(sll_perm) E(sll_add) E(movd_) E(movd_perm) E(movd_add)};
 for(unsigned k=0;k<sizeof fs/sizeof fs[0];k++){double t=now(); volatile double s=fs[k].f(a); t=now()-t; (void)s; printf("%-16s %.3f ns a step\n", fs[k].n, t / N * 1e9);} }
