/*
 * estimate.c -- the estimate of one GPU configuration: every block's storage list (the blocks'
 * own X_storage functions, model/base/cost.h) for one SM and for the GPU-level blocks, priced per
 * technology node by area.c. The block configurations are the ones the timing model uses:
 * sm_make_cfgs for the SM's blocks, and the same derivations as model/sm/sm.c (ws per scheduler,
 * fu, bar) and model/gpu/gpu.c (memory system) for the rest.
 */
#include <stdio.h>
#include <string.h>
#include "estimate.h"
#include "gpu/cta.h"
#include "mem/memsys.h"
#include "gpu/gpu.h"
#include "sm/sm.h"

int est_load_config(struct gpu_config *c, const char *path, const char *const *sets, int nsets,
                    char *err, size_t errlen)
{
    conf_defaults(c);
    if (path && conf_load_file(c, path, err, errlen))
        return -1;
    for (int i = 0; i < nsets; i++)
        if (!sets[i] || conf_set(c, sets[i], "--set", err, errlen))
            return -1;
    return conf_check(c, err, errlen);
}

/* Scheduler i's configuration (model/sm/sm.c: warp slot w belongs to scheduler w % nsched). */
static struct ws_cfg ws_of(const struct gpu_config *c, const struct ws_cfg *ws0, uint32_t i)
{
    struct ws_cfg w = *ws0;
    uint32_t ns = c->schedulers_per_sm ? c->schedulers_per_sm : 1;
    w.nslots = (uint8_t)((c->max_warps_per_sm + ns - 1 - i) / ns);
    w.active = (uint8_t)(c->twolevel_active < w.nslots ? c->twolevel_active : w.nslots);
    return w;
}

static int sm_items(const struct gpu_config *c, struct cost_list *l, char *err, size_t errlen)
{
    struct sm_cfgs s;
    struct fu_cfg fc = {c->schedulers_per_sm};
    struct ldst_cfg lc = {0};
    struct bar_cfg bc = {SM_MAX_CTAS};
    sm_make_cfgs(c, 0, &s);
    if (!s.sb.nslots) {
        snprintf(err, errlen, "cost: out of memory deriving the block configurations");
        return -1;
    }
    for (uint32_t i = 0; i < c->schedulers_per_sm; i++) {
        struct ws_cfg w = ws_of(c, &s.ws, i);
        ws_storage(&w, l);
    }
    sb_storage(&s.sb, l);
    simt_storage(&s.simt, l);
    fetch_storage(&s.fetch, l);
    fu_storage(&fc, l);
    ldst_storage(&lc, l);
    bar_storage(&bc, l);
    l1_storage(&s.l1, l);
    return 0;
}

static void gpu_items(const struct gpu_config *c, struct cost_list *l)
{
    struct msys_cfg m;
    struct cta_cfg cc = {c->num_sms, 0, 0};
    uint32_t n;
    gpu_msys_cfg(c, &m);
    n = l->n;
    l2_storage(&m.l2, l);
    cost_set_inst(l, n, m.n_chan * m.slices_per_chan);
    n = l->n;
    dram_storage(&m.dram, l);
    cost_set_inst(l, n, m.n_chan);
    icnt_storage(&m.icnt, l);
    cta_storage(&cc, l);
}

