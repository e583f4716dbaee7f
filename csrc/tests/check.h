/*
 * check.h - what the C driver's test files share: CHECK, the failure count
 * and the FNV-1a fingerprint that `make cross-aarch64` compares across
 * platforms.
 */
#ifndef RT_TEST_CHECK_H
#define RT_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static inline int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define FNV_START 0xcbf29ce484222325u
/* FNV-1a over bytes: a fingerprint of outputs, compared across platforms. */
static inline uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3u;
    return h;
}

/* The generators' test files: each runs its checks and returns the
 * fingerprint of its outputs. */
uint64_t test_galaxy(void);
uint64_t test_classic(void);
uint64_t test_streams(void);
uint64_t test_roads(void);
uint64_t test_sites(void);
uint64_t test_mines(void);
uint64_t test_space(void);
uint64_t test_interrupt(void);
/* the contour kernel's variants and painting against the portable ones */
void test_contours(void);
void test_images(void);

#endif /* RT_TEST_CHECK_H */
