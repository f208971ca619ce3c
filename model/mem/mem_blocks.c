/*
 * mem_blocks.c -- the memory system's rows of the block registry (see mem_blocks.h).
 */
#include "mem_blocks.h"
#include "base/config.h"

void mem_cfg_from(const struct gpu_config *c, struct msys_cfg *m)
{
    msys_cfg_default(m, c->num_sms);
    m->n_chan = c->dram_channels;
    m->slices_per_chan = c->l2_slices_per_channel;
    m->icnt.latency = c->icnt_latency;
    m->l2.nsets = c->l2_sets;
    m->l2.assoc = c->l2_ways;
    m->l2.rop_latency = c->l2_latency;
    m->l2.n_mshr = c->l2_mshrs;
    m->dram.nbk = c->dram_banks;
    m->dram.front_latency = c->dram_latency;
    m->dram.tCL = c->dram_tCL;
    m->dram.tRCD = c->dram_tRCD;
    m->dram.tRP = c->dram_tRP;
    m->dram.tRAS = c->dram_tRAS;
    msys_cfg_derive(m);
}

uint32_t icnt_instances(const struct gpu_config *c)
{
    (void)c;
    return 1;
}

void icnt_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct icnt_cfg *out)
{
    struct msys_cfg m;
    (void)sm; (void)inst;
    mem_cfg_from(c, &m);
    *out = m.icnt;
}

uint32_t l2_instances(const struct gpu_config *c)
{
    return c->dram_channels * c->l2_slices_per_channel;
}

void l2_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct l2_cfg *out)
{
    struct msys_cfg m;
    (void)sm; (void)inst;
    mem_cfg_from(c, &m);
    *out = m.l2;
}

uint32_t dram_instances(const struct gpu_config *c)
{
    return c->dram_channels;
}

void dram_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct dram_cfg *out)
{
    struct msys_cfg m;
    (void)sm; (void)inst;
    mem_cfg_from(c, &m);
    *out = m.dram;
}

#define BLK(n, lvl, rtl, rec, err) BLK_MEM_WRAP_##lvl(n, rtl)
#define BLK_MEM_WRAP_MEM(n, rtl) BLK_WRAPPERS(n) BLK_RTLW_##rtl(n)
#define BLK_MEM_WRAP_SM(n, rtl)
#define BLK_MEM_WRAP_GPU(n, rtl)
#include "base/blocks.def"
#undef BLK

static const struct blk_desc rows[] = {
#define BLK(n, lvl, rtl, rec, err) BLK_MEM_ROW_##lvl(n, lvl, rtl, rec, err)
#define BLK_MEM_ROW_MEM(n, lvl, rtl, rec, err) BLK_DESC(n, lvl, rtl, rec, err),
#define BLK_MEM_ROW_SM(n, lvl, rtl, rec, err)
#define BLK_MEM_ROW_GPU(n, lvl, rtl, rec, err)
#include "base/blocks.def"
#undef BLK
};

const struct blk_desc *mem_blocks_list(unsigned *n)
{
    *n = (unsigned)(sizeof rows / sizeof rows[0]);
    return rows;
}
