/*
 * l2copy.c -- the lines the copy engine leaves in the L2 between launches (see l2copy.h).
 */
#include <stdlib.h>
#include <string.h>
#include "l2copy.h"
#include "mem_blocks.h"


struct l2copy *l2copy_new(const struct gpu_config *c)
{
    struct l2copy *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    mem_cfg_from(c, &r->mc);
    r->nsets = r->mc.l2.nsets;
    r->nrows = r->mc.n_chan * r->mc.slices_per_chan * r->nsets;
    r->assoc = r->mc.l2.assoc;
    r->n = calloc(r->nrows, sizeof *r->n);
    r->line = calloc((size_t)r->nrows * r->assoc, sizeof *r->line);
    if (!r->n || !r->line) {
        l2copy_free(r);
        return NULL;
    }
    return r;
}

void l2copy_free(struct l2copy *r)
{
    if (!r)
        return;
    free(r->n);
    free(r->line);
    free(r);
}

void l2copy_clear(struct l2copy *r)
{
    if (!r || !r->lines)
        return;
    memset(r->n, 0, r->nrows * sizeof *r->n);
    r->lines = 0;
}

/* One line written: it becomes the newest of its row; the oldest drops out of a full row. */
static void add_line(struct l2copy *r, uint64_t line)
{
    uint32_t row = icnt_slice_of(&r->mc.icnt, line << MEM_LINE_SHIFT) * r->nsets +
                   l2_set_of(&r->mc.l2, line);
    uint64_t *l = &r->line[(size_t)row * r->assoc];
    unsigned n = r->n[row], i = 0;
    while (i < n && l[i] != line)
        i++;
    if (i == n && n == r->assoc)
        i = 0;                                      /* full and absent: drop the oldest */
    else if (i == n)
        r->n[row] = (uint8_t)++n;                   /* absent: one more */
    memmove(&l[i], &l[i + 1], (n - 1 - i) * sizeof *l);
    l[n - 1] = line;
    r->lines++;
}

void l2copy_add(struct l2copy *r, uint64_t addr, uint64_t bytes)
{
    uint64_t first, last;
    if (!r || !bytes)
        return;
    first = addr >> MEM_LINE_SHIFT;
    last = (addr + bytes - 1) >> MEM_LINE_SHIFT;
    for (uint64_t line = first; line <= last; line++)
        add_line(r, line);
}

void l2copy_replay(const struct l2copy *r, struct msys *ms)
{
    if (!r || !r->lines)
        return;
    for (uint32_t row = 0; row < r->nrows; row++)
        for (unsigned i = 0; i < r->n[row]; i++)
            msys_install(ms, r->line[(size_t)row * r->assoc + i] << MEM_LINE_SHIFT);
}
