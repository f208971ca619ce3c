/*
 * slotmask.h -- the SM's schedulable slots and contexts, and the one mask type every port uses.
 *
 * A schedulable slot is what a warp scheduler, the I-buffer, the SIMT stack and the
 * scoreboard index: one entity that can issue. A context is what holds a warp's state:
 * registers, local memory, its virtual warp ID (VWI). The baseline binds one context to one
 * slot; VT keeps more contexts than slots (inactive CTAs keep their registers), DWS gives one
 * context several slots (the splits of a warp). Every port that carries a set of slots uses
 * `slotmask`, sized by SM_MAX_SLOTS, so no block has a width of its own.
 *
 * slotmask is a 128-bit unsigned integer (GCC/Clang's unsigned __int128): the usual bit
 * operators work on it; the helpers below give what the builtins give for 64 bits.
 */
#ifndef SLOTMASK_H
#define SLOTMASK_H
#include <stdint.h>

#define SM_MAX_SLOTS 128           /* schedulable slots per SM (every port's slot mask) */
#define SM_MAX_CTX   256           /* contexts per SM: the 8-bit VWI of 004 Section III */
#define SM_SLOT_BITS 7             /* bits of a slot index */
#define SM_MAX_CTAS  64            /* resident CTA slots per SM (active and inactive) */

typedef unsigned __int128 slotmask;

/* The mask with only slot i set (i < SM_MAX_SLOTS). */
static inline slotmask slot_bit(unsigned i)
{
    return (slotmask)1 << i;
}

/* Is slot i set in m? */
static inline int slot_has(slotmask m, unsigned i)
{
    return (int)((uint64_t)(m >> i) & 1u);
}

/* The low n slots (n <= SM_MAX_SLOTS). */
static inline slotmask slot_first(unsigned n)
{
    return n >= SM_MAX_SLOTS ? ~(slotmask)0 : slot_bit(n) - 1;
}

/* Lowest set slot of m; m != 0. */
static inline unsigned slot_ctz(slotmask m)
{
    uint64_t lo = (uint64_t)m;
    return lo ? (unsigned)__builtin_ctzll(lo) : 64u + (unsigned)__builtin_ctzll((uint64_t)(m >> 64));
}

/* Set bits of x, inline: without -mpopcnt (x86-64's baseline) __builtin_popcountll is a call
   into libgcc, which showed in the cycle loop's profile (DWS's priority keys). */
static inline unsigned bit_pop64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

static inline unsigned bit_pop32(uint32_t x)
{
    return bit_pop64(x);
}

static inline unsigned slot_count(slotmask m)
{
    return bit_pop64((uint64_t)m) + bit_pop64((uint64_t)(m >> 64));
}

/* The even bits of x packed into the low 32 (bit 2i -> bit i). */
static inline uint64_t bit_even64(uint64_t x)
{
    x &= 0x5555555555555555ull;
    x = (x | x >> 1) & 0x3333333333333333ull;
    x = (x | x >> 2) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x >> 4) & 0x00ff00ff00ff00ffull;
    x = (x | x >> 8) & 0x0000ffff0000ffffull;
    return (x | x >> 16) & 0x00000000ffffffffull;
}

/* The even slots of m packed into the low 64 (slot 2i -> slot i). */
static inline __attribute__((always_inline)) slotmask slot_even(slotmask m)
{
    uint64_t hi = (uint64_t)(m >> 64);
    slotmask r = bit_even64((uint64_t)m);
    return hi ? r | (slotmask)bit_even64(hi) << 32 : r;
}

/* Slots k, k + n, k + 2n, ... of m packed into slots 0, 1, 2, ... (k < n): slot w as its
   scheduler's local slot w / n when slots are dealt out round-robin to n schedulers. */
static inline __attribute__((always_inline)) slotmask slot_deal(slotmask m, unsigned k,
                                                                unsigned n)
{
    slotmask x = m >> k, r = 0;
    if (n == 1 || !x)
        return x;
    if (n == 2)
        return slot_even(x);
    if (n == 4)
        return slot_even(slot_even(x));
    for (unsigned i = 0; x; x >>= n, i++)
        r |= (slotmask)(uint64_t)(x & 1) << i;
    return r;
}

/* Every n-th slot from slot k: the slots slot_deal(., k, n) keeps (k < n). */
static inline slotmask slot_stride(unsigned k, unsigned n)
{
    slotmask r = 1;
    if (n == 1)
        return ~(slotmask)0;
    if (n == 2 || n == 4) {
        r = n == 2 ? 0x5555555555555555ull : 0x1111111111111111ull;
        return (r | r << 64) << k;
    }
    for (unsigned sh = n; sh < SM_MAX_SLOTS; sh *= 2)
        r |= r << sh;
    return r << k;
}

/* for (SLOT_EACH(i, m, tmp)) { ... }: every set slot of m, lowest first (tmp: a slotmask). */
#define SLOT_EACH(i, m, tmp) (tmp) = (m); (tmp) && (((i) = slot_ctz(tmp)), 1); (tmp) &= (tmp) - 1

#endif
