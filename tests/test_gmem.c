/*
 * test_gmem.c -- cmocka tests for model/func/gmem.c: device memory allocations, bounds checking,
 * red zones, freeing, capacity and allocation-count limits, address overflow, and a random
 * alloc/free/access sequence checked against a linear-search reference.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "func/gmem.h"

static struct gmem *new_gm(uint64_t cap)
{
    struct gmem *g = malloc(sizeof *g);
    assert_non_null(g);
    gm_init(g, cap);
    return g;
}

static void del_gm(struct gmem *g)
{
    gm_destroy(g);
    gm_destroy(g);                    /* twice: harmless */
    free(g);
}

static void test_alloc_layout(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a, b, c;
    assert_int_equal(gm_alloc(g, 100, &a), 0);
    assert_int_equal(gm_alloc(g, 256, &b), 0);
    assert_int_equal(gm_alloc(g, 1, &c), 0);
    assert_true(a == GM_BASE);
    assert_int_equal(a % GM_ALIGN, 0);
    assert_int_equal(b % GM_ALIGN, 0);
    assert_int_equal(c % GM_ALIGN, 0);
    assert_true(b >= a + 100 + GM_ALIGN);     /* red zone of at least GM_ALIGN */
    assert_true(c >= b + 256 + GM_ALIGN);
    assert_true(g->bytes_live == 357);
    /* zero-filled, and writes stick */
    uint8_t *p = gm_ptr(g, a, 100);
    assert_non_null(p);
    for (int i = 0; i < 100; i++)
        assert_int_equal(p[i], 0);
    memset(p, 0xab, 100);
    assert_ptr_equal(gm_ptr(g, a + 10, 4), p + 10);
    assert_int_equal(*gm_ptr(g, a + 99, 1), 0xab);
    /* a NULL addr out-pointer is allowed */
    assert_int_equal(gm_alloc(g, 8, NULL), 0);
    del_gm(g);
}

static void test_bounds(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a, b;
    assert_int_equal(gm_alloc(g, 100, &a), 0);
    assert_int_equal(gm_alloc(g, 64, &b), 0);
    /* lower edge */
    assert_non_null(gm_ptr(g, a, 1));
    assert_null(gm_ptr(g, a - 1, 1));
    assert_null(gm_ptr(g, a - 1, 2));         /* straddles the start */
    assert_null(gm_ptr(g, 0, 1));
    assert_null(gm_ptr(g, GM_BASE - 4, 4));
    /* upper edge */
    assert_non_null(gm_ptr(g, a, 100));
    assert_null(gm_ptr(g, a, 101));
    assert_non_null(gm_ptr(g, a + 99, 1));
    assert_null(gm_ptr(g, a + 99, 2));
    assert_null(gm_ptr(g, a + 100, 1));
    assert_non_null(gm_ptr(g, b + 63, 1));
    assert_null(gm_ptr(g, b + 64, 1));
    assert_null(gm_ptr(g, b + 60, 8));
    /* len 0 is treated as 1 */
    assert_non_null(gm_ptr(g, a + 99, 0));
    assert_null(gm_ptr(g, a + 100, 0));
    /* one access may not span two allocations */
    assert_null(gm_ptr(g, a, b + 1 - a));
    /* far beyond everything */
    assert_null(gm_ptr(g, g->next, 1));
    assert_null(gm_ptr(g, UINT64_MAX, 1));
    del_gm(g);
}

static void test_red_zone(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a, b;
    assert_int_equal(gm_alloc(g, 256, &a), 0);   /* exactly one alignment unit */
    assert_int_equal(gm_alloc(g, 256, &b), 0);
    assert_true(b - (a + 256) >= GM_ALIGN);
    for (uint64_t x = a + 256; x < b; x++)
        assert_null(gm_ptr(g, x, 1));
    /* a 4-byte access that starts in the red zone and ends in b */
    assert_null(gm_ptr(g, b - 2, 4));
    /* hits before and after the zone still work (the cache must not confuse them) */
    assert_non_null(gm_ptr(g, a + 255, 1));
    assert_non_null(gm_ptr(g, b, 1));
    assert_non_null(gm_ptr(g, a, 1));
    del_gm(g);
}

