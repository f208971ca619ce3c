/*
 * blocks.h -- the block registry (model/base/blocks.def) for its consumers: every block's
 * descriptor in registry order, whatever its level. The stimulus recorder (host.c), the
 * co-simulation set-up (tb/cosim_cfg.c), `gpusim rtl-params` and `gpusim blocks` (cli/), the
 * cost estimator (cost/estimate.c) and tests/test_blocks.c read it.
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
/* The Verilog parameters of every block with an RTL twin (what rtl/<blk>.sv includes). */
void blk_rtl_params(const struct gpu_config *conf, FILE *f);
/* Names of the blocks with a given flag, space-separated ("rtl", "record"). */
void blk_names(const char *flag, FILE *f);

#endif
