/*
 * planet.c - terrain on a spherical planet (SPEC 14).
 *
 * A point at latitude phi, longitude lam (degrees, converted as
 * deg * (pi/180)) on a sphere of radius R is x = R*cos(phi)*cos(lam),
 * y = R*cos(phi)*sin(lam), z = R*sin(phi) (fdlibm sin/cos, left to right).
 * Height is calcHeight with a third term (rt__sum3); terrain kinds are the
 * classic rules of SPEC 5 with three-vector calcProf at the unrounded point.
 * The generator never sees latitude or longitude, only x, y, z, so nothing
 * is singular at the poles and there is no seam (the seed's point).
 *
 * Point features (the project's choice, "where integer rings of two
 * coordinates cross"): at the rounded point (xr, yr, zr), the two rings are
 * those of the two coordinates other than the largest in magnitude (ties go
 * to the later axis), which cross at a good angle there; with u, w those two
 * coordinates, SPEC 5's test runs on uw = u*w with
 * a = calcProf3(B2, A3, C3) at (xr, yr, zr):
 * f = toint32(round_js(a*uw/128)) & feature_mask, f == 4 by uw & 0xff
 * (MINE < 32, BOULDER < 128, WATERHOLE < 160, KNOLL < 200, else ROOT),
 * f == 8 and round(PI1000*uw) & 0xff < 4: X, f == 16 and
 * round(PI10000*uw) & 0xff < 8: CONE.
 */
#include <math.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_space.h"

#define DEG (RT_PI / 180.0)

/* Sums at planet points, as rt__sum3 and rt__prof3 compute them, without a
 * branch on the sign of each direction's sum: on a sphere the sums change
 * sign from point to point, and the floor's `r > v` branch was mispredicted
 * about every other time (most of a map's time, measured).  A planet point
 * has |x|, |y|, |z| <= radius <= 2^26 and |vector| <= 2^20, so every sum is
 * below 2^49 in magnitude: the int64 truncation is exact and floor(v) is the
 * truncation minus (truncation > v), a flag. */
static inline int64_t ifloor(double v)
{
    int64_t i = (int64_t)v;
    return i - ((double)i > v);
}

static inline double sum3(const double *P, uint32_t mask, const double *A, const double *B,
                          const double *C, uint32_t n, double x, double y, double z)
{
    double ht = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double j = (A[i] * x + B[i] * y + C[i] * z) * RT_RECIP128;
        int64_t q = ifloor(j);
        double jfrac = j - (double)q;
        /* low32(jint) and low32(jint + 1) of rt__sum3, masked */
        double p0 = P[(uint32_t)rt__u64(q) & mask];
        double p1 = P[(uint32_t)rt__u64(q + 1) & mask];
        ht += p0 + jfrac * (p1 - p0);
    }
    return ht;
}

static inline double prof3(const double *P, uint32_t mask, const double *A, const double *B,
                           const double *C, uint32_t n, double x, double y, double z)
{
    double s = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        /* floor(floor(v) / 128) modulo the profile length: the shift */
        s += P[(rt__u64(ifloor(A[i] * x + B[i] * y + C[i] * z)) >> 7) & mask];
    }
    return s;
}

/* round_js without a branch on the fraction. */
static inline double round_js(double v)
{
    double r = (double)ifloor(v);
    return r + (double)(v - r >= 0.5);
}

/* The default third vectors: the project's choice (see relfterrain.h). */
static const int32_t THIRD[4][RT_CLASSIC_DIRECTIONS] = {
    {RT_PLANET_CH_DEFAULT},
    {RT_PLANET_C1_DEFAULT},
    {RT_PLANET_C2_DEFAULT},
    {RT_PLANET_C3_DEFAULT},
};

const int32_t *rt_planet_third_vector(int which)
{
    switch (which) {
    case RT_PLANET_CH: return THIRD[0];
    case RT_PLANET_C1: return THIRD[1];
    case RT_PLANET_C2: return THIRD[2];
    case RT_PLANET_C3: return THIRD[3];
    default: return NULL;
    }
}

