/*
 * block.h -- the block registry (model/base/blocks.def) as data: one descriptor per block,
 * with type-erased entry points, so that the SM's allocation, reset and commit, the
 * stimulus recorder, the co-simulation set-up, `gpusim rtl-params`, the cost estimator and
 * the tests can treat every block alike. Not a hardware block.
 *
 * Each level expands the rows of blocks.def that belong to it into descriptors (the SM's in
 * model/sm/sm_blocks.c, the memory system's in model/mem/mem_blocks.c, the GPU's in
 * model/gpu/blocks.c); model/gpu/blocks.h gathers them for the consumers.
 */
#ifndef BLOCK_H
#define BLOCK_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct gpu_config;
struct cost_list;

enum blk_level { BLK_LEVEL_SM = 0, BLK_LEVEL_MEM, BLK_LEVEL_GPU };

/* Every block's id, in registry order (BLKID_fetch, BLKID_iss, ...). */
enum blk_id {
#define BLK(n, lvl, rtl, rec, err) BLKID_##n,
#include "base/blocks.def"
#undef BLK
    BLK_COUNT
};

struct blk_desc {
    const char *name;
    uint8_t  id;                   /* enum blk_id */
    uint8_t  level;                /* enum blk_level */
    uint8_t  rtl, record, err;     /* the flags of blocks.def */
    size_t   cfg_size, regs_size, in_size, out_size;
    size_t   err_off;              /* offset of the `err` flags in the out struct (err = 1) */
    uint8_t  err_bytes;            /* their size: 1 (uint8_t) or 2 (uint16_t) */
    uint32_t (*instances)(const struct gpu_config *c);
    void (*cfg_from)(const struct gpu_config *c, uint32_t sm, uint32_t inst, void *cfg);
    int  (*cfg_check)(const void *cfg, char *err, size_t errlen);
    void (*reset)(const void *cfg, void *q);
    void (*eval)(const void *cfg, const void *q, const void *in, void *out, void *d);
    void (*commit)(const void *cfg, void *q, const void *d);
    void (*storage)(const void *cfg, struct cost_list *l);
    void (*rtl_params)(const void *cfg, FILE *f);    /* NULL unless rtl */
};

/* Type-erased entry points of block n (used by the level files that expand blocks.def). */
#define BLK_WRAPPERS(n)                                                                      \
    static uint32_t n##_instances_g(const struct gpu_config *c) { return n##_instances(c); } \
    static void n##_cfg_from_g(const struct gpu_config *c, uint32_t sm, uint32_t i, void *f) \
    { n##_cfg_from(c, sm, i, (struct n##_cfg *)f); }                                         \
    static int n##_cfg_check_g(const void *f, char *e, size_t el)                            \
    { return n##_cfg_check((const struct n##_cfg *)f, e, el); }                              \
    static void n##_reset_g(const void *f, void *q)                                          \
    { n##_reset((const struct n##_cfg *)f, (struct n##_regs *)q); }                          \
    static void n##_eval_g(const void *f, const void *q, const void *in, void *o, void *d)   \
    { n##_eval((const struct n##_cfg *)f, (const struct n##_regs *)q,                        \
               (const struct n##_in *)in, (struct n##_out *)o, (struct n##_regs *)d); }      \
    static void n##_commit_g(const void *f, void *q, const void *d)                          \
    { n##_commit((const struct n##_cfg *)f, (struct n##_regs *)q, (const struct n##_regs *)d); } \
    static void n##_storage_g(const void *f, struct cost_list *l)                            \
    { n##_storage((const struct n##_cfg *)f, l); }

#define BLK_RTLW_0(n)
#define BLK_RTLW_1(n) \
    static void n##_rtl_params_g(const void *f, FILE *o) { n##_rtl_params((const struct n##_cfg *)f, o); }
#define BLK_RTLP_0(n) NULL
#define BLK_RTLP_1(n) n##_rtl_params_g
#define BLK_ERRO_0(n) 0, 0
#define BLK_ERRO_1(n) offsetof(struct n##_out, err), sizeof(((struct n##_out *)0)->err)

/* The descriptor of block n (after BLK_WRAPPERS(n) and BLK_RTLW_<rtl>(n)). */
#define BLK_DESC(n, lvl, rtl, rec, err)                                                      \
    { #n, BLKID_##n, BLK_LEVEL_##lvl, rtl, rec, err, sizeof(struct n##_cfg),                 \
      sizeof(struct n##_regs), sizeof(struct n##_in), sizeof(struct n##_out),                \
      BLK_ERRO_##err(n), n##_instances_g, n##_cfg_from_g, n##_cfg_check_g, n##_reset_g,     \
      n##_eval_g, n##_commit_g, n##_storage_g, BLK_RTLP_##rtl(n) }

#endif
