/*
 * cosim_cfg.h -- the co-simulation harnesses' door to the GPU model's configuration: the cfg
 * struct of one block exactly as the SM builds it (the block registry, instance 0 on SM 0) from a configuration
 * file.  C, so that the C++ harnesses include only their block's header (tb/cosim_cfg.c).
 */
#ifndef COSIM_CFG_H
#define COSIM_CFG_H
#include <stddef.h>

/* Fill *cfg (size bytes: sizeof(struct BLOCK_cfg)) for block "ws" (scheduler 0), "sb" or
 * "simt" from configuration file `path` over the defaults, loaded and checked as every
 * command loads it (blk_conf_load: every block's check too).  0, or -1 with a message. */
int cosim_block_cfg(const char *path, const char *block, void *cfg, size_t size, char *err,
                    size_t errlen);

#endif