void rt_planet_defaults(rt_planet *p)
{
    memset(p, 0, sizeof *p);
    p->profile = rt_classic_profile();
    p->profile_len = RT_CLASSIC_PROFILE_LEN;
    p->directions = RT_CLASSIC_DIRECTIONS;
    static const int classic[4][2] = {{RT_AH, RT_BH}, {RT_A1, RT_B1}, {RT_A2, RT_B2}, {RT_A3, RT_B3}};
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < RT_CLASSIC_DIRECTIONS; i++) {
            p->vec[3 * s][i] = (double)rt_classic_vector(classic[s][0])[i];
            p->vec[3 * s + 1][i] = (double)rt_classic_vector(classic[s][1])[i];
            p->vec[3 * s + 2][i] = (double)THIRD[s][i];
        }
    p->radius = 10000.0;
    p->lake_base = 204.0;
    p->lake_height = 204.0;
    p->feature_mask = 0xfff;
}

rt_status rt_planet_check(const rt_planet *p, int *bad_vector)
{
    if (!p) return RT_ERR_NULL;
    rt_status s = rt__check_profile(p->profile, p->profile_len);
    if (s != RT_OK) return s;
    if (p->directions < 1 || p->directions > RT_MAX_DIRECTIONS) return RT_ERR_VECTOR_LENGTH;
    for (int v = 0; v < RT_PLANET_VECTOR_COUNT; v++)
        if (!rt__vector_ok(p->vec[v], p->directions)) {
            if (bad_vector) *bad_vector = v;
            return RT_ERR_VECTOR_VALUE;
        }
    if (!(p->radius > 0.0) || !(p->radius <= RT_TERRAIN_DOMAIN)) return RT_ERR_PARAM;
    if (!isfinite(p->lake_base) || !isfinite(p->lake_height)) return RT_ERR_PARAM;
    return RT_OK;
}

int64_t rt_planet_key_y(int64_t yr, int64_t zr)
{
    /* |yr|, |zr| <= 2^26 + 1: yr * 2^28 + zr is unique and far inside int64 */
    return yr * ((int64_t)1 << 28) + zr;
}

/* The point feature at the rounded point, with calcProf3(B2, A3, C3) at the rounded point given in *pa
 * (NULL: computed here). */
static uint8_t feature_of_a(const rt_planet *p, double xr, double yr, double zr, const double *pa)
{
    const double co[3] = {xr, yr, zr};
    int big = 0;
    for (int k = 1; k < 3; k++)
        if (fabs(co[k]) >= fabs(co[big])) big = k;
    double u = big == 0 ? yr : xr, w = big == 2 ? yr : zr;
    double uw = u * w;
    double a = pa ? *pa
                  : prof3(p->profile, p->profile_len - 1, p->vec[RT_PLANET_B2],
                          p->vec[RT_PLANET_A3], p->vec[RT_PLANET_C3], p->directions, xr, yr, zr);
    uint32_t f = rt__low32(rt__round_js(a * uw * RT_RECIP128)) & p->feature_mask;
    if (f == 4) {
        uint32_t xyff = rt__low32(uw) & 0xffu;
        if (xyff < 32) return RT_MINE;
        if (xyff < 128) return RT_BOULDER;
        if (xyff < 160) return RT_WATERHOLE;
        if (xyff < 200) return RT_KNOLL;
        return RT_ROOT;
    }
    if (f == 8 && (rt__low32(rt__round_js(RT_PI1000 * uw)) & 0xffu) < 4) return RT_X;
    if (f == 16 && (rt__low32(rt__round_js(RT_PI10000 * uw)) & 0xffu) < 8) return RT_CONE;
    return RT_NONE;
}

