/*
 * bbv.c -- per-thread basic block vectors of a launch (bbv.h): the probe sink that counts
 * block entries per thread, and the binary and CSV forms with the binary reader.
 */
#include <stdlib.h>
#include <string.h>
#include "gpu/bbv.h"
#include "base/infile.h"
#include "sm/iss.h"

/* An instruction's share of its block's figures (bbv.h). */
static void insn_figures(const struct gpu_config *c, const struct ptx_insn *in,
                         struct bbv_block *k)
{
    struct iss_dec d;
    k->ninsns++;
    if (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) {
        switch (in->space) {
        case PS_SHARED: k->fixed += c->lat_shared; return;
        case PS_CONST:  k->fixed += c->lat_const; return;
        case PS_PARAM:  k->fixed += c->lat_param; return;
        default: break;
        }
        if (in->op == OP_LD || in->op == OP_ATOM)
            k->gmem++;
        else
            k->fixed += 1;              /* a store or reduction waits for nothing */
        return;
    }
    iss_decode(c, in, &d);
    k->fixed += d.lat;
}

/* a x b x c into *p; 0, or -1 when it passes 2^64 - 1. */
static int mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *p)
{
    return __builtin_mul_overflow(a, b, p) || __builtin_mul_overflow(*p, c, p) ? -1 : 0;
}

/* The threads of a launch of grid x block (*nthreads, *tpc); 0 when they and their counts
   of nblocks blocks fit (BBV_MAX_BYTES, checked without overflow), -1 when they do not. */
static int counts_fit(struct gs_dim3 grid, struct gs_dim3 block, uint32_t nblocks,
                      uint64_t *nthreads, uint64_t *tpc)
{
    uint64_t ctas;
    if (mul3(grid.x, grid.y, grid.z, &ctas) || mul3(block.x, block.y, block.z, tpc) ||
        *tpc > UINT32_MAX || __builtin_mul_overflow(ctas, *tpc, nthreads))
        return -1;
    return nblocks && *nthreads > BBV_MAX_BYTES / sizeof(uint32_t) / nblocks ? -1 : 0;
}

int bbv_begin(struct bbv *b, const char *kernel, const struct ptx_prog *p, const struct flow *f,
              const struct gpu_config *c, struct gs_dim3 grid, struct gs_dim3 block, char *err,
              size_t errlen)
{
    uint64_t tpc = 0;
    int fit;
    memset(b, 0, sizeof *b);
    snprintf(b->kernel, sizeof b->kernel, "%s", kernel);
    b->grid = grid;
    b->block = block;
    b->flow = f;
    b->nblocks = f->nblocks;
    fit = counts_fit(grid, block, b->nblocks, &b->nthreads, &tpc);
    b->tpc = (uint32_t)tpc;
    if (fit) {
        snprintf(err, errlen, "bbv: launch of %s: grid (%u,%u,%u) x block (%u,%u,%u) threads "
                 "x %u basic blocks of counts exceed %llu bytes", kernel, grid.x, grid.y, grid.z,
                 block.x, block.y, block.z, b->nblocks, (unsigned long long)BBV_MAX_BYTES);
        return -1;
    }
    b->blk = calloc(b->nblocks + 1, sizeof *b->blk);
    b->count = calloc(b->nthreads * b->nblocks + 1, sizeof *b->count);
    if (!b->blk || !b->count) {
        bbv_free(b);
        snprintf(err, errlen, "bbv: out of memory for %s's counts", kernel);
        return -1;
    }
    for (uint32_t k = 0; k < b->nblocks; k++) {
        b->blk[k].first = f->blocks[k].first;
        for (uint32_t pc = f->blocks[k].first; pc <= f->blocks[k].last; pc++)
            insn_figures(c, &p->insns[pc], &b->blk[k]);
    }
    return 0;
}

static uint32_t ppm(uint64_t hits, uint64_t misses)
{
    return hits + misses ? (uint32_t)((hits * 1000000u + (hits + misses) / 2) / (hits + misses))
                         : BBV_UNKNOWN;
}

void bbv_end(struct bbv *b, const struct gs_stats *st, uint32_t nsms)
{
    b->nsms = nsms;
    b->occupancy = st->occupancy;
    b->cycles = st->cycles;
    b->l1_ppm = ppm(st->t.l1_hits, st->t.l1_misses);
    b->l2_ppm = ppm(st->t.l2_hits, st->t.l2_misses);
}

void bbv_free(struct bbv *b)
{
    free(b->blk);
    free(b->count);
    b->blk = NULL;
    b->count = NULL;
}

void bbv_sink(void *arg, const struct probe_event *e)
{
    struct bbv *b = arg;
    uint32_t k = b->flow->block_of[e->pc];
    if (b->blk[k].first != e->pc)
        return;
    for (uint32_t m = e->active; m; m &= m - 1) {
        uint32_t tid = e->tid0 + (uint32_t)__builtin_ctz(m);
        uint64_t t = e->cta * b->tpc + tid;
        uint32_t *c;
        if (tid >= b->tpc || t >= b->nthreads) {
            b->stray++;
            continue;
        }
        c = &b->count[t * b->nblocks + k];
        *c += *c != UINT32_MAX;
    }
}

