/*
 * area.c -- the area model: storage bits -> placed area per technology node, as flip-flops
 * or as SRAM macros, whichever is smaller where SRAM can hold the array. Every figure is
 * written here with its source; ASSUMPTION marks the figures that are judgement, not
 * measurement (docs/cost-model.md discusses each and what it does to the result).
 *
 * Cells scale with the square of the feature size F (um), from public figures:
 *   DFF   2233 F^2   NanGate 45 nm Open Cell Library (FreePDK45, 2011), typical liberty:
 *                    DFF_X1 = 4.522 um^2 at F = 0.045 um. Range across public libraries:
 *                    1185 F^2 (SkyWater sky130_fd_sc_hd__dfxtp_1, 20.02 um^2 at 130 nm) to
 *                    2963 F^2 (OSU osu018 DFFPOSX1, 96 um^2 at 180 nm).
 *   MUX2   920 F^2   same library, MUX2_X1 = 1.862 um^2: one per bit per write source (the
 *                    enable/hold mux) and one per bit per read port of a multi-entry array
 *                    (an E:1 read mux tree has E-1 MUX2 per output bit, i.e. (E-1)/E per
 *                    stored bit).
 *   SRAM   146 F^2   6T bit cell, CACTI 7 (HP Labs, tech_params/45nm.dat etc.: area_cell 146 F^2,
 *                    aspect ratio 1.46). Published cells agree within ~10%: 0.57 um^2 at
 *                    Intel 65 nm, 0.242 um^2 at TSMC 40 nm, 0.127 um^2 at TSMC 28 nm (HD)
 *                    vs 0.617 / 0.234 / 0.114 um^2 from 146 F^2.
 * Overheads:
 *   flip-flops / 0.70   placement utilisation of standard cells (ASSUMPTION: 60-80% usual)
 *   SRAM x 1.1          macro layout overhead (CACTI 7 tech_params: macro_layout_overhead)
 *   SRAM / efficiency   cells / macro area: 0.40 for macros under 32 Kbit, 0.60 above
 *                       (ASSUMPTION: the range CACTI reports for small arrays)
 *   2-port SRAM x 1.3   1R1W (8T) cell vs 6T (ASSUMPTION: the ~30% commonly reported)
 *   SRAM only for >= 4 Kbit per bank, <= 2 ports, not read in parallel (ASSUMPTION: smaller
 *                       arrays are built from flops/latches; 3+ ports or an all-entries read
 *                       is logic, not a macro)
 * Reference SM: GF100 (GTX480), 529 mm^2 at TSMC 40 nm, 16 SMs on the die (15 enabled on the
 * GTX480); 50% of the die attributed to the 16 SMs (ASSUMPTION, from annotated die photos:
 * the four GPCs fill about half of the die, the rest is L2, six GDDR5 controllers and PHYs,
 * ROPs, host interface, crossbar; 40-60% is plausible) -> 16.5 mm^2 per SM.
 */
#include "estimate.h"

#define DFF_F2      2233.0
#define MUX2_F2      920.0
#define SRAM_F2      146.0
#define UTIL           0.70
#define MACRO_OVH      1.1
#define EFF_SMALL      0.40
#define EFF_LARGE      0.60
#define EFF_KNEE   (32u * 1024u)
#define PORT2_X        1.3
#define SRAM_MIN   4096u

static const struct est_node nodes[EST_NNODES] = {
    {65, 0.065, DFF_F2 * 0.065 * 0.065, MUX2_F2 * 0.065 * 0.065, SRAM_F2 * 0.065 * 0.065},
    {40, 0.040, DFF_F2 * 0.040 * 0.040, MUX2_F2 * 0.040 * 0.040, SRAM_F2 * 0.040 * 0.040},
    {28, 0.028, DFF_F2 * 0.028 * 0.028, MUX2_F2 * 0.028 * 0.028, SRAM_F2 * 0.028 * 0.028},
};

static const struct est_ref gf100 = {"GF100 (GTX480)", 529.0, 40, 16, 0.50};

const struct est_node *est_node(unsigned i)
{
    return &nodes[i < EST_NNODES ? i : EST_REF_NODE];
}

const struct est_ref *est_gf100(void)
{
    return &gf100;
}

double est_sm_mm2(const struct est_ref *r)
{
    return r->die_mm2 * r->sm_fraction / r->sms_on_die;
}

const char *est_kind_name(unsigned k)
{
    static const char *const n[] = {"FF", "SRAM1P", "SRAM2P"};
    return k < 3 ? n[k] : "?";
}

double est_ff_um2(const struct est_node *n, uint64_t entries, uint64_t bits, uint32_t banks,
                  uint8_t rports, uint8_t wports)
{
    double per_bank = (double)entries / (banks ? banks : 1);
    double rmux = 0.0, cell;
    if (rports != COST_PAR && per_bank > 1.0)
        rmux = rports * (per_bank - 1.0) / per_bank;
    cell = n->dff_um2 + (wports ? wports : 1) * n->mux_um2 + rmux * n->mux_um2;
    return (double)entries * (double)bits * cell / UTIL;
}

double est_sram_um2(const struct est_node *n, uint64_t entries, uint64_t bits, uint32_t banks,
                    uint8_t rports, uint8_t wports, uint8_t *kind)
{
    double total = (double)entries * (double)bits;
    double bank_bits = total / (banks ? banks : 1);
    unsigned ports = (unsigned)rports + wports;
    if (rports == COST_PAR || ports > 2 || bank_bits < SRAM_MIN)
        return -1.0;
    *kind = ports > 1 ? EST_SRAM2 : EST_SRAM1;
    return total * n->sram_um2 * (ports > 1 ? PORT2_X : 1.0) * MACRO_OVH /
           (bank_bits < EFF_KNEE ? EFF_SMALL : EFF_LARGE);
}

struct est_price est_array(const struct est_node *n, uint64_t entries, uint64_t bits,
                           uint32_t banks, uint8_t rports, uint8_t wports)
{
    struct est_price p = {est_ff_um2(n, entries, bits, banks, rports, wports), EST_FF};
    uint8_t k = EST_FF;
    double s = est_sram_um2(n, entries, bits, banks, rports, wports, &k);
    if (s >= 0.0 && s < p.um2) {
        p.um2 = s;
        p.kind = k;
    }
    return p;
}

double est_scale_osu018(const struct est_node *n, double um2_180)
{
    return um2_180 * n->dff_um2 / EST_OSU018_DFF_UM2 / UTIL;
}