/* terra at the Cartesian point (x, y, z) on the sphere; `pre`, when not
 * NULL, holds the height and the three vegetation sums, round_js of x, y
 * and z, and the feature's calcProf3 at the rounded point, computed
 * already (the map's SIMD rows), bit for bit those sum3, prof3 and
 * round_js give.  Always inlined: the map's SIMD rows call it with `pre`
 * set, and that specialisation is what they need (called, not inlined, it
 * cost a map 12 % more instructions). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void terra_xyz_pre(const rt_planet *p, double x, double y, double z, const double *pre,
                          double *height, double *depth, uint8_t *terrain, uint8_t *feature)
{
    const double *P = p->profile;
    const uint32_t mask = p->profile_len - 1, n = p->directions;
    const double(*V)[RT_MAX_DIRECTIONS] = p->vec;
    double ht = pre ? pre[0]
                    : sum3(P, mask, V[RT_PLANET_AH], V[RT_PLANET_BH], V[RT_PLANET_CH], n, x, y, z);
    double xr = pre ? pre[4] : round_js(x), yr = pre ? pre[5] : round_js(y);
    double zr = pre ? pre[6] : round_js(z);
    int placed_feature = -1;
    *depth = 0.0;
    *feature = RT_NONE;
    *height = ht;
    if (p->placed) {
        uint8_t pv = rt_placed_get(p->placed, (int64_t)xr, rt_planet_key_y((int64_t)yr, (int64_t)zr));
        if (RT_PLACED_IS_TERRAIN(pv)) {
            *height = ht > p->lake_height ? ht : p->lake_height;
            *terrain = (uint8_t)RT_PLACED_CODE(pv);
            return;
        }
        if (RT_PLACED_IS_FEATURE(pv)) placed_feature = (int)RT_PLACED_CODE(pv);
    }
    if (p->lake_height > ht) {
        *height = p->lake_height;
        *depth = p->lake_height - ht;
        *terrain = RT_LAKE;
        if (placed_feature >= 0) *feature = (uint8_t)placed_feature;
        return;
    }
    if (p->lake_base > ht) {
        *terrain = RT_MUD;
        if (placed_feature >= 0) *feature = (uint8_t)placed_feature;
        return;
    }
    if ((pre ? pre[1] : prof3(P, mask, V[RT_PLANET_A1], V[RT_PLANET_B1], V[RT_PLANET_C1], n, x, y,
                              z)) < 120.0) {
        *terrain = RT_TOWN;
        return;
    }
    *feature = placed_feature >= 0 ? (uint8_t)placed_feature
                                   : feature_of_a(p, xr, yr, zr, pre ? pre + 7 : NULL);
    double a = pre ? pre[2] : prof3(P, mask, V[RT_PLANET_A2], V[RT_PLANET_B2], V[RT_PLANET_C2], n, x, y, z);
    double b = pre ? pre[3] : prof3(P, mask, V[RT_PLANET_A3], V[RT_PLANET_B3], V[RT_PLANET_C3], n, x, y, z);
    if (a < 255.0)
        *terrain = b < 255.0 ? RT_GRASS : RT_MOOR;
    else
        *terrain = b < 200.0 ? RT_THICKET : RT_WOOD;
}

static void terra_xyz(const rt_planet *p, double x, double y, double z, double *height,
                      double *depth, uint8_t *terrain, uint8_t *feature)
{
    terra_xyz_pre(p, x, y, z, NULL, height, depth, terrain, feature);
}

void rt_planet_xyz(double radius, double lat, double lon, double *x, double *y, double *z)
{
    double phi = lat * DEG, lam = lon * DEG;
    double cphi = rt_cos(phi);
    *x = radius * cphi * rt_cos(lam);
    *y = radius * cphi * rt_sin(lam);
    *z = radius * rt_sin(phi);
}

typedef struct planet_job {
    const rt_planet *p;
    const double *lat, *lon;
    const rt_terra_out *out;
    double *ground;
    /* map */
    double cx, cy, cz, ex, ey, nx, ny, nz, step;
    int64_t cols, rows;
    uint8_t *visible;
    rt__watch *w;
    int simd; /* map: the rows' kernel (MAP_SCALAR, ...) */
    const uint8_t *bytes; /* map, MAP_VBMI: the profile as 256 bytes */
} planet_job;

