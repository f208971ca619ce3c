// sb.sv -- scoreboard with virtual-warp-ID tags: the Verilog reference of model/sm/sb.{c,h}.
// Same ports as struct sb_in / sb_out, same registers as struct sb_regs (pend, vwi), so
// tb/sb_cosim.cpp compares outputs and state every cycle.
//
// One per SM.  Per warp slot: NREGS pending-write bits and the 8-bit virtual warp ID (VWI) of
// the slot's owner.  Ports keep the C maxima's widths (128 slots = SM_MAX_SLOTS, a slot set
// [127:0], a slot index [6:0]; 8 release ports each naming a slot set, 4 reserve ports of 4
// destinations, 8 checked registers per slot); arrays are flattened into packed vectors,
// element i at [i*W +: W]: rel_slots port i at [i*128 +: 128], chk_reg slot s entry k at
// [(s*8+k)*16 +: 16], res_reg port j entry k at [(j*4+k)*16 +: 16], copy_reg k at [k*16 +: 16].
//
// DWS (dynamic warp subdivision): copy (a split: dst row := src row minus copy_n registers,
// dst VWI := src VWI), merge (dst row |= src row, src row := 0), mchk / mok (rows a and b
// disjoint) and any (rows with a pending bit); copy, merge, mok and any read the registers
// (the rows at the start of the cycle).
// Registers are held for NSLOTS slots, flattened the same way: slot s's pending bits at
// pend[s*NREGS +: NREGS], its VWI at vwi[s*8 +: 8].  Nothing else holds state.
//
// Parameters: SB_NSLOTS / SB_NREGS / SB_DWS of the generated header gpusim_params.vh (`gpusim
// rtl-params --config FILE`, see mk/cosim.mk); P_NSLOTS / P_NREGS / P_DWS override them (-1 =
// the configuration's value), for the co-simulation's variants.  DWS = 0 (the baseline):
// `any` is tied to 0, its OR trees are not built.
//
// Timing: Mealy like sb_eval.  Same-cycle order (model/sm/sb.h, docs/sb.md): set-VWI, then
// copy and merge (reading the registers), then releases (tag compared with the VWI after
// set-VWI and copy), then reserves; hazard and cnt read the resulting next state, mok and
// any the registers.  Register indices are folded modulo NREGS (a power of two).
// err bit 0 (SB_E_SLOT): a set-VWI, release, reserve, check or count port named a slot
// >= NSLOTS (that port is ignored); bit 1 (SB_E_COUNT): a reserve or copy with n > 4
// (ignored) or a check with chk_n > 8 (8 are checked); bit 2 (SB_E_DWS): a copy or merge
// naming a slot >= NSLOTS, with src == dst, or writing a row set-VWI (or, for the merge, the
// copy) writes this cycle -- the merge's src counts -- is ignored; an mchk naming a slot
// >= NSLOTS answers mok = 0.
// rst (synchronous, active high) is sb_reset: no pending bits, vwi[s] = s.
//
// `define INJECT_BUG: a release ignores the VWI tag (a stale writeback clears the bit); the
// co-simulation's self-test must see a mismatch.  `define INJECT_BUG_DWS: a merge leaves its
// source row as it was (does not clear it).
module sb #(
    parameter int P_NSLOTS = -1,
    parameter int P_NREGS  = -1,
    parameter int P_DWS    = -1
) (
    input  logic               clk,
    input  logic               rst,
    // Slots >= NSLOTS and register-index bits above log2(NREGS) are not looked at (as in
    // the C block), so those input bits have no load.
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [127:0]        setvwi,        // slots (re)assigned: pending bits cleared
    input  logic [128*8-1:0]    setvwi_vwi,    // [7:0] each: their new VWI
    input  logic [7:0]          rel_v,         // rel[8]: writebacks
    input  logic [8*128-1:0]    rel_slots,     //   [127:0] slots it clears (VWI matching)
    input  logic [8*8-1:0]      rel_vwi,       //   [7:0] VWI of the writing warp
    input  logic [8*16-1:0]     rel_reg,       //   [15:0] register index
    input  logic [3:0]          res_v,         // res[4]: issued instructions' destinations
    input  logic [4*7-1:0]      res_slot,      //   [6:0]
    input  logic [4*3-1:0]      res_n,         //   [2:0] destinations, 0..4
    input  logic [4*4*16-1:0]   res_reg,       //   [15:0] x 4
    input  logic [127:0]        chk_v,         // slots whose I-buffer head is checked
    input  logic [128*4-1:0]    chk_n,         //   [3:0] registers to check, 0..8
    input  logic [128*8*16-1:0] chk_reg,       //   [15:0] x 8 sources and destinations
    input  logic                copy_v,        // DWS copy: a split
    input  logic [6:0]          copy_src,
    input  logic [6:0]          copy_dst,
    input  logic [2:0]          copy_n,        //   registers left out, 0..4
    input  logic [4*16-1:0]     copy_reg,      //   [15:0] x 4
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                cnt_v,         // count port
    input  logic [6:0]          cnt_slot,
    input  logic                merge_v,       // DWS merge: dst |= src, src := 0
    input  logic [6:0]          merge_dst,
    input  logic [6:0]          merge_src,
    input  logic                mchk_v,        // DWS merge check
    input  logic [6:0]          mchk_a,
    input  logic [6:0]          mchk_b,
    output logic [127:0]        hazard,        // checked slots with a pending register
    output logic [127:0]        any,           // slots with a pending bit (registers)
    output logic [8:0]          cnt,           // pending bits of cnt_slot
    output logic                mok,           // mchk: rows a and b share no pending bit
    output logic [3:0]          ev_rel,        // releases whose VWI matched one of their slots
    output logic [3:0]          ev_rel_stale,  // releases naming slots, none with their VWI
    output logic [2:0]          err            // {SB_E_DWS, SB_E_COUNT, SB_E_SLOT}
);
    // The header holds every block's parameters; sb uses the SB_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NSLOTS = (P_NSLOTS > 0) ? P_NSLOTS : SB_NSLOTS;
    localparam int NREGS  = (P_NREGS > 0) ? P_NREGS : SB_NREGS;
    localparam int DWS    = (P_DWS >= 0) ? P_DWS : SB_DWS;
    localparam int RB = (NREGS > 1) ? $clog2(NREGS) : 1;       // folded index width
    localparam logic [RB-1:0] RMASK = RB'(NREGS - 1);
    localparam int MAXS = 128;                                  // SM_MAX_SLOTS
    localparam logic [7:0] NS8 = 8'(NSLOTS);
    localparam logic [MAXS-1:0] ALL = (NSLOTS >= MAXS) ? {MAXS{1'b1}}
                                                       : ((MAXS'(1) << NSLOTS) - MAXS'(1));

    // ---------------------------------------------------------------- registers (sb_regs)
    logic [NSLOTS*NREGS-1:0] pend;
    logic [NSLOTS*8-1:0]     vwi;

    logic [NSLOTS*NREGS-1:0] pend_d;
    logic [NSLOTS*8-1:0]     vwi_d;

    // ---------------------------------------------------------------- helpers
    // A register index (its low RB bits) folded onto its pending bit, one-hot.
    function automatic logic [NREGS-1:0] onehot(input logic [RB-1:0] r);
        onehot = NREGS'(1) << (r & RMASK);
    endfunction

    function automatic logic slot_ok(input logic [6:0] s);
        slot_ok = {1'b0, s} < NS8;
    endfunction

    // ---------------------------------------------------------------- per-port decode
    logic [7:0]         rel_ok;     // release i is valid and names only legal slots
    logic [8*NREGS-1:0] rel_bit;    // release i's pending bit, one-hot: [i*NREGS +: NREGS]
    logic [3:0]         res_ok;     // reserve j is valid, legal slot, n <= 4
    logic [4*NREGS-1:0] res_row;    // reserve j's destination bits
    logic               e_slot_port, e_cnt_res;

    always_comb begin
        rel_ok = '0;
        rel_bit = '0;
        res_ok = '0;
        res_row = '0;
        e_slot_port = 1'b0;
        e_cnt_res = 1'b0;
        for (int i = 0; i < 8; i++) begin
            rel_bit[i*NREGS +: NREGS] = onehot(rel_reg[i*16 +: RB]);
            if (rel_v[i]) begin
                if (|(rel_slots[i*MAXS +: MAXS] & ~ALL))
                    e_slot_port = 1'b1;
                else
                    rel_ok[i] = 1'b1;
            end
        end
        for (int j = 0; j < 4; j++) begin
            for (int k = 0; k < 4; k++)
                if (3'(k) < res_n[j*3 +: 3])
                    res_row[j*NREGS +: NREGS] = res_row[j*NREGS +: NREGS] |
                                                onehot(res_reg[(j*4+k)*16 +: RB]);
            if (res_v[j]) begin
                if (!slot_ok(res_slot[j*7 +: 7]))
                    e_slot_port = 1'b1;
                else if (res_n[j*3 +: 3] > 3'd4)
                    e_cnt_res = 1'b1;
                else
                    res_ok[j] = 1'b1;
            end
        end
    end

    // ---------------------------------------------------------------- DWS ports
    // copy_ok / merge_ok: the port goes ahead; e_dws: SB_E_DWS.  The rows they read are the
    // registers' (copy_row: copy_src's, msrc_row: merge_src's, ma_row / mb_row: mchk's).
    logic             copy_ok, merge_ok, e_dws, e_cnt_copy;
    logic [NREGS-1:0] copy_clr, copy_row, msrc_row, ma_row, mb_row;
    logic [7:0]       copy_vwi;

    always_comb begin
        copy_clr = '0;
        for (int k = 0; k < 4; k++)
            if (3'(k) < copy_n)
                copy_clr = copy_clr | onehot(copy_reg[k*16 +: RB]);
        copy_ok = 1'b0;
        merge_ok = 1'b0;
        e_dws = 1'b0;
        e_cnt_copy = 1'b0;
        if (copy_v) begin
            if (!slot_ok(copy_src) || !slot_ok(copy_dst) || copy_src == copy_dst ||
                setvwi[copy_dst])
                e_dws = 1'b1;
            else if (copy_n > 3'd4)
                e_cnt_copy = 1'b1;
            else
                copy_ok = 1'b1;
        end
        if (merge_v) begin
            if (!slot_ok(merge_src) || !slot_ok(merge_dst) || merge_src == merge_dst ||
                setvwi[merge_dst] || setvwi[merge_src] ||
                (copy_ok && (copy_dst == merge_dst || copy_dst == merge_src)))
                e_dws = 1'b1;
            else
                merge_ok = 1'b1;
        end
        if (mchk_v && !(slot_ok(mchk_a) && slot_ok(mchk_b)))
            e_dws = 1'b1;
        copy_row = '0;
        copy_vwi = '0;
        msrc_row = '0;
        ma_row = '0;
        mb_row = '0;
        for (int s = 0; s < NSLOTS; s++) begin
            if (copy_src == 7'(s)) begin
                copy_row = pend[s*NREGS +: NREGS];
                copy_vwi = vwi[s*8 +: 8];
            end
            if (merge_src == 7'(s))
                msrc_row = pend[s*NREGS +: NREGS];
            if (mchk_a == 7'(s))
                ma_row = pend[s*NREGS +: NREGS];
            if (mchk_b == 7'(s))
                mb_row = pend[s*NREGS +: NREGS];
        end
    end

    assign mok = mchk_v && slot_ok(mchk_a) && slot_ok(mchk_b) && !(|(ma_row & mb_row));

    // ---------------------------------------------------------------- per slot
    logic [8*MAXS-1:0] rel_match;   // release i clears a bit of slot s: [i*MAXS+s]
    logic [MAXS-1:0]   hz;          // the slot's check found a pending register
    logic [MAXS-1:0]   chk_over;    // the slot's check asked for more than 8 registers
    logic [NSLOTS*NREGS-1:0] cnt_rows;   // pend_d row of cnt_slot, others zero

    for (genvar s = 0; s < MAXS; s++) begin : g_slot
        if (s < NSLOTS) begin : g_live
            logic [7:0]       tag;      // VWI after set-VWI and copy
            logic [NREGS-1:0] cur, row, clr, set, nxt;
            logic             is_cdst, is_mdst, is_msrc;
            logic [3:0]       n4;
            always_comb begin
                cur = pend[s*NREGS +: NREGS];
                is_cdst = copy_ok && copy_dst == 7'(s);
                is_mdst = merge_ok && merge_dst == 7'(s);
                is_msrc = merge_ok && merge_src == 7'(s);
                tag = is_cdst ? copy_vwi : setvwi[s] ? setvwi_vwi[s*8 +: 8] : vwi[s*8 +: 8];
                row = setvwi[s] ? '0 : cur;
                if (is_cdst)
                    row = copy_row & ~copy_clr;
                if (is_mdst)
                    row = cur | msrc_row;
`ifndef INJECT_BUG_DWS
                if (is_msrc)
                    row = '0;
`endif
                clr = '0;
                for (int i = 0; i < 8; i++) begin
`ifdef INJECT_BUG
                    rel_match[i*MAXS+s] = rel_ok[i] && rel_slots[i*MAXS+s];
`else
                    rel_match[i*MAXS+s] = rel_ok[i] && rel_slots[i*MAXS+s] &&
                                          rel_vwi[i*8 +: 8] == tag;
`endif
                    if (rel_match[i*MAXS+s])
                        clr = clr | rel_bit[i*NREGS +: NREGS];
                end
                set = '0;
                for (int j = 0; j < 4; j++)
                    if (res_ok[j] && res_slot[j*7 +: 7] == 7'(s))
                        set = set | res_row[j*NREGS +: NREGS];
                nxt = (row & ~clr) | set;
                // check: the first min(chk_n, 8) registers against the next state
                chk_over[s] = chk_v[s] && chk_n[s*4 +: 4] > 4'd8;
                n4 = (chk_n[s*4 +: 4] > 4'd8) ? 4'd8 : chk_n[s*4 +: 4];
                hz[s] = 1'b0;
                for (int k = 0; k < 8; k++)
                    if (chk_v[s] && 4'(k) < n4 && nxt[chk_reg[(s*8+k)*16 +: RB] & RMASK])
                        hz[s] = 1'b1;
            end
            assign pend_d[s*NREGS +: NREGS] = nxt;
            assign vwi_d[s*8 +: 8] = tag;
            assign cnt_rows[s*NREGS +: NREGS] =
                (cnt_v && cnt_slot == 7'(s)) ? nxt : {NREGS{1'b0}};
            assign any[s] = (DWS != 0) && |cur;
        end else begin : g_absent
            always_comb begin
                for (int i = 0; i < 8; i++)
                    rel_match[i*MAXS+s] = 1'b0;
                hz[s] = 1'b0;
                chk_over[s] = 1'b0;
            end
            assign any[s] = 1'b0;
        end
    end

    // ---------------------------------------------------------------- outputs
    logic [NREGS-1:0] crow;
    logic [3:0]       n_rel, n_stale;
    logic [8:0]       pc;

    always_comb begin
        n_rel = '0;
        n_stale = '0;
        for (int i = 0; i < 8; i++) begin
            if (|rel_match[i*MAXS +: MAXS])
                n_rel = n_rel + 4'd1;
            else if (rel_ok[i] && |rel_slots[i*MAXS +: MAXS])
                n_stale = n_stale + 4'd1;
        end
        crow = '0;
        for (int s = 0; s < NSLOTS; s++)
            crow = crow | cnt_rows[s*NREGS +: NREGS];
        pc = '0;
        for (int b = 0; b < NREGS; b++)
            pc = pc + {8'd0, crow[b]};
    end

    assign hazard = hz;
    assign cnt = pc;
    assign ev_rel = n_rel;
    assign ev_rel_stale = n_stale;
    assign err[0] = e_slot_port || |(setvwi & ~ALL) || |(chk_v & ~ALL) ||
                    (cnt_v && !slot_ok(cnt_slot));
    assign err[1] = e_cnt_res || e_cnt_copy || |chk_over;
    assign err[2] = e_dws;

    // ---------------------------------------------------------------- the registers
    always_ff @(posedge clk) begin
        if (rst) begin
            for (int s = 0; s < NSLOTS; s++) begin
                pend[s*NREGS +: NREGS] <= '0;
                vwi[s*8 +: 8] <= 8'(s);
            end
        end else begin
            pend <= pend_d;
            vwi <= vwi_d;
        end
    end
endmodule
