/*
 * sm_cfgs.h -- registry entry points (model/base/blocks.def) of ws, sb, simt, fu, ldst and l1:
 * the number of instances per SM, each instance's configuration derived from a GPU
 * configuration, the Verilog parameters of the blocks with an RTL twin.
 */
#ifndef SM_CFGS_H
#define SM_CFGS_H
#include <stdint.h>
#include <stdio.h>
#include "fu.h"
#include "l1.h"
#include "ldst.h"
#include "sb.h"
#include "simt.h"
#include "ws.h"

struct gpu_config;
uint32_t ws_instances(const struct gpu_config *c);
void ws_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct ws_cfg *out);
void ws_rtl_params(const struct ws_cfg *c, FILE *f);
uint32_t sb_instances(const struct gpu_config *c);
void sb_cfg_from(const struct gpu_config *c, uint32_t sm, uint32_t inst, struct sb_cfg *out);
void sb_rtl_params(const struct sb_cfg *c, FILE *f);

#endif