/* the map rows: scalar; AVX2 sums with the classification scalar (a placed
 * table, or more than 8 directions on AVX2); terra in AVX2 or AVX-512
 * registers, the profile read by gathers or (VBMI) from bytes in registers */
enum { MAP_SCALAR, MAP_AVX2_PRE, MAP_AVX2, MAP_AVX512, MAP_VBMI };

static void store(const rt_terra_out *o, int64_t k, double h, double d, uint8_t t, uint8_t f)
{
    if (o->height) o->height[k] = h;
    if (o->depth) o->depth[k] = d;
    if (o->terrain) o->terrain[k] = t;
    if (o->feature) o->feature[k] = f;
}

static void point_range(void *ctx, int64_t begin, int64_t end)
{
    const planet_job *j = ctx;
    const rt_planet *p = j->p;
    const double(*V)[RT_MAX_DIRECTIONS] = p->vec;
    for (int64_t k = begin; k < end; k++) {
        double x, y, z, h, d;
        uint8_t t, f;
        rt_planet_xyz(p->radius, j->lat[k], j->lon[k], &x, &y, &z);
        if (j->ground)
            j->ground[k] = sum3(p->profile, p->profile_len - 1, V[RT_PLANET_AH],
                                V[RT_PLANET_BH], V[RT_PLANET_CH], p->directions, x, y, z);
        if (j->out) {
            terra_xyz(p, x, y, z, &h, &d, &t, &f);
            store(j->out, k, h, d, t, f);
        }
    }
}

static rt_status check_latlon(const double *lat, const double *lon, int64_t n)
{
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!lat || !lon)) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(lat[k]) || !isfinite(lon[k])) return RT_ERR_COORD;
    return RT_OK;
}

rt_status rt_planet_height_points(const rt_planet *p, const double *lat, const double *lon,
                                  int64_t n, double *out, int threads)
{
    rt_status s = rt_planet_check(p, NULL);
    if (s == RT_OK) s = check_latlon(lat, lon, n);
    if (s != RT_OK) return s;
    if (n > 0 && !out) return RT_ERR_NULL;
    planet_job j;
    memset(&j, 0, sizeof j);
    j.p = p;
    j.lat = lat;
    j.lon = lon;
    j.ground = out;
    rt_parallel_for(threads, n, point_range, &j);
    return RT_OK;
}

