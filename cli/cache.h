/*
 * cache.h -- the result cache of mech_run (cli/cache.c, cli/cache_entry.c): a checked run's
 * result stored under the full key of everything that decides it, so a repeated report is
 * instant and an interrupted one resumes where it stopped. docs/page.md "The cache".
 *
 * The key is a text, a line per component (cache_key writes a bench kernel's):
 *   - the gpusim executable's bytes (hashed: any rebuild that changes the binary changes
 *     every key), the fully resolved configuration (every key as `gpusim config` writes it,
 *     after the file, the --set options and the mechanism's sets: the whole text), the size
 *     and the mechanism (its name and regrouping): cache_key_common;
 *   - the kernel's name, its PTX file's bytes, the register records next to it (kernel.res
 *     and kernel.vtw.res: their bytes, or that there is none) and where the registers per
 *     thread come from: the record (its bytes hold the ptxas version that made it), ptxas run
 *     at load (its version), the liveness estimate, or the configuration's override.
 * An application's key (binary, arguments, named inputs) is made the same way:
 * cache_key_start, cache_key_common, then cache_key_file for its binary and each named input
 * and cache_key_add for its arguments, then cache_key_end -- nothing else changes.
 * A run with a hook (--record, a BBV file, a set-up function, a data layout, kept inputs) is
 * not cached. Results that are correct (0), wrong (1) or "does not apply" (MECH_NA) are
 * stored; errors (2) are not, as an out-of-memory or a killed run is not a property of its
 * inputs.
 *
 * An entry is the file DIR/HEX, HEX being 32 hex digits of a 128-bit hash of the key text;
 * it holds the key text itself and a checksum of its content, and is read back only when it
 * is exactly what cache_put writes for this key (cache_entry_parse): anything else -- changed
 * bytes, a truncated or malformed entry, an invalid result word, an entry copied from another
 * key, a directory, a FIFO or a device in its place, one that cannot be opened -- is a miss:
 * the run is made again, after a one-line warning on stderr, and its result replaces the
 * entry. Entries are written to a temporary name in DIR and renamed, so concurrent writers
 * (--jobs, two reports on one cache) and a report killed mid-write leave only whole entries.
 * The hashes are not cryptographic: the cache detects accidents, not an attacker who owns its
 * directory. Its statistics are the run's, host_seconds included.
 */
#ifndef CACHE_H
#define CACHE_H
#include "mech.h"

#define CACHE_KEY_LEN 33               /* 32 hex digits and the NUL */
#define CACHE_KEY_MAX (1u << 20)       /* bytes of key text at most */
#define CACHE_MSG_MAX (1u << 24)       /* bytes of a result's message at most */
#define CACHE_ENTRY_MAX (CACHE_KEY_MAX + CACHE_MSG_MAX + (1u << 20))   /* an entry at most */

/* A key: the text (a line per component) and its digest, the entry's file name. */
struct cache_key {
    char hex[CACHE_KEY_LEN];
    char *text;                        /* malloc'd; NUL-terminated, len bytes */
    size_t len, cap;
    int bad;                           /* a component could not be read: not cacheable */
};

/* Building a key: start, components, end (0, or -1 when a component could not be read or
   memory ran out: the key is freed and the run is not cached). Values are written on one
   line (a newline, a backslash or a control byte in them escaped). */
void cache_key_start(struct cache_key *k);
void cache_key_add(struct cache_key *k, const char *name, const char *value);
/* "NAME HASH" of the file's bytes; "NAME none" when optional and it does not exist. */
void cache_key_file(struct cache_key *k, const char *name, const char *path, int optional);
/* The components every run has: the binary, the configuration o resolves to under m, the
   size and the mechanism. Loads the configuration into *c when c is not NULL. */
void cache_key_common(struct cache_key *k, const struct opts *o, const struct mech *m,
                      struct gpu_config *c);
int cache_key_end(struct cache_key *k);
void cache_key_free(struct cache_key *k);

/* The key of bench kernel b under m and o; -1 when the run is not cacheable or a component
   cannot be read (the run then reports why). */
int cache_key(const struct opts *o, const struct mech *m, const struct bench *b,
              struct cache_key *k);

/* DIR's entry for k: 1 and r filled (result_free releases it); 0 when there is none; -1 with
   why (one line) when there is one that is not valid. */
int cache_check(const char *dir, const struct cache_key *k, struct result *r, char *why,
                size_t n);
/* cache_check, the invalid entry a miss with the warning on stderr: 1 hit, 0 miss. */
int cache_get(const char *dir, const struct cache_key *k, struct result *r);
/* Store r under k (nothing when r is an error). 0, or -1 when it could not be written (the
   cache is an optimisation: mech_run says so and goes on). */
int cache_put(const char *dir, const struct cache_key *k, const struct result *r);

/* dir names a cache: not NULL and not "none" (--cache none, as every command takes it). */
int cache_on(const char *dir);
/* The page's cache when --cache is not given: $GPUSIM_CACHE, else $XDG_CACHE_HOME/gpusim,
   else $HOME/.cache/gpusim, into buf; NULL if none of them is set. */
const char *cache_default(char *buf, size_t n);

/* cache_entry.c (with the key text's builders above but cache_key_file and cache_key_common):
   the entry's bytes, with no I/O (the fuzz harness's part).
   cache_hash: 128 bits of FNV-1a (two 64-bit lanes) of p[0..n) as 32 hex digits.
   cache_entry_make: the entry for r under k, malloc'd, *len bytes; NULL when r is an error,
   has no message, or a word and message that disagree ("results correct" exactly when rc is
   0), when a field does not fit its limit or memory ran out. cache_entry_parse: 0 and r filled when
   buf[0..len) is exactly what cache_entry_make writes for k and some result; else -1 with
   why, r untouched. */
void cache_hash(const void *p, size_t n, char hex[CACHE_KEY_LEN]);
char *cache_entry_make(const struct cache_key *k, const struct result *r, size_t *len);
int cache_entry_parse(const char *buf, size_t len, const struct cache_key *k, struct result *r,
                      char *why, size_t n);
/* Where an entry's checksum is (CACHE_SUM_AT, 32 hex digits) and what it covers: every byte
   from CACHE_BODY_AT on. */
#define CACHE_MAGIC "gpusim-result-cache 3\n"
#define CACHE_SUM_AT (sizeof CACHE_MAGIC - 1 + 4)          /* after "sum " */
#define CACHE_BODY_AT (CACHE_SUM_AT + 32 + 1)              /* after its '\n' */

#endif
