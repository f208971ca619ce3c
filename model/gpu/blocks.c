/*
 * blocks.c -- the block registry for its consumers (see blocks.h): the SM's rows
 * (model/sm/sm_blocks.c), the memory system's (model/mem/mem_blocks.c) and the GPU's (here);
 * and every block's configuration check at load (blk_conf_check).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "blocks.h"
#include "sm/sm_mech.h"
#include "cta.h"
#include "base/config.h"
#include "mem/mem_blocks.h"

#define BLK(n, lvl, rtl, rec, err) BLK_GPU_WRAP_##lvl(n, rtl)
#define BLK_GPU_WRAP_GPU(n, rtl) BLK_WRAPPERS(n) BLK_RTLW_##rtl(n)
#define BLK_GPU_WRAP_SM(n, rtl)
#define BLK_GPU_WRAP_MEM(n, rtl)
#include "base/blocks.def"
#undef BLK

static const struct blk_desc gpu_rows[] = {
#define BLK(n, lvl, rtl, rec, err) BLK_GPU_ROW_##lvl(n, lvl, rtl, rec, err)
#define BLK_GPU_ROW_GPU(n, lvl, rtl, rec, err) BLK_DESC(n, lvl, rtl, rec, err),
#define BLK_GPU_ROW_SM(n, lvl, rtl, rec, err)
#define BLK_GPU_ROW_MEM(n, lvl, rtl, rec, err)
#include "base/blocks.def"
#undef BLK
};

const struct blk_desc *sm_blocks_list(unsigned *n);

const struct blk_desc *blk_all(unsigned *n)
{
    static struct blk_desc all[BLK_COUNT];
    static int ready;
    if (!ready) {
        const struct blk_desc *lists[3];
        unsigned counts[3];
        lists[0] = sm_blocks_list(&counts[0]);
        lists[1] = mem_blocks_list(&counts[1]);
        lists[2] = gpu_rows;
        counts[2] = (unsigned)(sizeof gpu_rows / sizeof gpu_rows[0]);
        for (unsigned l = 0; l < 3; l++)
            for (unsigned i = 0; i < counts[l]; i++)
                all[lists[l][i].id] = lists[l][i];
        ready = 1;
    }
    *n = BLK_COUNT;
    return all;
}

const struct blk_desc *blk_find(const char *name)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    for (unsigned i = 0; name && i < n; i++)
        if (!strcmp(all[i].name, name))
            return &all[i];
    return NULL;
}

int blk_cfg(const struct blk_desc *b, const struct gpu_config *conf, uint32_t sm, uint32_t inst,
            void *cfg, char *err, size_t errlen)
{
    memset(cfg, 0, b->cfg_size);
    b->cfg_from(conf, sm, inst, cfg);
    return b->cfg_check(cfg, err, errlen);
}

/* One unit of the load-time check on configuration c (a conf_check_fn): every instance of
   registry block ctx on every SM that has one, or, for ctx NULL, the memory system's own check
   of its channels and slices (msys_cfg_check, no row of the registry). */
static int unit_check(const struct gpu_config *c, const void *ctx, char *err, size_t errlen)
{
    const struct blk_desc *b = ctx;
    union { max_align_t align; unsigned char bytes[4096]; } cfg;
    uint32_t nsm, n;
    struct msys_cfg m;
    if (!b) {
        mem_cfg_from(c, &m);
        return msys_cfg_check(&m, err, errlen);
    }
    if (b->cfg_size > sizeof cfg.bytes) {
        snprintf(err, errlen, "%s: cfg of %zu bytes, the check's buffer holds %zu", b->name,
                 b->cfg_size, sizeof cfg.bytes);
        return -1;
    }
    nsm = b->level == BLK_LEVEL_SM ? c->num_sms : 1;
    n = b->instances(c);
    for (uint32_t sm = 0; sm < nsm; sm++)
        for (uint32_t k = 0; k < n; k++)
            if (blk_cfg(b, c, sm, k, cfg.bytes, err, errlen))
                return -1;
    return 0;
}

int blk_conf_check(const struct gpu_config *c, const struct conf_src *src, char *err,
                   size_t errlen)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    char msg[CONF_ERR_LEN];
    for (unsigned i = 0; i <= n; i++) {
        const struct blk_desc *b = i < n ? &all[i] : NULL;
        if (!unit_check(c, b, msg, sizeof msg))
            continue;
        conf_blame_keys(c, src, unit_check, b, msg, sizeof msg);
        snprintf(err, errlen, "configuration: %s", msg);
        return -1;
    }
    return 0;
}

int blk_conf_load(struct gpu_config *c, const struct conf_src *src, char *err, size_t errlen)
{
    if (conf_load(c, src, err, errlen) || blk_conf_check(c, src, err, errlen) ||
        sm_mech_conf_check(c, err, errlen))
        return -1;
    return 0;
}

void blk_rtl_params(const struct gpu_config *conf, FILE *f)
{
    unsigned n;
    const struct blk_desc *all = blk_all(&n);
    for (unsigned i = 0; i < n; i++) {
        void *cfg;
        if (!all[i].rtl || !(cfg = calloc(1, all[i].cfg_size)))
            continue;
        all[i].cfg_from(conf, 0, 0, cfg);
        all[i].rtl_params(cfg, f);
        free(cfg);
    }
}

void blk_names(const char *flag, FILE *f)
{
    unsigned n, k = 0;
    const struct blk_desc *all = blk_all(&n);
    for (unsigned i = 0; i < n; i++)
        if ((!strcmp(flag, "rtl") && all[i].rtl) || (!strcmp(flag, "record") && all[i].record) ||
            !strcmp(flag, "all"))
            fprintf(f, "%s%s", k++ ? " " : "", all[i].name);
    fprintf(f, "\n");
}