rt_status rt_planet_terra_points(const rt_planet *p, const double *lat, const double *lon,
                                 int64_t n, const rt_terra_out *out, int threads)
{
    rt_status s = rt_planet_check(p, NULL);
    if (s == RT_OK) s = check_latlon(lat, lon, n);
    if (s != RT_OK) return s;
    if (!out) return RT_ERR_NULL;
    planet_job j;
    memset(&j, 0, sizeof j);
    j.p = p;
    j.lat = lat;
    j.lon = lon;
    j.out = out;
    rt_parallel_for(threads, n, point_range, &j);
    return RT_OK;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PLANET_SIMD 1
#define PLANET_CHUNK 256 /* columns a SIMD pass */

/* The sphere points and the four sums of `nc` (a multiple of 4) columns
 * from c0 of a map row, four points a vector: the operations of map_rows,
 * sum3, prof3 and round_js in their order (every floor exact: |j| < 2^30
 * and |v| < 2^37, the caller's check).  pre[8k..8k+7] = height, a1, a2,
 * a3, xr, yr, zr and the feature's calcProf3 at (xr, yr, zr) of column k
 * (terra_xyz_pre); xyz[3k..3k+2] = x, y, z; rr[k] = R^2 - u^2 - w^2. */
__attribute__((target("avx2"))) static void map_chunk_avx2(const planet_job *j, double w,
                                                           int64_t c0, int nc, double *pre,
                                                           double *xyz, double *rrs)
{
    const rt_planet *p = j->p;
    const double *P = p->profile;
    const uint32_t n = p->directions;
    const double(*V)[RT_MAX_DIRECTIONS] = p->vec;
    const __m128i vmask = _mm_set1_epi32((int)(p->profile_len - 1)), one = _mm_set1_epi32(1);
    const __m256d r128 = _mm256_set1_pd(RT_RECIP128);
    const double R2 = p->radius * p->radius;
    const double hc = 0.5 * (double)(j->cols - 1);
    const __m256d vR2 = _mm256_set1_pd(R2), vw = _mm256_set1_pd(w), vstep = _mm256_set1_pd(j->step);
    const __m256d vhc = _mm256_set1_pd(hc);
    static const int sets[4][3] = {{RT_PLANET_AH, RT_PLANET_BH, RT_PLANET_CH},
                                   {RT_PLANET_A1, RT_PLANET_B1, RT_PLANET_C1},
                                   {RT_PLANET_A2, RT_PLANET_B2, RT_PLANET_C2},
                                   {RT_PLANET_A3, RT_PLANET_B3, RT_PLANET_C3}};
    for (int k = 0; k < nc; k += 4) {
        const double c = (double)(c0 + k);
        const __m256d ci = _mm256_setr_pd(c, c + 1.0, c + 2.0, c + 3.0);
        const __m256d u = _mm256_mul_pd(_mm256_sub_pd(ci, vhc), vstep);
        const __m256d rr = _mm256_sub_pd(_mm256_sub_pd(vR2, _mm256_mul_pd(u, u)), _mm256_mul_pd(vw, vw));
        if (_mm256_movemask_pd(_mm256_cmp_pd(rr, _mm256_setzero_pd(), _CMP_GE_OQ)) == 0) {
            _mm256_storeu_pd(rrs + k, rr); /* all four outside the disc */
            continue;
        }
        /* outside the disc: any d (the sums are not used) */
        const __m256d d = _mm256_sqrt_pd(_mm256_max_pd(_mm256_setzero_pd(), rr));
        const __m256d x = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(j->ex)), _mm256_mul_pd(vw, _mm256_set1_pd(j->nx))),
            _mm256_mul_pd(d, _mm256_set1_pd(j->cx)));
        const __m256d y = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(u, _mm256_set1_pd(j->ey)), _mm256_mul_pd(vw, _mm256_set1_pd(j->ny))),
            _mm256_mul_pd(d, _mm256_set1_pd(j->cy)));
        const __m256d z =
            _mm256_add_pd(_mm256_mul_pd(vw, _mm256_set1_pd(j->nz)), _mm256_mul_pd(d, _mm256_set1_pd(j->cz)));
        __m256d sums[5];
        for (int s = 0; s < 4; s++) {
            const double *A = V[sets[s][0]], *B = V[sets[s][1]], *C = V[sets[s][2]];
            __m256d acc = _mm256_setzero_pd();
            for (uint32_t i = 0; i < n; i++) {
                const __m256d v = _mm256_add_pd(
                    _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(A[i]), x), _mm256_mul_pd(_mm256_set1_pd(B[i]), y)),
                    _mm256_mul_pd(_mm256_set1_pd(C[i]), z));
                if (s == 0) { /* sum3: interpolated */
                    const __m256d jv = _mm256_mul_pd(v, r128);
                    const __m256d q = _mm256_floor_pd(jv);
                    const __m256d jfrac = _mm256_sub_pd(jv, q);
                    const __m128i qi = _mm256_cvttpd_epi32(q);
                    const __m256d p0 = _mm256_i32gather_pd(P, _mm_and_si128(qi, vmask), 8);
                    const __m256d p1 =
                        _mm256_i32gather_pd(P, _mm_and_si128(_mm_add_epi32(qi, one), vmask), 8);
                    acc = _mm256_add_pd(acc, _mm256_add_pd(p0, _mm256_mul_pd(jfrac, _mm256_sub_pd(p1, p0))));
                } else { /* prof3: floor(floor(v) / 128) */
                    const __m256d q = _mm256_floor_pd(_mm256_mul_pd(_mm256_floor_pd(v), r128));
                    const __m128i qi = _mm256_cvttpd_epi32(q);
                    acc = _mm256_add_pd(acc, _mm256_i32gather_pd(P, _mm_and_si128(qi, vmask), 8));
                }
            }
            sums[s] = acc;
        }
        /* round_js of x, y, z: floor, plus one if the fraction is >= 0.5 */
        const __m256d half = _mm256_set1_pd(0.5), onepd = _mm256_set1_pd(1.0);
        __m256d rd[3];
        const __m256d co[3] = {x, y, z};
        for (int a = 0; a < 3; a++) {
            const __m256d f = _mm256_floor_pd(co[a]);
            rd[a] = _mm256_add_pd(f, _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(co[a], f), half, _CMP_GE_OQ), onepd));
        }
        { /* the feature's calcProf3(B2, A3, C3) at the rounded point */
            const double *A = V[RT_PLANET_B2], *B = V[RT_PLANET_A3], *C = V[RT_PLANET_C3];
            __m256d acc = _mm256_setzero_pd();
            for (uint32_t i = 0; i < n; i++) {
                const __m256d v = _mm256_add_pd(
                    _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(A[i]), rd[0]), _mm256_mul_pd(_mm256_set1_pd(B[i]), rd[1])),
                    _mm256_mul_pd(_mm256_set1_pd(C[i]), rd[2]));
                const __m256d q = _mm256_floor_pd(_mm256_mul_pd(_mm256_floor_pd(v), r128));
                acc = _mm256_add_pd(acc, _mm256_i32gather_pd(P, _mm_and_si128(_mm256_cvttpd_epi32(q), vmask), 8));
            }
            sums[4] = acc;
        }
        /* transpose to point order: pre[8(k + q) + s] */
        double tmp[8][4];
        for (int s = 0; s < 5; s++) _mm256_storeu_pd(tmp[s < 4 ? s : 7], sums[s]);
        for (int a = 0; a < 3; a++) _mm256_storeu_pd(tmp[4 + a], rd[a]);
        double xs[4], ys[4], zs[4];
        _mm256_storeu_pd(xs, x);
        _mm256_storeu_pd(ys, y);
        _mm256_storeu_pd(zs, z);
        _mm256_storeu_pd(rrs + k, rr);
        for (int q = 0; q < 4; q++) {
            for (int s = 0; s < 8; s++) pre[8 * (k + q) + s] = tmp[s][q];
            xyz[3 * (k + q)] = xs[q];
            xyz[3 * (k + q) + 1] = ys[q];
            xyz[3 * (k + q) + 2] = zs[q];
        }
    }
}

