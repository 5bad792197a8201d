/* rng.c - the caller's random numbers (splitmix64 to seed, xoshiro256**
 * to draw), and the four throwing sticks that most rulesets throw with
 * them (ruling G2).
 */
#include "internal.h"

/* ---------------------------------------------------------------------------
 * Random numbers: splitmix64 to seed, xoshiro256** to draw.
 * ------------------------------------------------------------------------ */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void kemet_rng_seed(kemet_rng *rng, uint64_t seed) {
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

uint64_t kemet_rng_next(kemet_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t kemet_rng_below(kemet_rng *rng, uint32_t n) {
    /* Lemire's multiply-and-reject: unbiased for every n > 0. */
    uint64_t m = (uint64_t)(uint32_t)(kemet_rng_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(kemet_rng_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A number below n (> 0) for a throw's weights: kemet_rng_below's draw
 * where n fits 32 bits (so those streams never change), else a masked
 * draw, rejected until it is below n. */
uint64_t kmt_rng_below64(kemet_rng *rng, uint64_t n) {
    if (n <= UINT32_MAX)
        return kemet_rng_below(rng, (uint32_t)n);
    uint64_t mask = n - 1;
    for (int k = 1; k < 64; k *= 2)
        mask |= mask >> k;
    uint64_t x;
    do
        x = kemet_rng_next(rng) & mask; /* accepted more than half the time */
    while (x >= n);
    return x;
}

/* ---------------------------------------------------------------------------
 * The four throwing sticks (ruling G2).
 * ------------------------------------------------------------------------ */
int kmt_sticks_throws(kemet_throw *out, kemet_weight *weight,
                      kemet_weight *total) {
    static const uint32_t w[5] = {4, 6, 4, 1, 1};
    for (int v = 1; v <= 5; v++) {
        kmt_throw_one(&out[v - 1], v);
        out[v - 1].sticks = 4;
        weight[v - 1] = w[v - 1];
    }
    *total = 16;
    return 5;
}

void kmt_sticks_roll(kemet_rng *rng, kemet_throw *out) {
    uint64_t draw = kemet_rng_next(rng); /* four fair sticks: four bits */
    kmt_throw_one(out, kmt_sticks_value(draw));
    unsigned faces = (unsigned)(draw >> 60);
    out->sticks = 4;
    out->faces = (uint16_t)faces;
}

int kmt_sticks_throws_of(const kemet_rules *r, const kemet_pos *pos,
                         kemet_throw *out, kemet_weight *weight,
                         kemet_weight *total) {
    (void)r;
    (void)pos;
    return kmt_sticks_throws(out, weight, total);
}

void kmt_sticks_roll_of(const kemet_rules *r, const kemet_pos *pos,
                        kemet_rng *rng, kemet_throw *out) {
    (void)r;
    (void)pos;
    kmt_sticks_roll(rng, out);
}

int kmt_die_throws(int n, kemet_throw *out, kemet_weight *weight,
                   kemet_weight *total) {
    for (int v = 1; v <= n; v++) {
        kmt_throw_one(&out[v - 1], v);
        if (weight)
            weight[v - 1] = 1;
    }
    if (total)
        *total = (uint32_t)n;
    return n;
}

void kmt_die_roll(int n, kemet_rng *rng, kemet_throw *out) {
    kmt_throw_one(out, 1 + (int)kemet_rng_below(rng, (uint32_t)n));
}
