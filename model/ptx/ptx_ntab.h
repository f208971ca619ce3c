/*
 * ptx_ntab.h -- the front end's table of names: an open-addressing hash table from a name (a
 * byte string and its length) to a 32-bit value, used by every name look-up of the parser, the
 * linker and the printer (private to model/ptx; docs/ptx.md "Names").
 *
 * Not a hardware block: it is filled while a module is parsed, a kernel linked or printed, and
 * never used in the cycle loop.  FNV-1a hashes, linear probing, a power-of-two number of slots
 * that doubles when half are in use; the table keeps its own copy of every name, so a name
 * need not outlive the call that added it.  A name once added stays (its value may become
 * NTAB_NONE).  A zeroed struct ntab is an empty table.
 *
 * Work counter: every slot a look-up examines (each probe, each name compared) and every step a
 * caller takes along its own chain of shadowed declarations (ntab_work_add) counts one unit.
 * tests/test_ptx_scale.c reads it to check that look-ups stay linear in the number of
 * declarations without timing anything; the count is per thread.
 */
#ifndef PTX_NTAB_H
#define PTX_NTAB_H
#include <stddef.h>
#include <stdint.h>

#define NTAB_NONE (-1)             /* the value of a name not in the table */

struct ntab_slot {
    uint32_t hash, len;
    uint32_t key;                  /* offset of the name in keys + 1; 0: an empty slot */
    int32_t  val;
};

struct ntab {
    struct ntab_slot *slot;  uint32_t cap, n;      /* cap: 0 or a power of two */
    char    *keys;           uint32_t nkeys, cap_keys;
};

/* FNV-1a (32 bits) of len bytes. */
uint32_t ntab_hash(const char *s, size_t len);
/* The value of a name, NTAB_NONE if absent. */
int32_t  ntab_get(const struct ntab *t, const char *s, size_t len);
/* Where the value of a name is kept, the name added (with NTAB_NONE) if absent; valid until
   the next ntab_ref on the table.  NULL when out of memory (the table is unchanged). */
int32_t *ntab_ref(struct ntab *t, const char *s, size_t len);
/* The same with a 32-bit number as the name (its 4 bytes). */
int32_t  ntab_get_u32(const struct ntab *t, uint32_t k);
int32_t *ntab_ref_u32(struct ntab *t, uint32_t k);
/* Set a name's value; 0, or -1 out of memory. */
int      ntab_set(struct ntab *t, const char *s, size_t len, int32_t val);
void     ntab_free(struct ntab *t);

/* A parsed module's index of names (ptx_module.names): its functions and its module-scope
   variables, each name to its index in funcs[] / vars[]. */
struct ptx_names {
    struct ntab funcs, vars;
};

/* The work counter (see above). */
uint64_t ntab_work(void);
void     ntab_work_reset(void);
void     ntab_work_add(uint64_t n);

#endif