/* ------------------------------------------------------------------ writing */

static int put32(FILE *f, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return fwrite(x, 1, 4, f) == 4 ? 0 : -1;
}

int bbv_write_magic(FILE *f)
{
    return fwrite(BBV_MAGIC, 1, 8, f) == 8 ? 0 : -1;
}

static int write_bin(FILE *f, const struct bbv *b)
{
    uint32_t len = (uint32_t)strlen(b->kernel);
    const uint32_t dims[6] = {b->grid.x, b->grid.y, b->grid.z, b->block.x, b->block.y,
                              b->block.z};
    const uint32_t run[4] = {b->nsms, b->occupancy, b->l1_ppm, b->l2_ppm};
    int rc = put32(f, len) | (fwrite(b->kernel, 1, len, f) == len ? 0 : -1);
    for (unsigned i = 0; i < 6; i++)
        rc |= put32(f, dims[i]);
    for (unsigned i = 0; i < 4; i++)
        rc |= put32(f, run[i]);
    rc |= put32(f, (uint32_t)b->cycles) | put32(f, (uint32_t)(b->cycles >> 32));
    rc |= put32(f, b->nblocks);
    for (uint32_t k = 0; k < b->nblocks; k++)
        rc |= put32(f, b->blk[k].first) | put32(f, b->blk[k].ninsns) | put32(f, b->blk[k].fixed) |
              put32(f, b->blk[k].gmem);
    rc |= put32(f, (uint32_t)b->nthreads) | put32(f, (uint32_t)(b->nthreads >> 32));
    for (uint64_t i = 0; i < b->nthreads * b->nblocks && !rc; i++)
        rc |= put32(f, b->count[i]);
    return rc;
}

static void put_ratio(FILE *f, const char *what, uint32_t v)
{
    if (v == BBV_UNKNOWN)
        fprintf(f, ", %s -", what);
    else
        fprintf(f, ", %s %.4f", what, v / 1e6);
}

static int write_csv(FILE *f, const struct bbv *b, unsigned index)
{
    fprintf(f, "# launch %u: kernel %s, grid %u,%u,%u, block %u,%u,%u, %u basic blocks, %llu "
            "threads, %u SMs x %u CTAs, %llu cycles", index, b->kernel, b->grid.x, b->grid.y,
            b->grid.z, b->block.x, b->block.y, b->block.z, b->nblocks,
            (unsigned long long)b->nthreads, b->nsms, b->occupancy,
            (unsigned long long)b->cycles);
    put_ratio(f, "L1 hits", b->l1_ppm);
    put_ratio(f, "L2 hits", b->l2_ppm);
    fprintf(f, "\n# blocks (instructions/fixed latency/global accesses):");
    for (uint32_t k = 0; k < b->nblocks; k++)
        fprintf(f, " b%u %u/%u/%u", k, b->blk[k].ninsns, b->blk[k].fixed, b->blk[k].gmem);
    fprintf(f, "\nthread");
    for (uint32_t k = 0; k < b->nblocks; k++)
        fprintf(f, ",b%u@%u", k, b->blk[k].first);
    fputc('\n', f);
    for (uint64_t t = 0; t < b->nthreads; t++) {
        fprintf(f, "%llu", (unsigned long long)t);
        for (uint32_t k = 0; k < b->nblocks; k++)
            fprintf(f, ",%u", bbv_at(b, t, k));
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int bbv_write(FILE *f, const struct bbv *b, int csv, unsigned index)
{
    return csv ? write_csv(f, b, index) : write_bin(f, b);
}

/* ------------------------------------------------------------------ reading */

char *bbv_load(const char *path, size_t *len, char *err, size_t errlen)
{
    return infile_read(path, "BBV file", BBV_FILE_MAX, len, err, errlen);
}

/* 1 read, 0 clean end of file (at_start only), -1 short. */
static int get32(FILE *f, uint32_t *v, int at_start)
{
    uint8_t x[4];
    size_t n = fread(x, 1, 4, f);
    if (n == 0 && at_start && feof(f))
        return 0;
    if (n != 4)
        return -1;
    *v = (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 | (uint32_t)x[3] << 24;
    return 1;
}

static int bad(FILE *f, char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "bbv: malformed file at byte %ld: %s", ftell(f), what);
    return -1;
}

int bbv_read_magic(FILE *f, char *err, size_t errlen)
{
    char m[8];
    if (fread(m, 1, 8, f) != 8 || memcmp(m, BBV_MAGIC, 8))
        return bad(f, err, errlen, "not a BBV file (its first 8 bytes are not \"GSBBV1\\n\")");
    return 0;
}

/* A kernel name of n bytes as the PTX parser spells one (identifier characters, '.' and ':'):
   nothing that would end a line or a field of the CSV form, no NUL. */
static int name_ok(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || (s[i] && strchr("_$%.:", s[i]))))
            return 0;
    return 1;
}

/* The launch's shape: no zero dimension, nthreads the grid's CTAs x the block's threads (at
   most 2^32 - 1), the counts within BBV_MAX_BYTES. */
