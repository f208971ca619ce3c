/*
 * cosim_cfg.c -- a block's cfg from a configuration file, as the SM makes it (cosim_cfg.h).
 */
#include <stdio.h>
#include <string.h>
#include "base/config.h"
#include "sm/sm.h"
#include "cosim_cfg.h"

int cosim_block_cfg(const char *path, const char *block, void *cfg, size_t size, char *err,
                    size_t errlen)
{
    struct gpu_config conf;
    struct sm_cfgs c;
    const void *src;
    size_t have;
    conf_defaults(&conf);
    if (conf_load_file(&conf, path, err, errlen) || conf_check(&conf, err, errlen))
        return -1;
    sm_make_cfgs(&conf, 0, &c);
    if (!strcmp(block, "ws")) { src = &c.ws; have = sizeof c.ws; }
    else if (!strcmp(block, "sb")) { src = &c.sb; have = sizeof c.sb; }
    else if (!strcmp(block, "simt")) { src = &c.simt; have = sizeof c.simt; }
    else {
        snprintf(err, errlen, "cosim: unknown block '%s' (ws, sb, simt)", block);
        return -1;
    }
    if (have != size) {
        snprintf(err, errlen, "cosim: %s cfg is %zu bytes, the harness expects %zu", block,
                 have, size);
        return -1;
    }
    memcpy(cfg, src, size);
    return 0;
}
