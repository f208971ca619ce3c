/*
 * sm_blocks.c -- the SM rows of the block registry (model/base/blocks.def) and what the SM
 * top does with every block alike: allocate its instances (configuration, registers q and d,
 * outputs), derive and check the configurations, reset, commit, read the error outputs,
 * record a block's input stream. A block added to blocks.def at level SM gets all of this
 * without a change here but its header's include (a mechanism's block: sm.h does not need it).
 *
 * With -DGPUSIM_CHECK (make CHECK=1) every commit is followed by a comparison of q with d:
 * a block whose commit leaves them different (it copied less than its eval wrote) stops the
 * run naming the block, the SM, the cycle and the first differing byte.
 */
#include <stdlib.h>
#include <string.h>
#include "sm.h"
/* the blocks sm.h does not need for the SM top's own wiring: the mechanisms' (sm_mech.h) */
#include "ntb.h"
#include "pas.h"
#include "vtc.h"
#include "wst.h"

#define BLK(n, lvl, rtl, rec, err) BLK_SM_WRAP_##lvl(n, rtl)
#define BLK_SM_WRAP_SM(n, rtl) BLK_WRAPPERS(n) BLK_RTLW_##rtl(n)
#define BLK_SM_WRAP_MEM(n, rtl)
#define BLK_SM_WRAP_GPU(n, rtl)
#include "base/blocks.def"
#undef BLK

/* The SM's descriptors, in registry order, and where each block's members are in struct sm. */
struct sm_row {
    struct blk_desc d;
    size_t c, q, dd, o, n;         /* offsetof the members n_c, n_q, n_d, n_o, n_n */
};

static const struct sm_row rows[] = {
#define BLK(n, lvl, rtl, rec, err) BLK_SM_ROW_##lvl(n, lvl, rtl, rec, err)
#define BLK_SM_ROW_SM(n, lvl, rtl, rec, err)                                                 \
    { BLK_DESC(n, lvl, rtl, rec, err), offsetof(struct sm, n##_c), offsetof(struct sm, n##_q), \
      offsetof(struct sm, n##_d), offsetof(struct sm, n##_o), offsetof(struct sm, n##_n) },
#define BLK_SM_ROW_MEM(n, lvl, rtl, rec, err)
#define BLK_SM_ROW_GPU(n, lvl, rtl, rec, err)
#include "base/blocks.def"
#undef BLK
};
#define NROWS (sizeof rows / sizeof rows[0])

#define MEMBER(s, off) (*(void **)((char *)(s) + (off)))
#define CMEMBER(s, off) (*(void *const *)((const char *)(s) + (off)))
#define COUNT(s, off) (*(uint32_t *)((char *)(s) + (off)))

const struct blk_desc *sm_block_desc(unsigned id)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].d.id == id)
            return &rows[i].d;
    return NULL;
}

/* The SM's descriptors for the registry's consumers (gpu/blocks.c). */
const struct blk_desc *sm_blocks_list(unsigned *n)
{
    static struct blk_desc list[NROWS];
    for (size_t i = 0; i < NROWS; i++)
        list[i] = rows[i].d;
    *n = (unsigned)NROWS;
    return list;
}

/* The flat list of instances (commit) and of error outputs, so that the per-cycle loops do no
   more than a call or a load per instance. */
static void index_instances(struct sm *s)
{
    s->ninst = s->nerrs = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const struct sm_row *r = &rows[i];
        char *c = MEMBER(s, r->c), *q = MEMBER(s, r->q), *d = MEMBER(s, r->dd);
        const char *o = CMEMBER(s, r->o);
        for (uint32_t k = 0; k < COUNT(s, r->n) && s->ninst < SM_MAX_INST; k++) {
            s->inst[s->ninst++] = (struct sm_inst){ r->d.commit, c + k * r->d.cfg_size,
                                                    q + k * r->d.regs_size,
                                                    d + k * r->d.regs_size, (unsigned)i, k };
            if (r->d.err) {
                s->err_row[s->nerrs] = (uint8_t)i;
                s->errs[s->nerrs++] = (const uint8_t *)(o + k * r->d.out_size + r->d.err_off);
            }
        }
    }
}