#include "simd/planet_avx2.h"
#define PA_TARGET "avx512f,avx512bw,avx512dq,avx512vl"
#define PA_NAME(f) f##_avx512
#define PA_BYTES 0
#include "simd/planet_avx512.h"
#undef PA_TARGET
#undef PA_NAME
#undef PA_BYTES
#define PA_TARGET "avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi"
#define PA_NAME(f) f##_vbmi
#define PA_BYTES 1
#include "simd/planet_avx512.h"
#undef PA_TARGET
#undef PA_NAME
#undef PA_BYTES

/* A byte profile: every value an integer in 0..255 and the length dividing
 * 256; *out gets it repeated to 256 entries (index & 255 then == index & mask). */
static int byte_profile(const rt_planet *p, uint8_t *out)
{
    if (p->profile_len > 256) return 0;
    for (uint32_t k = 0; k < p->profile_len; k++)
        if (!(p->profile[k] >= 0.0 && p->profile[k] <= 255.0 && p->profile[k] == rt__floor(p->profile[k])))
            return 0;
    for (uint32_t k = 0; k < 256; k++) out[k] = (uint8_t)p->profile[k & (p->profile_len - 1)];
    return 1;
}

/* The rows' kernel of this map: the variant p->simd resolves to, if every
 * sum is small enough that floor(j) and floor(floor(v)/128) convert to
 * int32 exactly (|v| < 2^37 with the radius bounding |x|, |y|, |z|); the
 * rows of terra in vector registers only without a placed table, the VBMI
 * rows only with a byte profile (then in *bytes). */