static void test_free_alloc(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a, b, c;
    assert_int_equal(gm_alloc(g, 100, &a), 0);
    assert_int_equal(gm_alloc(g, 200, &b), 0);
    assert_non_null(gm_ptr(g, a + 5, 4));        /* now cached */
    assert_int_equal(gm_free(g, a + 1), -1);     /* not an allocation start */
    assert_int_equal(gm_free(g, 0), -1);
    assert_int_equal(gm_free(g, b + 512), -1);
    assert_int_equal(gm_free(g, a), 0);
    assert_true(g->bytes_live == 200);
    assert_null(gm_ptr(g, a + 5, 4));            /* freed: rejected, even via the cache */
    assert_null(gm_ptr(g, a, 1));
    assert_int_equal(gm_free(g, a), -1);         /* double free */
    assert_non_null(gm_ptr(g, b, 200));
    /* addresses stay monotonic: the freed range is not reused */
    assert_int_equal(gm_alloc(g, 100, &c), 0);
    assert_true(c > b);
    assert_null(gm_ptr(g, a, 1));
    assert_int_equal(gm_free(g, b), 0);
    assert_int_equal(gm_free(g, c), 0);
    assert_true(g->bytes_live == 0);
    del_gm(g);
}

static void test_out_of_memory(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1000);
    uint64_t a, b, c;
    assert_int_equal(gm_alloc(g, 600, &a), 0);
    assert_int_equal(gm_alloc(g, 401, &b), GM_E_MEMORY);
    assert_int_equal(gm_alloc(g, 400, &b), 0);
    assert_int_equal(gm_alloc(g, 1, &c), GM_E_MEMORY);
    assert_int_equal(gm_alloc(g, UINT64_MAX, &c), GM_E_MEMORY);
    assert_int_equal(gm_free(g, a), 0);
    assert_int_equal(gm_alloc(g, 600, &c), 0);   /* capacity comes back on free */
    assert_int_equal(gm_alloc(g, 1001, &c), GM_E_MEMORY);
    del_gm(g);

    /* unlimited capacity but huge requests: fail cleanly, no wrap of the address space */
    g = new_gm(UINT64_MAX);
    assert_int_equal(gm_alloc(g, UINT64_MAX, &a), GM_E_SPACE);
    assert_int_equal(gm_alloc(g, UINT64_MAX - GM_BASE, &a), GM_E_SPACE);
    /* the largest size whose footprint (rounded up, plus red zone) still fits below 2^64 is
       2^64 - GM_BASE - 2 * GM_ALIGN; one byte more is refused before any host allocation */
    assert_int_equal(gm_alloc(g, (uint64_t)0 - GM_BASE - 2 * GM_ALIGN + 1, &a), GM_E_SPACE);
    assert_int_equal(g->nallocs, 0);
    /* near the top of the address space: one more small allocation fits, then none */
    g->next = (UINT64_MAX & ~(uint64_t)(GM_ALIGN - 1)) - 3 * (uint64_t)GM_ALIGN;
    assert_int_equal(gm_alloc(g, 256, &a), 0);
    assert_int_equal(gm_alloc(g, 1, &b), GM_E_SPACE);
    uint8_t *p = gm_ptr(g, a + 255, 1);
    assert_non_null(p);
    assert_null(gm_ptr(g, a + 255, 2));
    assert_null(gm_ptr(g, UINT64_MAX, 1));
    del_gm(g);
}

static void test_too_many(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1ull << 32);
    uint64_t *addr = malloc(GM_MAX_ALLOCS * sizeof *addr), x;
    assert_non_null(addr);
    for (uint32_t i = 0; i < GM_MAX_ALLOCS; i++) {
        assert_int_equal(gm_alloc(g, 1 + i % 300, &addr[i]), 0);
        *gm_ptr(g, addr[i], 1) = (uint8_t)i;
    }
    assert_int_equal(gm_alloc(g, 1, &x), GM_E_COUNT);
    /* every one found by binary search (cache defeated by the access order) */
    for (uint32_t k = 0; k < GM_MAX_ALLOCS; k++) {
        uint32_t i = (k * 2654435761u) % GM_MAX_ALLOCS;
        uint8_t *p = gm_ptr(g, addr[i], 1 + i % 300);
        assert_non_null(p);
        assert_int_equal(*p, (uint8_t)i);
        assert_null(gm_ptr(g, addr[i] + 1 + i % 300, 1));
    }
    /* freeing one makes room again; the rest stay valid after the table is compacted */
    assert_int_equal(gm_free(g, addr[17]), 0);
    assert_int_equal(gm_free(g, addr[4000]), 0);
    assert_int_equal(gm_alloc(g, 1, &x), 0);
    assert_true(x > addr[GM_MAX_ALLOCS - 1]);
    assert_int_equal(gm_alloc(g, 1, &x), 0);
    assert_int_equal(gm_alloc(g, 1, &x), GM_E_COUNT);
    for (uint32_t i = 0; i < GM_MAX_ALLOCS; i++) {
        uint8_t *p = gm_ptr(g, addr[i], 1);
        if (i == 17 || i == 4000) {
            assert_null(p);
        } else {
            assert_non_null(p);
            assert_int_equal(*p, (uint8_t)i);
        }
    }
    free(addr);
    del_gm(g);
}

