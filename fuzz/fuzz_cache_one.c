/*
 * fuzz_cache_one.c -- one fuzz input through the result cache's entry parser
 * (cli/cache_entry.c), the code every cache entry read passes through:
 *   1. the bytes as an entry of the harness's key (fuzz_cache_key), as they are;
 *   2. the same with its checksum made right, so that the fields after the checksum are
 *      explored too (a mutation otherwise stops at the checksum);
 *   3. that copy under another key: no entry may be read under two keys;
 *   4. a result made from the bytes (word, message, register note, configuration name,
 *      latency set, application note, statistics) made into an entry and parsed back.
 * What must hold: every parse succeeds or fails with a one-line reason; an entry that is read
 * is byte for byte what cache_entry_make writes for the result it gave (so no other bytes can
 * be read as a result); a made entry is read back as the result it was made from. No bounds
 * needed: nothing is run, and the parser is linear in its input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "../cli/cache.h"

static struct fuzz_cache_count count;

void fuzz_cache_counts(struct fuzz_cache_count *out)
{
    *out = count;
}

void fuzz_cache_key(struct cache_key *k, int other)
{
    cache_key_start(k);
    cache_key_add(k, "harness", other ? "fuzz_cache, another key" : "fuzz_cache");
    cache_key_end(k);
}

/* Parse buf under k: 1 read, 0 refused with a one-line reason, -1 anything else (said on
   stderr). */
static int parse(const char *what, const char *buf, size_t len, const struct cache_key *k)
{
    struct result r;
    char why[512] = "", *again = NULL;
    size_t n = 0;
    int rc = 1;
    if (cache_entry_parse(buf, len, k, &r, why, sizeof why)) {
        if (why[0] && !strchr(why, '\n'))
            return 0;
        fprintf(stderr, "fuzz_cache: %s: refused with the reason \"%s\"\n", what, why);
        return -1;
    }
    count.read++;
    if (!(again = cache_entry_make(k, &r, &n)) || n != len || memcmp(again, buf, len)) {
        fprintf(stderr, "fuzz_cache: %s: read, but it is not what its result makes (%zu bytes "
                "against %zu)\n", what, n, len);
        rc = -1;
    }
    free(again);
    free(r.msg);
    return rc;
}

/* Stage 4: a result from the bytes, made and parsed back. */
static int made(const uint8_t *data, size_t size, const struct cache_key *k)
{
    struct result r, x;
    char *e, why[512] = "", *text = malloc(size + 1);
    size_t len, at = size ? 1 : 0;
    int bad = 0;
    if (!text)
        return 1;
    memcpy(text, data, size);
    text[size] = 0;
    memset(&r, 0, sizeof r);
    r.rc = size ? data[0] % 4 : 0;                        /* 2: an error, never made */
    r.msg = strdup(r.rc == 0 ? "results correct" : text + at);
    memcpy(&r.st, data, size < sizeof r.st ? size : sizeof r.st);
    snprintf(r.regs, sizeof r.regs, "%s", text + at);
    snprintf(r.cfg_name, sizeof r.cfg_name, "%s", text + at);
    snprintf(r.lat, sizeof r.lat, "%s", text + at);
    snprintf(r.app, sizeof r.app, "%s", text + at);
    e = r.msg ? cache_entry_make(k, &r, &len) : NULL;
    if (e) {
        int read = !cache_entry_parse(e, len, k, &x, why, sizeof why);
        count.made++;
        if (!read || x.rc != r.rc || strcmp(x.msg, r.msg) || strcmp(x.regs, r.regs) ||
            strcmp(x.cfg_name, r.cfg_name) || strcmp(x.lat, r.lat) ||
            strcmp(x.app, r.app) || memcmp(&x.st, &r.st, sizeof r.st)) {
            fprintf(stderr, "fuzz_cache: a made entry is not read back as its result (%s)\n",
                    why);
            bad = 1;
        }
        if (read)
            free(x.msg);
    } else if (r.msg && r.rc != 2 && (r.rc == 0 || strcmp(r.msg, "results correct"))) {
        fprintf(stderr, "fuzz_cache: a valid result (rc %d) was not made into an entry\n", r.rc);
        bad = 1;
    }
    free(e);
    free(r.msg);
    free(text);
    return bad;
}

int fuzz_cache_one(const uint8_t *data, size_t size)
{
    static struct cache_key k, other;
    const char *buf = (const char *)data;
    char *fixed;
    int bad;
    if (!k.text) {
        fuzz_cache_key(&k, 0);
        fuzz_cache_key(&other, 1);
    }
    count.inputs++;
    bad = parse("as is", buf, size, &k) < 0;
    if (size >= CACHE_BODY_AT && (fixed = malloc(size)) != NULL) {
        char sum[CACHE_KEY_LEN];
        int mine, others;
        memcpy(fixed, data, size);
        cache_hash(fixed + CACHE_BODY_AT, size - CACHE_BODY_AT, sum);
        memcpy(fixed + CACHE_SUM_AT, sum, 32);
        mine = parse("checksum made right", fixed, size, &k);
        others = parse("under another key", fixed, size, &other);
        bad += (mine < 0) + (others < 0);
        if (mine > 0 && others > 0) {
            fprintf(stderr, "fuzz_cache: one entry read under two keys\n");
            bad++;
        }
        free(fixed);
    }
    return bad + made(data, size, &k);
}