static int map_kernel(const rt_planet *p, uint8_t *bytes)
{
    const int v = rt_simd_resolve(p->simd);
    if (v != RT_SIMD_AVX2 && v != RT_SIMD_AVX512 && v != RT_SIMD_AVX512VBMI) return MAP_SCALAR;
    for (int s = 0; s < 4; s++)
        for (uint32_t i = 0; i < p->directions; i++) {
            double m = fabs(p->vec[3 * s][i]) + fabs(p->vec[3 * s + 1][i]) + fabs(p->vec[3 * s + 2][i]);
            if (!(m * p->radius * 1.001 < 137438953472.0)) return MAP_SCALAR; /* 2^37 */
        }
    if (p->placed) return MAP_AVX2_PRE;
    if (v == RT_SIMD_AVX2) return p->directions <= PV_DIRECTIONS ? MAP_AVX2 : MAP_AVX2_PRE;
    return v == RT_SIMD_AVX512VBMI && byte_profile(p, bytes) ? MAP_VBMI : MAP_AVX512;
}
#else
#define PLANET_SIMD 0
#endif

/* One point of a map by the seed's arithmetic: the scalar rows, and the
 * columns the SIMD rows leave (the same code, so the same bits). */
static void map_point(const planet_job *j, int64_t r, int64_t c, double w, double R2, double hc)
{
    const int64_t k = r * j->cols + c;
    const double u = ((double)c - hc) * j->step;
    const double rr = R2 - u * u - w * w;
    if (!(rr >= 0.0)) {
        store(j->out, k, NAN, NAN, RT_MAP_OUTSIDE, RT_NONE);
        if (j->visible) j->visible[k] = 0;
        return;
    }
    const double d = sqrt(rr);
    const double x = u * j->ex + w * j->nx + d * j->cx;
    const double y = u * j->ey + w * j->ny + d * j->cy;
    const double z = w * j->nz + d * j->cz;
    double h, dp;
    uint8_t t, f;
    terra_xyz(j->p, x, y, z, &h, &dp, &t, &f);
    store(j->out, k, h, dp, t, f);
    if (j->visible) j->visible[k] = 1;
}

