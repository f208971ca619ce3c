/*
 * cosim_cfg.c -- a block's cfg from a configuration file, as the SM makes it (cosim_cfg.h).
 */
#include <stdio.h>
#include <string.h>
#include "base/config.h"
#include "gpu/blocks.h"
#include "cosim_cfg.h"

int cosim_block_cfg(const char *path, const char *block, void *cfg, size_t size, char *err,
                    size_t errlen)
{
    struct gpu_config conf;
    const struct blk_desc *b = blk_find(block);
    if (blk_conf_load(&conf, &(struct conf_src){ path, NULL, 0 }, err, errlen))
        return -1;
    if (!b || !b->rtl) {
        snprintf(err, errlen, "cosim: '%s' is not a block with an RTL twin in the registry "
                 "(model/base/blocks.def)", block);
        return -1;
    }
    if (b->cfg_size != size) {
        snprintf(err, errlen, "cosim: %s cfg is %zu bytes, the harness expects %zu", block,
                 b->cfg_size, size);
        return -1;
    }
    return blk_cfg(b, &conf, 0, 0, cfg, err, errlen);
}