int est_block_instance(const struct gpu_config *c, const char *b, struct cost_list *l)
{
    struct sm_cfgs s;
    struct msys_cfg m;
    struct fu_cfg fc = {c->schedulers_per_sm};
    struct ldst_cfg lc = {0};
    struct bar_cfg bc = {SM_MAX_CTAS};
    struct cta_cfg cc = {c->num_sms, 0, 0};
    sm_make_cfgs(c, 0, &s);
    gpu_msys_cfg(c, &m);
    if (!strcmp(b, "ws")) ws_storage(&s.ws, l);
    else if (!strcmp(b, "sb")) sb_storage(&s.sb, l);
    else if (!strcmp(b, "simt")) simt_storage(&s.simt, l);
    else if (!strcmp(b, "fetch")) fetch_storage(&s.fetch, l);
    else if (!strcmp(b, "fu")) fu_storage(&fc, l);
    else if (!strcmp(b, "ldst")) ldst_storage(&lc, l);
    else if (!strcmp(b, "bar")) bar_storage(&bc, l);
    else if (!strcmp(b, "l1")) l1_storage(&s.l1, l);
    else if (!strcmp(b, "l2")) l2_storage(&m.l2, l);
    else if (!strcmp(b, "dram")) dram_storage(&m.dram, l);
    else if (!strcmp(b, "icnt")) icnt_storage(&m.icnt, l);
    else if (!strcmp(b, "cta")) cta_storage(&cc, l);
    else return -1;
    return 0;
}

/* Length of the array name: the part of the item name before the first '.'. */
static size_t prefix_len(const char *name)
{
    const char *d = strchr(name, '.');
    return d ? (size_t)(d - name) : strlen(name);
}

static int same_array(const struct cost_item *a, const struct cost_item *b)
{
    size_t n = prefix_len(a->name);
    return !strcmp(a->block, b->block) && a->inst == b->inst && a->entries == b->entries &&
           a->banks == b->banks && a->onchip == b->onchip && n == prefix_len(b->name) &&
           !strncmp(a->name, b->name, n);
}

/* Price items [a, b) as one array and share its area among them by bits. */
static void price_run(struct est_list *e, uint32_t a, uint32_t b)
{
    const struct cost_item *f = &e->l.it[a];
    uint64_t bits = 0;
    uint8_t rp = 0, wp = 0;
    for (uint32_t i = a; i < b; i++) {
        const struct cost_item *it = &e->l.it[i];
        bits += it->bits;
        rp = (rp == COST_PAR || it->rports == COST_PAR) ? COST_PAR :
             (it->rports > rp ? it->rports : rp);
        wp = it->wports > wp ? it->wports : wp;
    }
    for (unsigned n = 0; n < EST_NNODES; n++) {
        struct est_price p = {0.0, EST_FF};
        if (f->onchip)
            p = est_array(est_node(n), f->entries, bits, f->banks, rp, wp);
        for (uint32_t i = a; i < b; i++) {
            e->um2[i][n] = p.um2 * e->l.it[i].bits / (double)bits * e->l.it[i].inst;
            e->kind[i][n] = p.kind;
        }
    }
}

void est_price_list(struct est_list *e)
{
    uint32_t a = 0;
    while (a < e->l.n) {
        uint32_t b = a + 1;
        while (b < e->l.n && same_array(&e->l.it[a], &e->l.it[b]))
            b++;
        price_run(e, a, b);
        a = b;
    }
}

int est_build(struct est *e, const struct gpu_config *conf, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->conf = *conf;
    cost_list_init(&e->sm.l);
    cost_list_init(&e->gpu.l);
    if (sm_items(conf, &e->sm.l, err, errlen))
        return -1;
    gpu_items(conf, &e->gpu.l);
    if (e->sm.l.overflow || e->gpu.l.overflow) {
        snprintf(err, errlen, "cost: more than %d storage items in a list (COST_MAX_ITEMS)",
                 COST_MAX_ITEMS);
        return -1;
    }
    est_price_list(&e->sm);
    est_price_list(&e->gpu);
    return 0;
}

struct est_sum est_sum(const struct est_list *e, const char *block, const char *mech)
{
    struct est_sum s;
    memset(&s, 0, sizeof s);
    for (uint32_t i = 0; i < e->l.n; i++) {
        const struct cost_item *it = &e->l.it[i];
        if (!it->onchip || (block && strcmp(block, it->block)) || (mech && strcmp(mech, it->mech)))
            continue;
        s.bits += it->entries * it->bits * it->inst;
        for (unsigned n = 0; n < EST_NNODES; n++)
            s.um2[n] += e->um2[i][n];
        s.kinds |= 1u << e->kind[i][EST_REF_NODE];
    }
    return s;
}