int sm_blocks_init(struct sm *s, char *err, size_t errlen)
{
    for (size_t i = 0; i < NROWS; i++) {
        const struct sm_row *r = &rows[i];
        uint32_t n = r->d.instances(s->p.conf), k;
        char *cfg;
        COUNT(s, r->n) = n;
        MEMBER(s, r->c) = calloc(n ? n : 1, r->d.cfg_size);
        MEMBER(s, r->q) = calloc(n ? n : 1, r->d.regs_size);
        MEMBER(s, r->dd) = calloc(n ? n : 1, r->d.regs_size);
        MEMBER(s, r->o) = calloc(n ? n : 1, r->d.out_size);
        if (!MEMBER(s, r->c) || !MEMBER(s, r->q) || !MEMBER(s, r->dd) || !MEMBER(s, r->o)) {
            snprintf(err, errlen, "out of host memory for SM %u", s->p.id);
            return -1;
        }
        cfg = MEMBER(s, r->c);
        for (k = 0; k < n; k++) {
            r->d.cfg_from(s->p.conf, s->p.id, k, cfg + k * r->d.cfg_size);
            if (r->d.cfg_check(cfg + k * r->d.cfg_size, err, errlen))
                return -1;
        }
    }
    index_instances(s);
    return 0;
}

void sm_blocks_free(struct sm *s)
{
    for (size_t i = 0; i < NROWS; i++) {
        free(MEMBER(s, rows[i].c));
        free(MEMBER(s, rows[i].q));
        free(MEMBER(s, rows[i].dd));
        free(MEMBER(s, rows[i].o));
    }
}

void sm_blocks_reset(struct sm *s)
{
    for (size_t i = 0; i < NROWS; i++) {
        const struct sm_row *r = &rows[i];
        char *c = MEMBER(s, r->c), *q = MEMBER(s, r->q), *d = MEMBER(s, r->dd);
        for (uint32_t k = 0; k < COUNT(s, r->n); k++) {
            r->d.reset(c + k * r->d.cfg_size, q + k * r->d.regs_size);
            memcpy(d + k * r->d.regs_size, q + k * r->d.regs_size, r->d.regs_size);
        }
    }
}

#ifdef GPUSIM_CHECK
static int check_commit(struct sm *s, const struct sm_inst *in)
{
    const struct sm_row *r = &rows[in->row];
    const char *q = in->q, *d = in->d;
    if (!memcmp(q, d, r->d.regs_size))
        return 0;
    for (size_t b = 0; b < r->d.regs_size; b++)
        if (q[b] != d[b]) {
            snprintf(s->err, sizeof s->err, "SM %u cycle %llu: block %s (instance %u): commit "
                     "left q != d at byte %zu of struct %s_regs (CHECK=1)", s->p.id,
                     (unsigned long long)s->now, r->d.name, in->k, b, r->d.name);
            return -1;
        }
    return 0;
}
#endif

void sm_blocks_commit(struct sm *s, uint64_t still)
{
    for (uint32_t i = 0; i < s->ninst; i++) {
        const struct sm_inst *in = &s->inst[i];
        if (!(still >> rows[in->row].d.id & 1))
            in->commit(in->cfg, in->q, in->d);
#ifdef GPUSIM_CHECK
        if (!s->failed && check_commit(s, in))
            s->failed = 1;
#endif
    }
}

int sm_blocks_unchanged(const struct sm *s, uint64_t skip)
{
    for (uint32_t i = 0; i < s->ninst; i++) {
        const struct sm_row *r = &rows[s->inst[i].row];
        if (!(skip >> r->d.id & 1) && memcmp(s->inst[i].q, s->inst[i].d, r->d.regs_size))
            return 0;
    }
    return 1;
}

/* Error output i's flags (one or two bytes, the block's err field). */
static unsigned err_flags(const struct sm *s, uint32_t i)
{
    uint16_t v = 0;
    if (rows[s->err_row[i]].d.err_bytes == 2)
        memcpy(&v, s->errs[i], 2);
    else
        v = *s->errs[i];
    return v;
}

int sm_blocks_errors(struct sm *s)
{
    for (uint32_t i = 0; i < s->nerrs; i++)
        if (err_flags(s, i)) {
            const char *name = rows[s->err_row[i]].d.name;
            snprintf(s->err, sizeof s->err, "SM %u cycle %llu: block %s reported error "
                     "0x%02x (the bits are its X_out.err flags, model/sm/%s.h)", s->p.id,
                     (unsigned long long)s->now, name, err_flags(s, i), name);
            return -1;
        }
    return 0;
}

void sm_rec_put(struct sm *s, unsigned id, uint32_t inst, const void *in, uint32_t size)
{
    struct sm_rec *r = s->rec;
    uint64_t cycle = s->now;
    if (!r || r->block != (int)id || inst || r->overflow)
        return;
    if (r->len + sizeof cycle + size > r->cap) {
        r->overflow = 1;
        return;
    }
    memcpy(r->buf + r->len, &cycle, sizeof cycle);
    memcpy(r->buf + r->len + sizeof cycle, in, size);
    r->len += sizeof cycle + size;
    r->records++;
}
