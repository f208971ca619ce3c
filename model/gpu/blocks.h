/*
 * blocks.h -- the block registry (model/base/blocks.def) for its consumers: every block's
 * descriptor in registry order, whatever its level. The stimulus recorder (host.c), the
 * co-simulation set-up (tb/cosim_cfg.c), `gpusim rtl-params` and `gpusim blocks` (cli/), the
 * cost estimator (cost/estimate.c), the configuration loader (every block's check at load) and
 * tests/test_blocks.c read it.
 */
#ifndef BLOCKS_H
#define BLOCKS_H
#include <stdio.h>
#include "base/block.h"

/* Every block, in registry order (blk_all()[i].id == i). */
const struct blk_desc *blk_all(unsigned *n);
/* The block named `name`, or NULL. */
const struct blk_desc *blk_find(const char *name);
/* The configuration of instance `inst` of block b on SM `sm` for conf, into cfg (b->cfg_size
   bytes): 0, or -1 with a message when it does not check. */
struct gpu_config;
int blk_cfg(const struct blk_desc *b, const struct gpu_config *conf, uint32_t sm, uint32_t inst,
            void *cfg, char *err, size_t errlen);
/* Every block's own check (X_cfg_check) on the configuration of each of its instances on
   every SM, and the memory system's (msys_cfg_check), at load: a configuration that a block
   would refuse when a launch builds it is refused here, with the block's message and the keys
   behind it and where each was set (conf_blame_keys; src NULL: places not known). 0, or -1
   with "configuration: BLOCK: ... [key 'K' = V (FILE:LINE), ...]". */
struct conf_src;
int blk_conf_check(const struct gpu_config *c, const struct conf_src *src, char *err,
                   size_t errlen);
/* conf_load (defaults, file, overrides, conf_check), then blk_conf_check: how every command,
   the cost estimator and the co-simulation load a configuration. 0, or -1 with a message. */
int blk_conf_load(struct gpu_config *c, const struct conf_src *src, char *err, size_t errlen);
/* The Verilog parameters of every block with an RTL twin (what rtl/<blk>.sv includes). */
void blk_rtl_params(const struct gpu_config *conf, FILE *f);
/* Names of the blocks with a given flag, space-separated ("rtl", "record"). */
void blk_names(const char *flag, FILE *f);

#endif
