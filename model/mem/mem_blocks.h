/*
 * mem_blocks.h -- the memory system's rows of the block registry (model/base/blocks.def):
 * icnt, l2 (one per slice), dram (one per channel). Their configurations come from one
 * derivation (mem_cfg_from), the one the memory system itself is built with.
 */
#ifndef MEM_BLOCKS_H
#define MEM_BLOCKS_H
#include <stdint.h>
#include "dram.h"
#include "icnt.h"
#include "l2.h"
#include "memsys.h"
#include "base/block.h"

struct gpu_config;
/* The memory system a GPU configuration gives. */
void mem_cfg_from(const struct gpu_config *c, struct msys_cfg *m);

uint32_t icnt_instances(const struct gpu_config *c);
void icnt_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct icnt_cfg *out);
uint32_t l2_instances(const struct gpu_config *c);
void l2_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct l2_cfg *out);
uint32_t dram_instances(const struct gpu_config *c);
void dram_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct dram_cfg *out);

/* The descriptors of the MEM rows, in registry order. */
const struct blk_desc *mem_blocks_list(unsigned *n);

#endif