static void test_len_overflow(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a;
    assert_int_equal(gm_alloc(g, 100, &a), 0);
    assert_non_null(gm_ptr(g, a + 50, 1));       /* cache it */
    assert_null(gm_ptr(g, a, UINT64_MAX));
    assert_null(gm_ptr(g, a + 50, UINT64_MAX));
    /* addr + len wraps 2^64 to a small value that would look "inside" */
    assert_null(gm_ptr(g, a + 50, UINT64_MAX - (a + 50) + 2));
    assert_null(gm_ptr(g, a + 50, UINT64_MAX - 10));   /* end wraps to a + 39 */
    assert_null(gm_ptr(g, UINT64_MAX, 2));
    assert_null(gm_ptr(g, UINT64_MAX - 1, UINT64_MAX));
    assert_non_null(gm_ptr(g, a + 50, 50));
    del_gm(g);
}

static void test_zero_size(void **st)
{
    (void)st;
    struct gmem *g = new_gm(1u << 20);
    uint64_t a, b;
    assert_int_equal(gm_alloc(g, 0, &a), 0);     /* a unique address, no accessible bytes */
    assert_int_equal(gm_alloc(g, 0, &b), 0);
    assert_true(a != b);
    assert_null(gm_ptr(g, a, 0));
    assert_null(gm_ptr(g, a, 1));
    assert_int_equal(gm_free(g, a), 0);
    assert_int_equal(gm_free(g, b), 0);
    del_gm(g);
    /* an empty memory: nothing to find */
    g = new_gm(0);
    assert_null(gm_ptr(g, GM_BASE, 1));
    assert_int_equal(gm_free(g, GM_BASE), -1);
    assert_int_equal(gm_alloc(g, 1, &a), GM_E_MEMORY);    /* capacity 0 */
    del_gm(g);
}

/* ---- random sequence against a linear-search reference ---- */

struct rng { uint64_t s; };
static uint64_t rnd(struct rng *r, uint64_t n)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (r->s >> 20) % n;
}

#define NREF 600
struct refa { uint64_t addr, size; int live; };

static int ref_inside(const struct refa *ra, uint32_t n, uint64_t addr, uint64_t len, uint32_t *idx)
{
    if (len == 0)
        len = 1;
    for (uint32_t i = 0; i < n; i++) {
        const struct refa *r = &ra[i];
        if (r->live && addr >= r->addr && addr < r->addr + r->size &&
            len <= r->addr + r->size - addr) {
            *idx = i;
            return 1;
        }
    }
    return 0;
}

static void test_random(void **st)
{
    (void)st;
    struct rng rg = { 4242 };
    struct gmem *g = new_gm(1u << 26);
    struct refa *ra = calloc(NREF, sizeof *ra);
    uint8_t **first = calloc(NREF, sizeof *first);
    assert_non_null(ra);
    assert_non_null(first);
    uint32_t n = 0;
    for (int it = 0; it < 200000; it++) {
        uint64_t op = rnd(&rg, 100);
        if (op < 2 && n < NREF) {
            uint64_t sz = rnd(&rg, 4) ? rnd(&rg, 600) : rnd(&rg, 20000);
            uint64_t a;
            assert_int_equal(gm_alloc(g, sz, &a), 0);
            ra[n] = (struct refa){ a, sz, 1 };
            first[n++] = sz ? gm_ptr(g, a, 1) : NULL;
        } else if (op < 3 && n) {
            uint32_t i = (uint32_t)rnd(&rg, n);
            assert_int_equal(gm_free(g, ra[i].addr), ra[i].live ? 0 : -1);
            ra[i].live = 0;
        } else if (n) {
            /* an access near a random allocation, often straddling an edge */
            const struct refa *r = &ra[rnd(&rg, n)];
            uint64_t addr = r->addr + r->size - 8 + rnd(&rg, 16) - (rnd(&rg, 2) ? rnd(&rg, r->size + 1) : 0);
            if (rnd(&rg, 8) == 0)
                addr = r->addr - rnd(&rg, 300);
            uint64_t len = rnd(&rg, 3) ? ((uint64_t)1 << rnd(&rg, 5)) : rnd(&rg, 40);
            uint32_t idx = 0;
            uint8_t *p = gm_ptr(g, addr, len);
            if (ref_inside(ra, n, addr, len, &idx)) {
                assert_non_null(p);
                assert_ptr_equal(p, first[idx] + (addr - ra[idx].addr));
            } else {
                assert_null(p);
            }
        }
    }
    free(ra);
    free(first);
    del_gm(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_layout),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_red_zone),
        cmocka_unit_test(test_free_alloc),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_too_many),
        cmocka_unit_test(test_len_overflow),
        cmocka_unit_test(test_zero_size),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
