/*
 * ptx_ntab.c -- the front end's table of names (ptx_ntab.h): open addressing with linear
 * probing over a power-of-two array of slots, FNV-1a hashes, doubling when half full; the
 * names are copied into one growing buffer and found by offset.
 *
 * Not a hardware block: used while parsing, linking and printing, never in the cycle loop.
 * The only state outside a table is the per-thread work counter the scaling test reads.
 */
#include "ptx_ntab.h"
#include <stdlib.h>
#include <string.h>

#define NTAB_MIN_CAP 16u
#define NTAB_MAX_CAP (1u << 30)

static _Thread_local uint64_t work;

uint64_t ntab_work(void) { return work; }
void ntab_work_reset(void) { work = 0; }
void ntab_work_add(uint64_t n) { work += n; }

uint32_t ntab_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* The slot holding the name, or the empty slot where it would go (cap > 0). */
static struct ntab_slot *find(const struct ntab *t, const char *s, size_t len, uint32_t h)
{
    uint32_t mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        struct ntab_slot *e = &t->slot[i];
        work++;
        if (!e->key || (e->hash == h && e->len == len
                        && (!len || !memcmp(t->keys + e->key - 1, s, len))))
            return e;
    }
}

static int rehash(struct ntab *t, uint32_t cap)
{
    struct ntab_slot *ns = calloc(cap, sizeof *ns);
    if (!ns)
        return -1;
    for (uint32_t k = 0; k < t->cap; k++) {
        const struct ntab_slot *e = &t->slot[k];
        if (!e->key)
            continue;
        uint32_t i = e->hash & (cap - 1);
        while (ns[i].key)
            i = (i + 1) & (cap - 1);
        ns[i] = *e;
    }
    free(t->slot);
    t->slot = ns;
    t->cap = cap;
    return 0;
}

/* Copy a name into the key buffer; its offset + 1, or 0 out of memory. */
static uint32_t keep_key(struct ntab *t, const char *s, size_t len)
{
    if (len >= NTAB_MAX_CAP || (uint64_t)t->nkeys + len + 1 >= UINT32_MAX)
        return 0;
    if (t->nkeys + len > t->cap_keys) {
        uint64_t nc = t->cap_keys ? t->cap_keys : 256;
        while (nc < (uint64_t)t->nkeys + len)
            nc *= 2;
        if (nc > UINT32_MAX)
            nc = UINT32_MAX;
        char *k = realloc(t->keys, (size_t)nc);
        if (!k)
            return 0;
        t->keys = k;
        t->cap_keys = (uint32_t)nc;
    }
    if (len)
        memcpy(t->keys + t->nkeys, s, len);
    t->nkeys += (uint32_t)len;
    return t->nkeys - (uint32_t)len + 1;
}

int32_t ntab_get(const struct ntab *t, const char *s, size_t len)
{
    if (!t || !t->cap)
        return NTAB_NONE;
    const struct ntab_slot *e = find(t, s, len, ntab_hash(s, len));
    return e->key ? e->val : NTAB_NONE;
}

int32_t *ntab_ref(struct ntab *t, const char *s, size_t len)
{
    uint32_t h = ntab_hash(s, len);
    struct ntab_slot *e = t->cap ? find(t, s, len, h) : NULL;
    if (e && e->key)
        return &e->val;
    if (2 * ((uint64_t)t->n + 1) > t->cap) {
        if (t->cap >= NTAB_MAX_CAP || rehash(t, t->cap ? 2 * t->cap : NTAB_MIN_CAP))
            return NULL;
        e = find(t, s, len, h);
    }
    uint32_t key = keep_key(t, s, len);
    if (!key)
        return NULL;
    *e = (struct ntab_slot){h, (uint32_t)len, key, NTAB_NONE};
    t->n++;
    return &e->val;
}

int32_t ntab_get_u32(const struct ntab *t, uint32_t k)
{
    char b[4] = {(char)k, (char)(k >> 8), (char)(k >> 16), (char)(k >> 24)};
    return ntab_get(t, b, sizeof b);
}

int32_t *ntab_ref_u32(struct ntab *t, uint32_t k)
{
    char b[4] = {(char)k, (char)(k >> 8), (char)(k >> 16), (char)(k >> 24)};
    return ntab_ref(t, b, sizeof b);
}

int ntab_set(struct ntab *t, const char *s, size_t len, int32_t val)
{
    int32_t *v = ntab_ref(t, s, len);
    if (!v)
        return -1;
    *v = val;
    return 0;
}

void ntab_free(struct ntab *t)
{
    if (!t)
        return;
    free(t->slot);
    free(t->keys);
    memset(t, 0, sizeof *t);
}