static int check_shape(FILE *f, struct bbv *b, char *err, size_t errlen)
{
    uint64_t n, tpc;
    if (!b->grid.x || !b->grid.y || !b->grid.z || !b->block.x || !b->block.y || !b->block.z)
        return bad(f, err, errlen, "a zero grid or block dimension");
    if (counts_fit(b->grid, b->block, 0, &n, &tpc) || n != b->nthreads)
        return bad(f, err, errlen, "the thread count is not the grid's CTAs x the block's "
                   "threads (at most 2^32 - 1)");
    if (counts_fit(b->grid, b->block, b->nblocks, &n, &tpc))
        return bad(f, err, errlen, "more counts than a launch may have (2 GiB)");
    b->tpc = (uint32_t)tpc;
    return 1;
}

/* Room for element i of n (of `size` bytes each) at *p, grown as the elements arrive: doubled
   from 1024, at most n, so that a short file claiming many costs no more memory than it
   holds. 0, or -1 out of memory. */
static int room(void **p, uint64_t *cap, uint64_t i, uint64_t n, size_t size)
{
    void *q;
    if (i < *cap)
        return 0;
    *cap = *cap ? *cap * 2 : 1024;
    *cap = *cap < n ? *cap : n;
    if (!(q = realloc(*p, *cap * size)))
        return -1;
    *p = q;
    return 0;
}

/* The block figures of b (b->nblocks). 1, or -1 with the message. */
static int read_blocks(FILE *f, struct bbv *b, char *err, size_t errlen)
{
    uint64_t cap = 0;
    for (uint32_t k = 0; k < b->nblocks; k++) {
        void *p = b->blk;
        struct bbv_block *x;
        if (room(&p, &cap, k, b->nblocks, sizeof *b->blk))
            return bad(f, err, errlen, "out of memory");
        b->blk = p;
        x = &b->blk[k];
        if (get32(f, &x->first, 0) != 1 || get32(f, &x->ninsns, 0) != 1 ||
            get32(f, &x->fixed, 0) != 1 || get32(f, &x->gmem, 0) != 1)
            return bad(f, err, errlen, "block figures");
    }
    return 1;
}

/* The n counts of b. 1, or -1 with the message. */
static int read_counts(FILE *f, struct bbv *b, uint64_t n, char *err, size_t errlen)
{
    uint64_t cap = 0;
    for (uint64_t i = 0; i < n; i++) {
        void *p = b->count;
        if (room(&p, &cap, i, n, sizeof *b->count))
            return bad(f, err, errlen, "out of memory");
        b->count = p;
        if (get32(f, &b->count[i], 0) != 1)
            return bad(f, err, errlen, "counts cut short");
    }
    return 1;
}

static int read_head(FILE *f, struct bbv *b, char *err, size_t errlen)
{
    uint32_t len, d[6], run[4], lo, hi;
    int r = get32(f, &len, 1);
    if (r < 0)
        return bad(f, err, errlen, "stray bytes after the last launch");
    if (r == 0)
        return 0;
    if (len >= sizeof b->kernel || fread(b->kernel, 1, len, f) != len)
        return bad(f, err, errlen, "kernel name");
    b->kernel[len] = 0;
    if (!name_ok(b->kernel, len))
        return bad(f, err, errlen, "kernel name (empty, or a character a PTX name has not)");
    for (unsigned i = 0; i < 6; i++)
        if (get32(f, &d[i], 0) != 1)
            return bad(f, err, errlen, "grid and block");
    b->grid = (struct gs_dim3){d[0], d[1], d[2]};
    b->block = (struct gs_dim3){d[3], d[4], d[5]};
    for (unsigned i = 0; i < 4; i++)
        if (get32(f, &run[i], 0) != 1)
            return bad(f, err, errlen, "SMs, occupancy and hit ratios");
    b->nsms = run[0];
    b->occupancy = run[1];
    b->l1_ppm = run[2];
    b->l2_ppm = run[3];
    if (get32(f, &lo, 0) != 1 || get32(f, &hi, 0) != 1)
        return bad(f, err, errlen, "cycles");
    b->cycles = (uint64_t)hi << 32 | lo;
    if (get32(f, &b->nblocks, 0) != 1 || b->nblocks == 0 || b->nblocks > (1u << 24))
        return bad(f, err, errlen, "basic block count");
    if (read_blocks(f, b, err, errlen) < 0)
        return -1;
    if (get32(f, &lo, 0) != 1 || get32(f, &hi, 0) != 1)
        return bad(f, err, errlen, "thread count");
    b->nthreads = (uint64_t)hi << 32 | lo;
    return check_shape(f, b, err, errlen);
}

int bbv_read(FILE *f, struct bbv *b, char *err, size_t errlen)
{
    int r;
    memset(b, 0, sizeof *b);
    r = read_head(f, b, err, errlen);
    if (r > 0)
        r = read_counts(f, b, b->nthreads * b->nblocks, err, errlen);
    if (r <= 0)
        bbv_free(b);
    return r;
}
