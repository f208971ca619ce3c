/*
 * cache.h -- the result cache of mech_run (cli/cache.c): a checked run's result stored under
 * a hash of everything that decides it, so a repeated report is instant and an interrupted one
 * resumes where it stopped.
 *
 * The key hashes: the gpusim executable's bytes (the model version: any rebuild that changes
 * the binary changes every key), the fully resolved configuration (every key as `gpusim
 * config` writes it, after the file, the --set options and the mechanism's sets), the kernel's
 * name, its PTX file's bytes, the size and the mechanism (its name and regrouping). A run with
 * a hook (--record, a BBV file, a set-up function, a data layout, kept inputs) is not cached.
 * Results that are correct (0), wrong (1) or "does not apply" (MECH_NA) are stored; errors
 * (2) are not, as an out-of-memory or a killed run is not a property of its inputs.
 *
 * A result is a file DIR/KEY (32 hex digits), written to a temporary name and renamed, so a
 * report killed mid-write leaves no partial entry. Its statistics are the run's, host_seconds
 * included (the run's own host time, not the cache's).
 */
#ifndef CACHE_H
#define CACHE_H
#include "mech.h"

#define CACHE_KEY_LEN 33

/* The key of kernel b under m and o into key (CACHE_KEY_LEN); -1 when the run is not
   cacheable or its configuration does not load (the run then reports why). */
int cache_key(const struct opts *o, const struct mech *m, const struct bench *b, char *key);
/* 1 and r filled (result_free releases it) when DIR holds key; else 0. */
int cache_get(const char *dir, const char *key, struct result *r);
/* Store r under key (silently nothing when r is an error or the directory is unwritable:
   the cache is an optimisation, and a report says where it could not write it). 0 or -1. */
int cache_put(const char *dir, const char *key, const struct result *r);

/* The page's cache when --cache is not given: $GPUSIM_CACHE, else $XDG_CACHE_HOME/gpusim,
   else $HOME/.cache/gpusim, into buf; NULL if none of them is set. */
const char *cache_default(char *buf, size_t n);

#endif