static void map_rows(void *ctx, int64_t begin, int64_t end)
{
    const planet_job *j = ctx;
    const rt_planet *p = j->p;
    const double R2 = p->radius * p->radius;
    const double hc = 0.5 * (double)(j->cols - 1), hr = 0.5 * (double)(j->rows - 1);
    int64_t pending = 0;
#if PLANET_SIMD
    if (j->simd == MAP_AVX2 || j->simd == MAP_AVX512 || j->simd == MAP_VBMI) {
        const int64_t n8 = j->cols & ~(int64_t)(j->simd == MAP_AVX2 ? 3 : 7);
        for (int64_t r = begin; r < end; r++) {
            const double w = ((double)r - hr) * j->step;
            for (int64_t c0 = 0; c0 < n8; c0 += PLANET_CHUNK) {
                const int64_t c1 = n8 - c0 < PLANET_CHUNK ? n8 : c0 + PLANET_CHUNK;
                if (rt__watch_charge(j->w, &pending, (c1 - c0) * 4 * RT_WORK_POINT)) return;
                if (j->simd == MAP_VBMI)
                    map_cols_vbmi(j, r, w, c0, c1);
                else if (j->simd == MAP_AVX512)
                    map_cols_avx512(j, r, w, c0, c1);
                else
                    map_cols_avx2(j, r, w, c0, c1);
            }
            for (int64_t c = n8; c < j->cols; c++) /* the last columns */
                map_point(j, r, c, w, R2, hc);
        }
        return;
    }
    if (j->simd == MAP_AVX2_PRE) {
        double pre[8 * PLANET_CHUNK], xyz[3 * PLANET_CHUNK], rrs[PLANET_CHUNK];
        for (int64_t r = begin; r < end; r++) {
            double w = ((double)r - hr) * j->step;
            const int64_t n4 = j->cols & ~(int64_t)3;
            for (int64_t c0 = 0; c0 < n4; c0 += PLANET_CHUNK) {
                const int nc = n4 - c0 < PLANET_CHUNK ? (int)(n4 - c0) : PLANET_CHUNK;
                if (rt__watch_charge(j->w, &pending, (int64_t)nc * 4 * RT_WORK_POINT)) return;
                map_chunk_avx2(j, w, c0, nc, pre, xyz, rrs);
                for (int q = 0; q < nc; q++) {
                    const int64_t k = r * j->cols + c0 + q;
                    if (!(rrs[q] >= 0.0)) {
                        store(j->out, k, NAN, NAN, RT_MAP_OUTSIDE, RT_NONE);
                        if (j->visible) j->visible[k] = 0;
                        continue;
                    }
                    double h, dp;
                    uint8_t t, f;
                    terra_xyz_pre(p, xyz[3 * q], xyz[3 * q + 1], xyz[3 * q + 2], pre + 8 * q, &h,
                                  &dp, &t, &f);
                    store(j->out, k, h, dp, t, f);
                    if (j->visible) j->visible[k] = 1;
                }
            }
            for (int64_t c = n4; c < j->cols; c++) /* the last columns */
                map_point(j, r, c, w, R2, hc);
        }
        return;
    }
#endif
    for (int64_t r = begin; r < end; r++) {
        double w = ((double)r - hr) * j->step;
        for (int64_t c = 0; c < j->cols; c++) {
            /* terra on the sphere: about four profile sums a point */
            if (c % 256 == 0 && rt__watch_charge(j->w, &pending, 256 * 4 * RT_WORK_POINT))
                return;
            map_point(j, r, c, w, R2, hc);
        }
    }
}

rt_status rt_planet_map(const rt_planet *p, double lat0, double lon0, int64_t nx, int64_t ny,
                        double step, const rt_terra_out *out, uint8_t *visible, int threads,
                        const rt_poll *poll)
{
    rt_status s = rt_planet_check(p, NULL);
    if (s != RT_OK) return s;
    if (nx < 1 || ny < 1 || nx > ((int64_t)1 << 40) / ny) return RT_ERR_SIZE;
    if (!isfinite(lat0) || !isfinite(lon0) || !isfinite(step) || !(step > 0)) return RT_ERR_COORD;
    if (!out) return RT_ERR_NULL;
    rt__watch wt;
    if (rt__watch_start(&wt, poll)) return RT_ERR_INTERRUPTED;
    planet_job j;
    memset(&j, 0, sizeof j);
    j.w = &wt;
    j.p = p;
    j.out = out;
    j.visible = visible;
    double phi = lat0 * DEG, lam = lon0 * DEG;
    double sp = rt_sin(phi), cp = rt_cos(phi), sl = rt_sin(lam), cl = rt_cos(lam);
    j.ex = -sl, j.ey = cl;                       /* east */
    j.nx = -sp * cl, j.ny = -sp * sl, j.nz = cp; /* north */
    j.cx = cp * cl, j.cy = cp * sl, j.cz = sp;   /* the centre's direction */
    j.step = step;
    j.cols = nx;
    j.rows = ny;
#if PLANET_SIMD
    uint8_t bytes[256];
    j.simd = map_kernel(p, bytes);
    j.bytes = bytes;
#endif
    rt__parallel_watch(threads, ny, 4 * RT_WORK_POINT * nx, map_rows, &j, &wt);
    return rt__watch_status(&wt);
}
