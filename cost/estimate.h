/*
 * estimate.h -- the storage and area estimator: the blocks' storage lists (model/base/cost.h) for
 * a GPU configuration, priced per technology node (area.c), compared with the GF100 SM of a
 * GTX480, with the Yosys cross-check and the document checks. docs/cost-model.md explains
 * the model, its sources and its limits.
 */
#ifndef ESTIMATE_H
#define ESTIMATE_H
#include <stddef.h>
#include <stdint.h>
#include "base/config.h"
#include "base/cost.h"

/* ---------------------------------------------------------------- area model (area.c) */
#define EST_NNODES 3               /* 65, 40, 28 nm */
#define EST_REF_NODE 1             /* index of 40 nm: the GF100's node */

enum est_kind { EST_FF = 0, EST_SRAM1, EST_SRAM2 };   /* flip-flops, 1-port / 2-port SRAM */

struct est_node {
    uint32_t nm;
    double   f_um;                 /* feature size */
    double   dff_um2, mux_um2, sram_um2;   /* cells at this node (F^2 rules, area.c) */
};

struct est_ref {                   /* the GPU the percentages are of */
    const char *name;
    double   die_mm2;
    uint32_t node_nm;
    uint32_t sms_on_die;
    double   sm_fraction;          /* share of the die in the SMs (assumption, area.c) */
};

struct est_price {
    double   um2;                  /* placed area of the array */
    uint8_t  kind;                 /* enum est_kind */
};

const struct est_node *est_node(unsigned i);        /* i < EST_NNODES */
const struct est_ref  *est_gf100(void);
double est_sm_mm2(const struct est_ref *r);         /* area of one SM of the reference */
/* Flip-flop array: entries x bits in `banks` independent arrays, ports as in cost.h. */
double est_ff_um2(const struct est_node *n, uint64_t entries, uint64_t bits, uint32_t banks,
                  uint8_t rports, uint8_t wports);
/* SRAM macros for the same array (< 0 when SRAM cannot hold it: too small or too many ports
   or read in parallel). */
double est_sram_um2(const struct est_node *n, uint64_t entries, uint64_t bits, uint32_t banks,
                    uint8_t rports, uint8_t wports, uint8_t *kind);
/* The cheaper of the two. */
struct est_price est_array(const struct est_node *n, uint64_t entries, uint64_t bits,
                           uint32_t banks, uint8_t rports, uint8_t wports);
/* Scale a cell area of the osu018 0.18 um library (Yosys stat -liberty) to a placed area at
   node n: in flip-flop equivalents, x_node = x_180 * dff(n) / dff(osu018) / utilisation (the
   same utilisation as the flip-flop arrays). */
double est_scale_osu018(const struct est_node *n, double um2_180);
#define EST_OSU018_DFF_UM2 96.0    /* DFFPOSX1 in osu018_stdcells.lib (9.6 x 10 um) */
const char *est_kind_name(unsigned k);

/* ---------------------------------------------------------------- the estimate (estimate.c) */
struct est_list {
    struct cost_list l;
    double  um2[COST_MAX_ITEMS][EST_NNODES];   /* item's share of its array, x inst */
    uint8_t kind[COST_MAX_ITEMS][EST_NNODES];
};

struct est {
    struct gpu_config conf;
    struct est_list sm;            /* one SM's blocks (ws once per scheduler) */
    struct est_list gpu;           /* GPU-level blocks: l2 x slices, dram x channels, icnt, cta */
};

/* Load a configuration like gs_init does (defaults, file, --set overrides, checks). */
int  est_load_config(struct gpu_config *c, const char *path, const char *const *sets, int nsets,
                     char *err, size_t errlen);
/* Build and price every block of a configuration. 0, or -1 with a message. */
int  est_build(struct est *e, const struct gpu_config *conf, char *err, size_t errlen);
/* One instance of a block as its RTL is parameterised for this configuration (what
   `gpusim rtl-params` prints: scheduler 0's ws, ...). 0, or -1 for an unknown block. */
int  est_block_instance(const struct gpu_config *conf, const char *block, struct cost_list *l);
/* Price a list in place (fills um2 and kind). */
void est_price_list(struct est_list *e);

struct est_sum { uint64_t bits; double um2[EST_NNODES]; unsigned kinds; /* bit per est_kind */ };
/* Sums over the items of a list matching block (NULL = any) and mech (NULL = any). */
struct est_sum est_sum(const struct est_list *e, const char *block, const char *mech);

/* ---------------------------------------------------------------- document checks (docs.c) */
struct est_check {
    const char *doc;               /* "000", "003", "004" */
    const char *what;
    double doc_value, model_value;
    const char *unit;
    int  match;
    const char *why;               /* the explanation when they differ (or what matches) */
};
#define EST_MAX_CHECKS 32
/* The documents' figures for the blocks that exist, next to the estimator's. Returns count. */
unsigned est_doc_checks(const struct gpu_config *conf, struct est_check *out, unsigned max);
/* 004 eq. 1: VT context of one CTA, bits: (N + log2 W) + 96 + entry x D x W. */
uint64_t est_vt_context_bits(uint32_t n_vwi, uint32_t w, uint32_t d, uint32_t entry_bits);

/* ---------------------------------------------------------------- Yosys results (report.c) */
struct est_yosys {
    char     block[16];
    int      have;                 /* the file was found with the generic figures */
    int      failed;               /* the file says the synthesis failed */
    int      lib;                  /* the osu018 figures are there (not timed out / failed) */
    char     lib_why[16];          /* else why not: "timeout", "skipped", "failed" or "" */
    uint64_t cells, ff_bits, lib_cells, lib_ff;
    double   lib_um2;              /* osu018, 0.18 um */
};
/* Read DIR/<block>.txt (written by cost/yosys.sh). 0, or -1 if missing or malformed. */
int est_read_yosys(const char *dir, const char *block, struct est_yosys *y);
/* The configuration the blocks in DIR were synthesized with: base plus the KEY=VALUE lines of
   DIR/sets.txt (mk/cost.mk's COST_YOSYS_SET), if any. 0, or -1 with a message. */
int est_yosys_config(const struct gpu_config *base, const char *dir, struct gpu_config *out,
                     char *err, size_t errlen);

#endif
