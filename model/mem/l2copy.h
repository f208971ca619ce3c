/*
 * l2copy.h -- the lines the copy engine leaves in the L2 between launches (configuration key
 * l2_copy_install; docs/l2.md, "Lines installed by copies").
 *
 * Modelled: on Fermi and Kepler every write to device memory passes through the L2 slice in
 * front of its DRAM channel, the copy engine's included, so after a host-to-device copy (or a
 * memset) the copied lines are resident in the L2, the most recently copied ones most
 * recently used. GPGPU-Sim models the same with -gpgpu_perf_sim_memcpy (default 1, "Fill the
 * L2 cache on memcpy"). The copy's own time is not part of any kernel's cycles.
 *
 * Not a hardware block: simulation bookkeeping on the host side, outside the cycle loop. It
 * records, per L2 slice and set, the last `assoc` distinct lines written by copies since the
 * last launch, oldest first -- exactly what the copies leave in a cold slice whose victim is
 * its least recently used line -- so its size is bounded by the L2's (slices x sets x ways
 * line addresses: 48 KB on a GTX480) whatever the copies' size. At launch set-up, before
 * cycle 0, l2copy_replay installs them into the memory system's tags in that order
 * (msys_install -> l2_install: valid, clean lines, LRU order as the copy left it); then the
 * launch clears the record.
 *
 * Address -> slice and set: the memory system's own mapping (icnt_slice_of, l2_set_of) for
 * the configuration the record was made for.
 */
#ifndef L2COPY_H
#define L2COPY_H
#include <stdint.h>
#include "memsys.h"

struct gpu_config;

struct l2copy {
    struct msys_cfg mc;           /* the configuration's memory system (mapping, sizes) */
    uint32_t nsets;               /* sets per slice */
    uint32_t nrows;               /* slices x sets */
    uint32_t assoc;               /* ways per set */
    uint64_t lines;               /* line writes recorded since the last clear */
    uint8_t  *n;                  /* [row] lines held, 0..assoc */
    uint64_t *line;               /* [row * assoc + i]: i = 0 oldest .. n[row]-1 newest */
};

/* A record for configuration c (allocates; NULL if out of host memory). */
struct l2copy *l2copy_new(const struct gpu_config *c);
void l2copy_free(struct l2copy *r);
/* The copy engine wrote [addr, addr + bytes): every line it touches, in address order. */
void l2copy_add(struct l2copy *r, uint64_t addr, uint64_t bytes);
void l2copy_clear(struct l2copy *r);
/* Install the recorded lines into ms's L2 tags, oldest first; before ms's first tick. */
void l2copy_replay(const struct l2copy *r, struct msys *ms);

#endif
