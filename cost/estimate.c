/*
 * estimate.c -- the estimate of one GPU configuration: every block's storage list (the blocks'
 * own X_storage functions, model/base/cost.h) for one SM and for the GPU-level blocks, priced per
 * technology node by area.c. The blocks and their configurations come from the block registry
 * (model/gpu/blocks.h): each instance's configuration is the one the timing model builds it
 * with (X_cfg_from), so the estimate covers every block of blocks.def without a list here; then
 * the SM top's own storage and its mechanisms' wiring (sm_storage, block "sm").
 */
#include <stdio.h>
#include <string.h>
#include "estimate.h"
#include "gpu/blocks.h"
#include "sm/sm_mech.h"

int est_load_config(struct gpu_config *c, const char *path, const char *const *sets, int nsets,
                    char *err, size_t errlen)
{
    return blk_conf_load(c, &(struct conf_src){ path, sets, nsets }, err, errlen);
}

/* The items of every block of one level, each instance's own configuration (SM level: ws
   once per scheduler, each with its slots) or, where every instance is alike (l2 slices,
   dram channels), one configuration times the instance count. */
static int level_items(const struct gpu_config *c, unsigned level, struct cost_list *l, char *err,
                       size_t errlen)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    unsigned char cfg[8192];
    for (unsigned i = 0; i < n; i++) {
        const struct blk_desc *b = &all[i];
        uint32_t inst = b->instances(c), from;
        if (b->level != level)
            continue;
        if (b->cfg_size > sizeof cfg) {
            snprintf(err, errlen, "cost: %s cfg larger than the estimator's buffer", b->name);
            return -1;
        }
        for (uint32_t k = 0; k < inst; k++) {
            if (blk_cfg(b, c, 0, k, cfg, err, errlen))
                return -1;
            from = l->n;
            b->storage(cfg, l);
            if (level != BLK_LEVEL_SM) {
                cost_set_inst(l, from, inst);
                break;
            }
        }
    }
    return 0;
}

int est_block_instance(const struct gpu_config *c, const char *name, struct cost_list *l)
{
    const struct blk_desc *b = blk_find(name);
    unsigned char cfg[8192];
    char err[256];
    if (!b || b->cfg_size > sizeof cfg || blk_cfg(b, c, 0, 0, cfg, err, sizeof err))
        return -1;
    b->storage(cfg, l);
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
    if (level_items(conf, BLK_LEVEL_SM, &e->sm.l, err, errlen))
        return -1;
    sm_storage(conf, &e->sm.l);            /* the SM top and the mechanisms' wiring */
    if (level_items(conf, BLK_LEVEL_MEM, &e->gpu.l, err, errlen) ||
        level_items(conf, BLK_LEVEL_GPU, &e->gpu.l, err, errlen))
        return -1;
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
