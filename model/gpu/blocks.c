/*
 * blocks.c -- the block registry for its consumers (see blocks.h): the SM's rows
 * (model/sm/sm_blocks.c), the memory system's (model/mem/mem_blocks.c) and the GPU's (here).
 */
#include <stdlib.h>
#include <string.h>
#include "blocks.h"
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
