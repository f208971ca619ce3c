/*
 * fuzz_res_one.c -- one fuzz input through the register record reader (model/ptx/ptx_res.c):
 * the bytes as a `.res` file (ptx_res_parse: what ptx_res_read does with a file's bytes, NUL
 * bytes included). A record that reads must have 1 to PTX_RES_MAX_REGS registers per kernel
 * and survive its own text: ptx_res_write's output must read back to the same record (an
 * empty tool line is written as "ptxas", an empty target as "?", as the writer does for a
 * record ptxas gave none). Every call must succeed or fail with a message. Bounds: none
 * needed -- the reader is linear in its input and allocates only a copy of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "ptx/ptx_res.h"

/* b is what writing a and reading it back must give. */
static int same(const struct ptx_res *a, const struct ptx_res *b)
{
    const char *tool = a->tool[0] ? a->tool : "ptxas", *target = a->target[0] ? a->target : "?";
    if (strcmp(tool, b->tool) || strcmp(target, b->target) || a->ptx_hash != b->ptx_hash ||
        a->nkernels != b->nkernels)
        return 0;
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const struct ptx_res_kernel *x = &a->k[i], *y = &b->k[i];
        if (strcmp(x->name, y->name) || x->regs != y->regs || x->shared != y->shared ||
            x->stack != y->stack || x->spill_stores != y->spill_stores ||
            x->spill_loads != y->spill_loads || x->text_hash != y->text_hash)
            return 0;
    }
    return 1;
}

/* A record that reads has registers ptxas could allocate (-1 and 0 were taken). 0, or 1. */
static int counts_ok(const struct ptx_res *r)
{
    for (uint32_t i = 0; i < r->nkernels; i++)
        if (r->k[i].regs == 0 || r->k[i].regs > PTX_RES_MAX_REGS) {
            fprintf(stderr, "fuzz_res: kernel %s read with %u registers\n", r->k[i].name,
                    r->k[i].regs);
            return 1;
        }
    return 0;
}

/* The record r written, then read back: 0 when it reads as r. */
static int round_trip(const struct ptx_res *r)
{
    struct ptx_res *back = calloc(1, sizeof *back);
    char *text = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int bad = !back || !f;
    if (f) {
        ptx_res_write(r, "fuzz.ptx", f);
        bad |= fclose(f);
    }
    if (!bad && (ptx_res_parse(text, len, "written", back, err, sizeof err) || !same(r, back))) {
        fprintf(stderr, "fuzz_res: the record does not read back as itself: %s\n--- written\n"
                "%s", err, text);
        bad = 1;
    }
    free(text);
    free(back);
    return bad;
}

int fuzz_res_one(const uint8_t *data, size_t size)
{
    struct ptx_res *r = calloc(1, sizeof *r);
    char *buf = malloc(size + 1), err[512] = "";
    int rc, bad = 0;
    if (!r || !buf) {
        free(r);
        free(buf);
        return 1;
    }
    memcpy(buf, data, size);
    buf[size] = 0;
    rc = ptx_res_parse(buf, size, "fuzz.res", r, err, sizeof err);
    if (rc == 0)
        bad = counts_ok(r) + round_trip(r);
    else if (rc != -1 || !err[0]) {
        fprintf(stderr, "fuzz_res: ptx_res_parse returned %d with message \"%s\"\n", rc, err);
        bad = 1;
    }
    free(buf);
    free(r);
    return bad;
}
