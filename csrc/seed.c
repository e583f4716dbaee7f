/*
 * seed.c - the seed's constants (SPEC 3), the one copy every generator uses:
 * the 1983 profile of The Forest and the eight direction vectors.  Terrain,
 * galaxy and the generators to come (planets, nebulae) take their defaults
 * from here rather than from each other.
 */
#include "relfterrain.h"

static const double CLASSIC_PROFILE[256] = {
    77,  80,  84,  88,  92,  96,  101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
    131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
    126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
    97,  93,  90,  86,  82,  78,  74,  71,  69,  67,  67,  67,  66,  67,  69,  71,
    73,  74,  73,  73,  71,  69,  66,  62,  58,  54,  52,  52,  54,  55,  58,  59,
    62,  63,  63,  65,  65,  65,  66,  66,  67,  69,  70,  73,  77,  80,  82,  85,
    88,  90,  93,  95,  96,  96,  96,  96,  93,  92,  90,  85,  80,  75,  71,  67,
    63,  60,  58,  55,  52,  50,  47,  44,  43,  41,  40,  39,  36,  35,  33,  32,
    30,  28,  24,  20,  15,  11,  7,   3,   2,   2,   2,   2,   2,   2,   3,   6,
    7,   10,  11,  15,  18,  22,  24,  25,  25,  26,  26,  25,  25,  25,  25,  25,
    26,  28,  29,  30,  33,  36,  37,  39,  39,  40,  40,  40,  39,  39,  39,  37,
    37,  37,  36,  36,  36,  35,  35,  33,  33,  32,  30,  28,  25,  20,  15,  11,
    10,  9,   9,   9,   9,   11,  14,  15,  17,  17,  18,  18,  18,  18,  18,  18,
    17,  17,  17,  15,  14,  13,  11,  11,  10,  10,  10,  11,  13,  14,  17,  20,
    22,  25,  28,  30,  35,  39,  41,  45,  50,  58,  63,  69,  73,  77,  80,  82,
    84,  84,  85,  85,  84,  84,  82,  81,  80,  75,  73,  71,  71,  73,  74,  75,
};

static const int32_t CLASSIC_VECTORS[RT_VECTOR_COUNT][RT_CLASSIC_DIRECTIONS] = {
    {0, 13, 21, 22, 29},        /* AH */
    {27, 26, 21, 11, 1},        /* BH */
    {-43, -43, -56, 31, 4},     /* A1 */
    {-3, -12, 22, 2, 32},       /* B1 */
    {-24, -25, 60, 10, -30},    /* A2 */
    {15, -54, -34, -51, -43},   /* B2 */
    {-51, -62, -58, -64, 33},   /* A3 */
    {-44, 20, 27, -64, -44},    /* B3 */
};

const double *rt_classic_profile(void) { return CLASSIC_PROFILE; }

const int32_t *rt_classic_vector(int which)
{
    if (which < 0 || which >= RT_VECTOR_COUNT) return NULL;
    return CLASSIC_VECTORS[which];
}
