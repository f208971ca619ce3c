// simt.sv -- SIMT reconvergence stack with spill and fill: the Verilog reference of
// model/sm/simt.{c,h} (token and IPDOM policies).  Same ports as struct simt_in / simt_out,
// same registers as struct simt_regs, so tb/simt_cosim.cpp compares outputs and state every
// cycle.  Semantics, ports and timing: model/sm/simt.h and docs/simt.md.
//
// Parameters: the configuration's values come from the generated header gpusim_params.vh
// (`gpusim rtl-params --config FILE`, see mk/cosim.mk): SIMT_NWARPS, SIMT_POLICY, SIMT_DEPTH,
// SIMT_CHUNK, SIMT_ENTRY_BYTES, SIMT_POP_CYCLES, SIMT_FILL_CYCLES, SIMT_SM_ID,
// SIMT_SPILL_BASE, SIMT_SPILL_STRIDE, SIMT_DWS.  P_* override the first six and SIMT_DWS
// (P_DWS; -1 = the configuration's value): the co-simulation uses them for small stacks that
// spill all the time, with the DWS ports on.
//
// Ports: the fields of the C structs with the same names; arrays flattened into packed
// vectors, element i at [i*W +: W] (upd[4] -> upd_v[i], upd_slot[i*7 +: 7], upd_kind[i*2 +: 2],
// upd_taken/target/reconv/exited[i*32 +: 32]; launch_mask[w*32 +: 32], launch_vwi[w*8 +: 8];
// pc/mask[w*32 +: 32]); a struct's fields as PORT_FIELD (struct simt_state restore ->
// restore_pc ... restore_ent, out.saved -> saved_pc ... saved_ent; out.spill[4] -> spill_v[i],
// spill_vwi[i*8 +: 8], spill_idx[i*7 +: 7], spill_ent[(i*16 + k)*97 +: 97]; struct mem_req req
// -> req_addr, req_bytes, req_kind, req_sm, req_warp, req_pad, req_tag, req_t_issue).  A
// stack entry is 97 bits {type, mask[31:0], rpc[31:0], pc[31:0]}, entry k of a port at
// [k*97 +: 97].  Widths are those of the C maxima (128 slots, 4 update ports, 32 entries per
// state, 16 per chunk); slots >= NWARPS read as 0 and their inputs are not looked at, as in C.
// Outputs that C defines only where a valid bit is set (req_*, saved_*, spill_* but v) carry
// the selected warp's values otherwise; entries beyond the chunk / the saved count are 0.
// Two event counts are wider than simt.h's field comments say, because the C values can
// exceed them: ev_pop [7:0] (every warp can pop in the same cycle) and ev_spill [2:0] (one
// spill per update port).
//
// Registers: the fields of struct simt_regs, each named NAME_q (the q of the C block's q/d
// pair; the plain names pc, mask and fin are the output ports); NAME_d is the next state.
// Sized by NWARPS, not by the 128-slot ports: per warp arrays [NW], flag vectors [NW-1:0].
// stk_q[w] is warp w's ring of DEPTH entries (entry i at [i*97 +: 97]).  The spill image is
// not here: it is global memory, the SM's; a spill shows its chunk on spill_*, a fill takes
// the chunk on fill_ent.
//
// Timing: Mealy like simt_eval -- every output reflects this cycle's inputs applied to the
// registers; the registers take the next state at the rising clock edge.  rst (synchronous,
// active high) is simt_reset (everything 0, rpc = none, rr = NWARPS - 1: bits of rr above
// the warp index stay 0).
// Same-cycle order, per warp exactly as simt_eval: 0. the save (reads the registers; the
// slot becomes empty), 1. launch, restore, 2. the fill response (the chunk comes back, then
// the pending pop), 3. the pop timer, 4. a pending pop, 5. the update port naming the warp
// (the lowest one; a second one is a SIMT_E_SLOT error); then, over all warps, 6. the memory
// request (round robin after rr).  Stages 2, 4 and 5 can each end in a pop (pop_one below:
// three pop units per warp, in series, as in C).  err_slot names the last error in
// simt_eval's order (save, launch, restore, fill, pending pops by warp, update ports by port).
//
// DWS (simt.h, docs/simt.md "DWS"): the update ports' upd_split_v/slot/img, the split_*,
// merge_* and rel_* ports, lvl and arr, registers hold_q [NW-1:0] and hdepth_q[w] [6:0]
// (tied to 0 without DWS_ON).  Their preconditions are decided on the registers (dws_pre);
// in the warp loop a new split slot, the split's source, the merge's destination and source
// and the release take effect after the update stage, in simt_eval's order.
//
// `define INJECT_BUG (co-simulation self-test only): a spill request's address is one
// entry too high (the chunk's offset counts one entry more than is in memory).
module simt #(
    parameter int P_NWARPS = -1,
    parameter int P_POLICY = -1,
    parameter int P_DEPTH = -1,
    parameter int P_CHUNK = -1,
    parameter int P_POP_CYCLES = -1,
    parameter int P_FILL_CYCLES = -1,
    parameter int P_DWS = -1
) (
    input  logic               clk,
    input  logic               rst,
    // update ports upd[4]: the control outcome of the instructions issued last cycle
    input  logic [3:0]         upd_v,
    input  logic [4*7-1:0]     upd_slot,
    input  logic [4*2-1:0]     upd_kind,     // enum simt_kind: NORMAL, BRANCH, EXIT
    input  logic [4*32-1:0]    upd_taken,
    input  logic [4*32-1:0]    upd_target,
    input  logic [4*32-1:0]    upd_reconv,
    input  logic [4*32-1:0]    upd_exited,
    input  logic [3:0]         upd_split_v,      // DWS: a divergent BRANCH splits the warp
    input  logic [4*7-1:0]     upd_split_slot,   // ... the free slot of the not-taken lanes
    input  logic [4*8-1:0]     upd_split_img,    // ... its spill image
    // launches: slots receiving a new warp (pc 0, mask = launch_mask[w], empty stack, its
    // context's VWI launch_vwi[w])
    input  logic [127:0]       launch,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [128*32-1:0]  launch_mask,  // (slots >= NWARPS are not looked at)
    input  logic [128*8-1:0]   launch_vwi,
    /* verilator lint_on UNUSEDSIGNAL */
    // save: read a warp's state out (saved_*), free its slot
    input  logic               save_v,
    input  logic [6:0]         save_slot,
    // restore: write a state (struct simt_state) into a free slot
    input  logic               restore_v,
    input  logic [6:0]         restore_slot,
    input  logic [31:0]        restore_pc,
    input  logic [31:0]        restore_mask,
    input  logic [31:0]        restore_rpc,
    input  logic [31:0]        restore_alive,
    input  logic [7:0]         restore_vwi,
    input  logic               restore_fin,
    input  logic [5:0]         restore_cnt,
    input  logic [6:0]         restore_nspill,
    input  logic               restore_hold,
    input  logic [6:0]         restore_hdepth,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [32*97-1:0]   restore_ent,  // (entries >= DEPTH are not looked at)
    /* verilator lint_on UNUSEDSIGNAL */
    // memory side
    input  logic               req_ready,
    input  logic               fill_v,
    input  logic [6:0]         fill_slot,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [16*97-1:0]   fill_ent,     // the chunk read from the image (>= CHUNK unused)
    /* verilator lint_on UNUSEDSIGNAL */
    // DWS: memory split (lanes of src run ahead in the free slot dst), merge, release
    input  logic               split_v,
    input  logic [6:0]         split_src,
    input  logic [6:0]         split_dst,
    input  logic [31:0]        split_lanes,
    input  logic [7:0]         split_img,
    input  logic               merge_v,
    input  logic [6:0]         merge_dst,
    input  logic [6:0]         merge_src,
    input  logic               rel_v,
    input  logic [6:0]         rel_slot,
    // per slot, after this cycle's inputs
    output logic [128*32-1:0]  pc,
    output logic [128*32-1:0]  mask,
    output logic [127:0]       busy,
    output logic [127:0]       fin,
    output logic [127:0]       redirect,
    output logic [127:0]       lvl,          // DWS: at the regime level
    output logic [127:0]       arr,          // DWS: ... and arrived (part of busy)
    // memory request (struct mem_req)
    output logic               req_v,
    output logic [63:0]        req_addr,
    output logic [31:0]        req_bytes,
    output logic [7:0]         req_kind,
    output logic [7:0]         req_sm,
    output logic [7:0]         req_warp,
    output logic [7:0]         req_pad,
    output logic [31:0]        req_tag,
    output logic [63:0]        req_t_issue,
    // spilled chunks, one port per update port (struct simt_spill spill[4])
    output logic [3:0]         spill_v,
    output logic [4*8-1:0]     spill_vwi,
    output logic [4*7-1:0]     spill_idx,
    output logic [4*16*97-1:0] spill_ent,
    // the saved state (struct simt_state saved)
    output logic               saved_v,
    output logic [31:0]        saved_pc,
    output logic [31:0]        saved_mask,
    output logic [31:0]        saved_rpc,
    output logic [31:0]        saved_alive,
    output logic [7:0]         saved_vwi,
    output logic               saved_fin,
    output logic [5:0]         saved_cnt,
    output logic [6:0]         saved_nspill,
    output logic               saved_hold,
    output logic [6:0]         saved_hdepth,
    output logic [32*97-1:0]   saved_ent,
    // events and errors
    output logic [3:0]         ev_push,
    output logic [7:0]         ev_pop,
    output logic [2:0]         ev_spill,
    output logic [1:0]         ev_fill,
    output logic [7:0]         ev_depth,
    output logic [15:0]        err,
    output logic [6:0]         err_slot
);
    // The header holds every block's parameters; simt uses the SIMT_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NW     = (P_NWARPS > 0) ? P_NWARPS : SIMT_NWARPS;
    localparam int POLICY = (P_POLICY >= 0) ? P_POLICY : SIMT_POLICY;
    localparam int DEPTH  = (P_DEPTH > 0) ? P_DEPTH : SIMT_DEPTH;
    localparam int CHUNK  = (P_CHUNK > 0) ? P_CHUNK : SIMT_CHUNK;
    localparam int POPC   = (P_POP_CYCLES >= 0) ? P_POP_CYCLES : SIMT_POP_CYCLES;
    localparam int FILLC  = (P_FILL_CYCLES >= 0) ? P_FILL_CYCLES : SIMT_FILL_CYCLES;
    localparam int EB     = SIMT_ENTRY_BYTES;
    localparam int MAXSP  = 112;                 // SIMT_MAX_SPILL: entries in memory per VWI
    localparam int NPORT  = 4;                   // SIMT_UPD_PORTS
    localparam int EW     = 97;                  // stack entry bits
    localparam int MAXC   = 16;                  // SIMT_MAX_CHUNK: entries of a chunk port
    localparam int WB     = (NW > 1) ? $clog2(NW) : 1;   // warp index bits
    localparam logic POP_T = POPC != 0;          // pops start a timer
    localparam logic FILL_T = FILLC != 0;        // fills add to it
    // the pop timers exist only when something starts them (simt_storage counts them only
    // then): with POPC = FILLC = 0 timer_q / tmr_q are tied to 0 and synthesis drops them
    localparam logic TMR_ON = POP_T | FILL_T;
    // DWS (simt_cfg.dws): without it the DWS inputs are not looked at and hold_q / hdepth_q
    // are tied to 0 (simt_storage counts them only with it)
    localparam logic DWS_ON = ((P_DWS >= 0) ? P_DWS : SIMT_DWS) != 0;

    localparam logic [31:0] NO_PC = 32'hffffffff;            // SIMT_NO_PC
    localparam int TOKEN = 0;                                 // enum simt_policy
    localparam logic SYNC = 1'b0, DIV = 1'b1;                 // enum simt_type
    localparam logic [1:0] K_BRANCH = 2'd1, K_EXIT = 2'd2;    // enum simt_kind (else NORMAL)
    localparam logic [7:0] MK_SPILL = 8'd4, MK_FILL = 8'd5;   // enum mem_kind
    localparam logic [15:0] E_SLOT = 16'd1, E_BUSY = 16'd2, E_OVERFLOW = 16'd4,  // enum simt_err
                            E_RECONV = 16'd8, E_FILL = 16'd16, E_STACK = 16'd32,
                            E_SAVE = 16'd64, E_RESTORE = 16'd128, E_SPLIT = 16'd256,
                            E_MERGE = 16'd512, E_REL = 16'd1024;
    localparam logic [127:0] ALLW = (NW >= 128) ? ~128'd0 : ((128'd1 << NW) - 128'd1);

    // ---------------------------------------------------------------- registers (simt_regs)
    // (public read-write: the harness compares them, and writes corner states into both sides)
    logic [31:0] pc_q     [NW] /*verilator public_flat_rw*/;   // current pc
    logic [31:0] mask_q   [NW] /*verilator public_flat_rw*/;   // active mask
    logic [31:0] rpc_q    [NW] /*verilator public_flat_rw*/;   // reconvergence pc (NO_PC)
    logic [31:0] alive_q  [NW] /*verilator public_flat_rw*/;   // lanes launched, not exited
    logic [5:0]  cnt_q    [NW] /*verilator public_flat_rw*/;   // on-chip entries 0..DEPTH
    logic [4:0]  base_q   [NW] /*verilator public_flat_rw*/;   // ring index of the bottom entry
    logic [6:0]  nspill_q [NW] /*verilator public_flat_rw*/;   // entries in memory
    logic [7:0]  timer_q  [NW] /*verilator public_flat_rw*/;   // pop-latency cycles left
    logic [7:0]  vwi_q    [NW] /*verilator public_flat_rw*/;   // the context's VWI
    logic [6:0]  hdepth_q [NW] /*verilator public_flat_rw*/;   // DWS: depth of the regime level
    logic [NW-1:0] live_q /*verilator public_flat_rw*/;        // slot holds a warp
    logic [NW-1:0] fin_q  /*verilator public_flat_rw*/;        // warp finished
    logic [NW-1:0] spq_q  /*verilator public_flat_rw*/;        // spill request waiting
    logic [NW-1:0] flq_q  /*verilator public_flat_rw*/;        // fill request waiting
    logic [NW-1:0] flw_q  /*verilator public_flat_rw*/;        // fill accepted, awaiting data
    logic [NW-1:0] popq_q /*verilator public_flat_rw*/;        // another pop is due
    logic [NW-1:0] tmr_q  /*verilator public_flat_rw*/;        // timer != 0
    logic [NW-1:0] hold_q /*verilator public_flat_rw*/;        // DWS: in the split regime
    logic [6:0]  rr_q   /*verilator public_flat_rw*/;          // last warp granted the port
    logic [DEPTH*EW-1:0] stk_q [NW] /*verilator public_flat_rw*/;   // on-chip rings

    logic [31:0] pc_d [NW], mask_d [NW], rpc_d [NW], alive_d [NW];
    logic [5:0]  cnt_d [NW];
    logic [4:0]  base_d [NW];
    logic [6:0]  nspill_d [NW];
    logic [7:0]  timer_d [NW], vwi_d [NW];
    logic [6:0]  hdepth_d [NW];
    logic [NW-1:0] live_d, fin_d, spq_d, flq_d, flw_d, popq_d, tmr_d, hold_d;
    logic [6:0]  rr_d;
    logic [DEPTH*EW-1:0] stk_d [NW];
    // the spill of each warp (by its update): the chunk's first entry in memory and entries
    logic [NW-1:0]            mw_en;
    logic [6:0]               mw_idx [NW];
    logic [CHUNK*EW-1:0]      mw_data [NW];

    // ---------------------------------------------------------------- helpers
    `include "simt_fn.svh"      // wi, in_range, ring, top_idx, ring_rd, at_lvl, sbit, ent, pop_one


    // ---------------------------------------------------------------- next state, outputs
    // the save port: stage 0 reads the registers of warp save_slot (q)
    logic [WB-1:0]      sw;         // the saved warp (0 when out of range)
    logic               sv_ok;      // the save happens
    logic               sv_upd;     // an update port names the slot
    logic [DEPTH*EW-1:0] sv_ring;
    always_comb begin
        sw = in_range(save_slot) ? wi(save_slot) : '0;
        sv_upd = 1'b0;
        for (int i = 0; i < NPORT; i++)
            if (upd_v[i] && upd_slot[i*7 +: 7] == save_slot)
                sv_upd = 1'b1;
        sv_ok = save_v && in_range(save_slot) && live_q[sw] && !sv_upd &&
                !(spq_q[sw] || flq_q[sw] || flw_q[sw] || popq_q[sw] || tmr_q[sw]);
        saved_v = sv_ok;
        saved_pc = pc_q[sw];
        saved_mask = mask_q[sw];
        saved_rpc = rpc_q[sw];
        saved_alive = alive_q[sw];
        saved_vwi = vwi_q[sw];
        saved_fin = fin_q[sw];
        saved_cnt = cnt_q[sw];
        saved_nspill = nspill_q[sw];
        saved_hold = hold_q[sw];
        saved_hdepth = hdepth_q[sw];
        sv_ring = stk_q[sw];
        saved_ent = '0;             // the on-chip entries in stack order, 0 beyond cnt
        for (int k = 0; k < DEPTH; k++)
            if (6'(k) < cnt_q[sw])
                saved_ent[k*EW +: EW] = ring_rd(sv_ring, ring(7'(base_q[sw]) + 7'(k)));
    end

    // the restore port: a slot free at the start of the cycle, a state that fits
    logic [WB-1:0]      rw;         // the restored warp (0 when out of range)
    logic               rs_ok;      // the restore happens
    always_comb begin
        rw = in_range(restore_slot) ? wi(restore_slot) : '0;
        rs_ok = restore_v && in_range(restore_slot) && !(live_q[rw] && !fin_q[rw]) &&
                !launch[restore_slot] && restore_cnt <= 6'(DEPTH) &&
                restore_nspill <= 7'(MAXSP) && (restore_nspill % 7'(CHUNK)) == 7'd0;
    end

    // per-warp results that simt_eval's order combines across warps
    logic [NW-1:0]      e_fill_w;   // fill response for a warp not waiting for one
    logic [NW-1:0]      e_pend_w;   // pending pop: SIMT_E_STACK
    logic [15:0]        e_upd_w [NW];   // the update port's error bits
    logic [NPORT-1:0]   p_bad, p_dup;
    logic [6:0]         p_slot [NPORT];

    // ports: slot out of range, or a second port naming the same warp
    always_comb begin
        for (int i = 0; i < NPORT; i++) begin
            p_slot[i] = upd_slot[i*7 +: 7];
            p_bad[i] = upd_v[i] && !in_range(p_slot[i]);
            p_dup[i] = 1'b0;
            for (int j = 0; j < i; j++)
                if (upd_v[j] && upd_slot[j*7 +: 7] == p_slot[i])
                    p_dup[i] = upd_v[i] && !p_bad[i];
        end
    end

    // DWS: what each port names (valid ports, raw inputs) and the preconditions, all on the
    // registers (q): a slot a split or merge touches is idle, so q is its state in the cycle
    logic [NW-1:0]      n_x, n_u, n_b, n_b2, n_s, n_m, n_ms, n_r;
    logic [NW-1:0]      q_busy, q_lvl, q_arr, q_free;
    logic [NPORT-1:0]   bs_ok, bs_do;   // branch split allowed; done (divergent, accepted)
    logic               ms_ok, mg_ok, rl_ok;
    logic [WB-1:0]      ms_s, mg_s, mg_d;
    always_comb begin : dws_pre
        logic [WB-1:0] bw, bt;
        logic [31:0] tk;
        n_x = launch[NW-1:0] | (save_v ? sbit(save_slot) : '0) |
              (restore_v ? sbit(restore_slot) : '0);
        n_u = '0;
        n_b = '0;
        n_b2 = '0;
        for (int i = 0; i < NPORT; i++)
            if (upd_v[i]) begin
                n_u = n_u | sbit(p_slot[i]);
                if (upd_kind[i*2 +: 2] == K_BRANCH && upd_split_v[i]) begin
                    n_b2 = n_b2 | (n_b & sbit(upd_split_slot[i*7 +: 7]));
                    n_b = n_b | sbit(upd_split_slot[i*7 +: 7]);
                end
            end
        n_s = split_v ? (sbit(split_src) | sbit(split_dst)) : '0;
        n_ms = merge_v ? sbit(merge_src) : '0;
        n_m = merge_v ? (sbit(merge_dst) | n_ms) : '0;
        n_r = rel_v ? sbit(rel_slot) : '0;
        for (int w = 0; w < NW; w++) begin
            q_busy[w] = spq_q[w] || flq_q[w] || flw_q[w] || popq_q[w] || tmr_q[w];
            q_lvl[w] = at_lvl(hold_q[w], cnt_q[w], nspill_q[w], hdepth_q[w]);
            q_arr[w] = q_lvl[w] && live_q[w] && !fin_q[w] &&
                       (pc_q[w] == rpc_q[w] || mask_q[w] == 32'd0);
            q_free[w] = (!live_q[w] || fin_q[w]) && !q_busy[w];
        end
        // branch split of update port i (bsplit_ok of simt.c)
        for (int i = 0; i < NPORT; i++) begin
            bw = in_range(p_slot[i]) ? wi(p_slot[i]) : '0;
            bt = in_range(upd_split_slot[i*7 +: 7]) ? wi(upd_split_slot[i*7 +: 7]) : '0;
            bs_ok[i] = DWS_ON && in_range(p_slot[i]) && in_range(upd_split_slot[i*7 +: 7]) &&
                       upd_split_slot[i*7 +: 7] != p_slot[i] && q_free[bt] &&
                       ((n_x | n_u | n_b2 | n_s | n_m | n_r) &
                        sbit(upd_split_slot[i*7 +: 7])) == '0 &&
                       !n_x[bw] && !q_arr[bw] && live_q[bw] && !fin_q[bw] && !q_busy[bw] &&
                       (!hold_q[bw] || q_lvl[bw]);
            tk = upd_taken[i*32 +: 32] & mask_q[bw];
            bs_do[i] = upd_v[i] && !p_bad[i] && !p_dup[i] && upd_kind[i*2 +: 2] == K_BRANCH &&
                       upd_split_v[i] && bs_ok[i] && tk != 32'd0 && tk != mask_q[bw];
        end
        // memory split
        ms_s = in_range(split_src) ? wi(split_src) : '0;
        ms_ok = DWS_ON && split_v && in_range(split_src) && in_range(split_dst) &&
                split_src != split_dst &&
                live_q[ms_s] && !fin_q[ms_s] && !q_busy[ms_s] && (!hold_q[ms_s] || q_lvl[ms_s]) &&
                split_lanes != 32'd0 && (split_lanes & ~mask_q[ms_s]) == 32'd0 &&
                split_lanes != mask_q[ms_s] && q_free[in_range(split_dst) ? wi(split_dst) : '0] &&
                ((sbit(split_src) | sbit(split_dst)) & (n_x | n_u | n_b | n_m | n_r)) == '0;
        // merge
        mg_s = in_range(merge_src) ? wi(merge_src) : '0;
        mg_d = in_range(merge_dst) ? wi(merge_dst) : '0;
        mg_ok = DWS_ON && merge_v && in_range(merge_src) && in_range(merge_dst) &&
                merge_src != merge_dst &&
                live_q[mg_s] && !fin_q[mg_s] && !q_busy[mg_s] && q_lvl[mg_s] &&
                live_q[mg_d] && !fin_q[mg_d] && !q_busy[mg_d] && q_lvl[mg_d] &&
                cnt_q[mg_s] == 6'd0 && nspill_q[mg_s] == 7'd0 &&
                (pc_q[mg_s] == pc_q[mg_d] || mask_q[mg_s] == 32'd0 || mask_q[mg_d] == 32'd0) &&
                ((sbit(merge_src) | sbit(merge_dst)) & (n_x | n_u | n_b | n_s)) == '0 &&
                (n_r & sbit(merge_src)) == '0;
        // release
        rl_ok = DWS_ON && rel_v && in_range(rel_slot) &&
                live_q[in_range(rel_slot) ? wi(rel_slot) : '0] &&
                !fin_q[in_range(rel_slot) ? wi(rel_slot) : '0] &&
                hold_q[in_range(rel_slot) ? wi(rel_slot) : '0] &&
                (sbit(rel_slot) & (n_x | n_u | n_b | n_s | n_ms)) == '0;
    end

    always_comb begin : eval
        logic [31:0] wpc, wmask, wrpc, walive, taken, nt, ex, r;
        logic [5:0]  wcnt;
        logic [4:0]  wbase, nb, ri;
        logic [6:0]  wnsp;
        logic [7:0]  wtimer, wvwi;
        logic [8:0]  tsum;
        logic        f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr;
        logic [DEPTH*EW-1:0] s;  // the warp's ring, entry i at [i*EW +: EW]
        logic [EW-1:0] top, e;   // (locals: all given a value before the warp loop)
        logic        popped, pp, want, perr, acc, uv, psync, pdiv, at_r, room, push_k;
        logic [1:0]  ukind;
        logic [31:0] utaken, utarget, ureconv, uexited;
        logic [15:0] eu;
        logic [7:0]  dep;
        logic [3:0]  n_push;
        logic [7:0]  n_pop;
        logic [2:0]  n_spill;
        logic [1:0]  n_fill;
        logic [NW-1:0] cand, hi;
        logic [63:0] off, a;
        logic [6:0]  start, win;
        logic        is_spill;
        logic        whold, usplit, lv, newsp;   // DWS
        logic [6:0]  whdepth;
        logic [1:0]  uport;

        {wpc, wmask, wrpc, walive, taken, nt, ex, r} = '0;
        {wcnt, wbase, nb, ri, wnsp, wtimer, wvwi, tsum} = '0;
        {f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr} = '0;
        s = '0;
        {top, e} = '0;
        {popped, pp, want, perr, acc, uv, psync, pdiv, at_r, room, push_k} = '0;
        {ukind, utaken, utarget, ureconv, uexited, eu, dep} = '0;
        {whold, usplit, lv, newsp, whdepth, uport} = '0;
        n_push = 4'd0;
        n_pop = 8'd0;
        n_spill = 3'd0;
        n_fill = 2'd0;
        ev_depth = 8'd0;
        redirect = 128'd0;
        live_d = '0; fin_d = '0; spq_d = '0; flq_d = '0;
        flw_d = '0; popq_d = '0; tmr_d = '0; hold_d = '0;

        for (int w = 0; w < NW; w++) begin
            wpc = pc_q[w];
            wmask = mask_q[w];
            wrpc = rpc_q[w];
            walive = alive_q[w];
            wcnt = cnt_q[w];
            wbase = base_q[w];
            wnsp = nspill_q[w];
            wtimer = timer_q[w];
            wvwi = vwi_q[w];
            f_live = live_q[w];
            f_fin = fin_q[w];
            f_spq = spq_q[w];
            f_flq = flq_q[w];
            f_flw = flw_q[w];
            f_popq = popq_q[w];
            f_tmr = tmr_q[w];
            s = stk_q[w];
            whold = hold_q[w];
            whdepth = hdepth_q[w];
            popped = 1'b0;
            e_fill_w[w] = 1'b0;
            e_pend_w[w] = 1'b0;
            eu = 16'd0;
            mw_en[w] = 1'b0;
            mw_idx[w] = 7'd0;
            mw_data[w] = '0;

            // ---- 0. save (read out above): the slot as a reset leaves it; 1. launch: pc 0,
            // empty stack, the new lanes; restore: the state, ring base 0
            if ((sv_ok && sw == WB'(w)) || launch[w] || (rs_ok && rw == WB'(w))) begin
                wpc = 32'd0;
                wmask = 32'd0;
                walive = 32'd0;
                wrpc = NO_PC;
                wcnt = 6'd0;
                wbase = 5'd0;
                wnsp = 7'd0;
                wtimer = 8'd0;
                wvwi = 8'd0;
                whold = 1'b0;
                whdepth = 7'd0;
                {f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr} = '0;
            end
            if (launch[w]) begin
                wmask = launch_mask[w*32 +: 32];
                walive = launch_mask[w*32 +: 32];
                wvwi = launch_vwi[w*8 +: 8];
                f_live = 1'b1;
                f_fin = (launch_mask[w*32 +: 32] == 32'd0);
                redirect[w] = 1'b1;
            end
            if (rs_ok && rw == WB'(w)) begin
                wpc = restore_pc;
                wmask = restore_mask;
                wrpc = restore_rpc;
                walive = restore_alive;
                wvwi = restore_vwi;
                wcnt = restore_cnt;
                wnsp = restore_nspill;
                for (int j = 0; j < DEPTH; j++)
                    if (6'(j) < restore_cnt)
                        s[j*EW +: EW] = restore_ent[j*EW +: EW];
                whold = DWS_ON && restore_hold;
                whdepth = DWS_ON ? restore_hdepth : 7'd0;
                f_live = 1'b1;
                f_fin = restore_fin;
                f_popq = !restore_fin && (restore_mask == 32'd0 || restore_pc == restore_rpc) &&
                         !at_lvl(whold, restore_cnt, restore_nspill, whdepth);
                redirect[w] = 1'b1;
            end

            // ---- 2. the fill response: the chunk on fill_ent goes under the (empty) ring,
            // then the pending pop
            if (fill_v && fill_slot == 7'(w)) begin
                if (!f_flw) begin
                    e_fill_w[w] = 1'b1;
                end else begin
                    f_flw = 1'b0;
                    nb = ring(7'(wbase) + 7'(DEPTH - CHUNK));
                    // entry j of the ring takes chunk entry (j - nb) mod DEPTH if < CHUNK
                    for (int j = 0; j < DEPTH; j++) begin
                        ri = ring(7'(j) + 7'(DEPTH) - 7'(nb));
                        for (int k = 0; k < CHUNK; k++)
                            if (ri == 5'(k))
                                s[j*EW +: EW] = fill_ent[k*EW +: EW];
                    end
                    wbase = nb;
                    wcnt = wcnt + 6'(CHUNK);
                    wnsp = wnsp - 7'(CHUNK);
                    n_fill = n_fill + 2'd1;
                    top = ring_rd(s, top_idx(wbase, wcnt));
                    {wpc, wrpc, wmask, wcnt, wnsp, wtimer, f_tmr, f_popq, f_flq, f_fin, pp,
                     perr} = pop_one(wpc, wrpc, wmask, walive, wcnt, wnsp, wtimer, f_tmr,
                                     f_popq, f_flq, f_fin, top, whold, whdepth);
                    popped = popped | pp;   // (cannot fail: CHUNK entries are on chip)
                    n_pop = n_pop + 8'(pp);
                    // the controller's cost of restoring a chunk (when FILLC != 0)
                    tsum = {1'b0, wtimer} + 9'(FILLC);
                    wtimer = (tsum > 9'd255) ? 8'd255 : tsum[7:0];
                    f_tmr = f_tmr | FILL_T;
                    if (wpc != pc_q[w])
                        redirect[w] = 1'b1;
                end
            end
            // ---- 3. the pop timer (started before this cycle)
            if (tmr_q[w] && f_tmr) begin
                wtimer = wtimer - 8'd1;
                if (wtimer == 8'd0)
                    f_tmr = 1'b0;
            end

            // ---- 4. a pending pop (at most one pop per warp per cycle)
            if (f_popq && !f_tmr && !f_flq && !f_flw && !popped) begin
                top = ring_rd(s, top_idx(wbase, wcnt));
                {wpc, wrpc, wmask, wcnt, wnsp, wtimer, f_tmr, f_popq, f_flq, f_fin, pp,
                 perr} = pop_one(wpc, wrpc, wmask, walive, wcnt, wnsp, wtimer, f_tmr, f_popq,
                                 f_flq, f_fin, top, whold, whdepth);
                popped = popped | pp;
                n_pop = n_pop + 8'(pp);
                e_pend_w[w] = perr;
                if (wpc != pc_q[w])
                    redirect[w] = 1'b1;
            end

            // ---- 5. the update: the lowest port naming this warp
            uv = 1'b0;
            ukind = 2'd0;
            utaken = 32'd0;
            utarget = 32'd0;
            ureconv = 32'd0;
            uexited = 32'd0;
            usplit = 1'b0;
            uport = 2'd0;
            for (int i = NPORT - 1; i >= 0; i--)
                if (upd_v[i] && p_slot[i] == 7'(w)) begin
                    uv = 1'b1;
                    usplit = DWS_ON && upd_split_v[i];
                    uport = 2'(i);
                    ukind = upd_kind[i*2 +: 2];
                    utaken = upd_taken[i*32 +: 32];
                    utarget = upd_target[i*32 +: 32];
                    ureconv = upd_reconv[i*32 +: 32];
                    uexited = upd_exited[i*32 +: 32];
                end
            acc = 1'b0;
            want = 1'b0;
            if (uv) begin
                if (!f_live || f_fin || f_spq || f_flq || f_flw || f_popq || f_tmr ||
                    (at_lvl(whold, wcnt, wnsp, whdepth) &&
                     (wpc == wrpc || wmask == 32'd0))) begin     // (DWS: arrived)
                    eu = E_BUSY;
                end else begin
                    acc = 1'b1;
                    taken = utaken & wmask;
                    lv = ukind == K_BRANCH && usplit && taken != 32'd0 && taken != wmask;
                    if (lv && !bs_ok[uport])
                        eu = eu | E_SPLIT;
                    if (lv && bs_ok[uport]) begin
                        // DWS branch split: the taken lanes stay, at the target (no push);
                        // the not-taken ones leave (to the split slot, below)
                        nt = wmask & ~taken;
                        walive = walive & ~nt;
                        if (!whold) begin
                            whold = 1'b1;
                            whdepth = 7'(8'(wcnt) + 8'(wnsp));
                        end
                        wpc = utarget;
                        wmask = taken;
                    end else if (ukind == K_BRANCH && taken != 32'd0 && utarget != wpc + 32'd1 &&
                        taken != wmask) begin
                        // divergent: SYNC (R, rpc, mask) when R != rpc; DIV (pc+1, R,
                        // not-taken) always (TOKEN) or when pc+1 != R (IPDOM)
                        nt = wmask & ~taken;
                        r = ureconv;
                        psync = r != wrpc;
                        pdiv = (POLICY == TOKEN) || (wpc + 32'd1 != r);
                        at_r = utarget == r;
                        room = (7'(wcnt) + 7'(psync) + 7'(pdiv && !at_r) <= 7'(DEPTH)) ||
                               ({1'b0, wnsp} + 8'(CHUNK) <= 8'(MAXSP));
                        if (r == NO_PC) begin
                            eu = eu | E_RECONV;
                        end else if (!room) begin
                            eu = eu | E_OVERFLOW;
                        end else begin
                            dep = 8'(wcnt) + 8'(wnsp) + 8'(psync) + 8'(pdiv);
                            for (int k = 0; k < 2; k++) begin
                                push_k = (k == 0) ? psync : (pdiv && !at_r);
                                e = (k == 0) ? ent(r, wrpc, wmask, SYNC)
                                             : ent(wpc + 32'd1, r, nt, DIV);
                                if (push_k) begin
                                    if (wcnt == 6'(DEPTH)) begin
                                        // full: the bottom chunk goes to memory
                                        mw_en[w] = 1'b1;
                                        mw_idx[w] = wnsp;
                                        for (int j = 0; j < CHUNK; j++) begin
                                            ri = ring(7'(wbase) + 7'(j));
                                            for (int m = 0; m < DEPTH; m++)
                                                if (ri == 5'(m))
                                                    mw_data[w][j*EW +: EW] = s[m*EW +: EW];
                                        end
                                        wbase = ring(7'(wbase) + 7'(CHUNK));
                                        wcnt = wcnt - 6'(CHUNK);
                                        wnsp = wnsp + 7'(CHUNK);
                                        f_spq = 1'b1;
                                        n_spill = n_spill + 3'd1;
                                    end
                                    ri = ring(7'(wbase) + 7'(wcnt));
                                    for (int m = 0; m < DEPTH; m++)
                                        if (ri == 5'(m))
                                            s[m*EW +: EW] = e;
                                    wcnt = wcnt + 6'd1;
                                    n_push = n_push + 4'd1;
                                end
                            end
                            if (dep > ev_depth)
                                ev_depth = dep;
                            if (at_r) begin
                                // taken lanes already at R: push and pop of the DIV entry
                                n_push = n_push + 4'd1;
                                n_pop = n_pop + 8'd1;
                                popped = 1'b1;
                                wpc = wpc + 32'd1;
                                wmask = nt;
                                wrpc = r;
                                wtimer = POP_T ? 8'(POPC) : wtimer;
                                f_tmr = f_tmr | POP_T;
                                if (at_lvl(whold, wcnt, wnsp, whdepth)) begin   // park
                                    f_popq = 1'b0;
                                    if (wmask == 32'd0)
                                        wpc = wrpc;
                                end else begin
                                    f_popq = (wmask == 32'd0) || (wpc == wrpc);
                                end
                            end else begin
                                wpc = utarget;
                                wmask = taken;
                                wrpc = r;
                            end
                        end
                    end else if (ukind == K_BRANCH) begin
                        // uniform: pc+1 (none taken, or the target is pc+1) or the target
                        wpc = (taken == 32'd0 || utarget == wpc + 32'd1) ? wpc + 32'd1
                                                                       : utarget;
                        want = wpc == wrpc && !at_lvl(whold, wcnt, wnsp, whdepth);
                    end else if (ukind == K_EXIT) begin
                        ex = uexited & wmask;
                        walive = walive & ~ex;
                        wmask = wmask & ~ex;
                        if (walive == 32'd0 && !whold) begin   // finish: drop the stack
                            wmask = 32'd0;
                            wrpc = NO_PC;
                            wcnt = 6'd0;
                            wnsp = 7'd0;
                            f_fin = 1'b1;
                            f_popq = 1'b0;
                        end else if (wmask == 32'd0) begin
                            if (at_lvl(whold, wcnt, wnsp, whdepth))
                                wpc = wrpc;          // DWS: parked empty at the rpc
                            else
                                want = 1'b1;
                        end else begin
                            wpc = wpc + 32'd1;
                            want = wpc == wrpc && !at_lvl(whold, wcnt, wnsp, whdepth);
                        end
                    end else begin                   // NORMAL (and barriers)
                        wpc = wpc + 32'd1;
                        want = wpc == wrpc && !at_lvl(whold, wcnt, wnsp, whdepth);
                    end
                end
            end
            if (want) begin
                top = ring_rd(s, top_idx(wbase, wcnt));
                {wpc, wrpc, wmask, wcnt, wnsp, wtimer, f_tmr, f_popq, f_flq, f_fin, pp,
                 perr} = pop_one(wpc, wrpc, wmask, walive, wcnt, wnsp, wtimer, f_tmr, f_popq,
                                 f_flq, f_fin, top, whold, whdepth);
                n_pop = n_pop + 8'(pp);
                if (perr)
                    eu = eu | E_STACK;
            end
            if (acc && wpc != pc_q[w] + 32'd1)
                redirect[w] = 1'b1;
            e_upd_w[w] = eu;

            // ---- DWS: a new split in this slot (free and idle: nothing else touched it):
            // the not-taken lanes of a branch split, or the run-ahead lanes of a memory split
            newsp = 1'b0;
            for (int i = 0; i < NPORT; i++)
                if (bs_do[i] && upd_split_slot[i*7 +: 7] == 7'(w)) begin
                    wpc = pc_q[wi(p_slot[i])] + 32'd1;
                    wmask = mask_q[wi(p_slot[i])] & ~upd_taken[i*32 +: 32];
                    wrpc = rpc_q[wi(p_slot[i])];
                    wvwi = upd_split_img[i*8 +: 8];
                    newsp = 1'b1;
                end
            if (ms_ok && split_dst == 7'(w)) begin
                wpc = pc_q[ms_s];
                wmask = split_lanes;
                wrpc = rpc_q[ms_s];
                wvwi = split_img;
                newsp = 1'b1;
            end
            if (newsp) begin
                walive = wmask;
                {wcnt, wbase, wnsp, wtimer} = '0;
                {f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr} = '0;
                f_live = 1'b1;
                whold = 1'b1;
                whdepth = 7'd0;
                redirect[w] = 1'b1;
            end
            // ---- DWS: the memory split's src gives its run-ahead lanes away
            if (ms_ok && split_src == 7'(w)) begin
                wmask = wmask & ~split_lanes;
                walive = walive & ~split_lanes;
                if (!whold) begin
                    whold = 1'b1;
                    whdepth = 7'(8'(wcnt) + 8'(wnsp));
                end
            end
            // ---- DWS: merge (src's lanes join dst; src is freed)
            if (mg_ok && merge_dst == 7'(w)) begin
                if (mask_q[w] == 32'd0)
                    wpc = pc_q[mg_s];
                wmask = wmask | mask_q[mg_s];
                walive = walive | alive_q[mg_s];
                if (wpc != pc_q[w])
                    redirect[w] = 1'b1;
            end
            if (mg_ok && merge_src == 7'(w)) begin
                {wpc, wmask, walive} = '0;
                wrpc = NO_PC;
                {wcnt, wbase, wnsp, wtimer, wvwi, whdepth} = '0;
                whold = 1'b0;
                {f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr} = '0;
            end
            // ---- DWS: release (after a merge into it): at the regime level it goes on as
            // any warp: finished without a live lane, else a pop due at rpc / empty mask
            if (rl_ok && rel_slot == 7'(w)) begin
                lv = at_lvl(whold, wcnt, wnsp, whdepth);
                whold = 1'b0;
                whdepth = 7'd0;
                if (lv && walive == 32'd0) begin
                    wmask = 32'd0;
                    wrpc = NO_PC;
                    wcnt = 6'd0;
                    wnsp = 7'd0;
                    f_fin = 1'b1;
                    f_popq = 1'b0;
                end else if (lv && (wmask == 32'd0 || wpc == wrpc)) begin
                    f_popq = 1'b1;
                end
            end

            pc_d[w] = wpc;
            mask_d[w] = wmask;
            rpc_d[w] = wrpc;
            alive_d[w] = walive;
            cnt_d[w] = wcnt;
            base_d[w] = wbase;
            nspill_d[w] = wnsp;
            timer_d[w] = wtimer;
            vwi_d[w] = wvwi;
            hdepth_d[w] = whdepth;
            hold_d[w] = whold;
            live_d[w] = f_live;
            fin_d[w] = f_fin;
            spq_d[w] = f_spq;
            flq_d[w] = f_flq;
            flw_d[w] = f_flw;
            popq_d[w] = f_popq;
            tmr_d[w] = f_tmr;
            stk_d[w] = s;
        end

        // ---- 6. one memory request: round robin after rr over the warps with a spill or
        // fill to send; the address is in the image of the warp's context (VWI)
        cand = spq_d | flq_d;
        start = rr_q + 7'd1;
        hi = cand & ({NW{1'b1}} << start);
        win = 7'd0;
        for (int w = NW - 1; w >= 0; w--)
            if (((hi != '0) ? hi[w] : cand[w]))
                win = 7'(w);
        is_spill = spq_d[wi(win)];
`ifdef INJECT_BUG
        off = (64'(nspill_d[wi(win)]) - 64'(CHUNK) + (is_spill ? 64'd1 : 64'd0)) * 64'(EB);
`else
        off = (64'(nspill_d[wi(win)]) - 64'(CHUNK)) * 64'(EB);
`endif
        a = SIMT_SPILL_BASE + 64'(vwi_d[wi(win)]) * 64'(SIMT_SPILL_STRIDE) + off;
        req_v = cand != '0;
        req_addr = {a[63:7], 7'd0};
        req_bytes = 32'(CHUNK * EB);
        req_kind = is_spill ? MK_SPILL : MK_FILL;
        req_sm = 8'(SIMT_SM_ID);
        req_warp = {1'b0, win};
        req_pad = 8'd0;
        req_tag = {25'd0, a[6:0]};
        req_t_issue = 64'd0;
        rr_d = rr_q;
        if (req_v && req_ready) begin
            rr_d = win;
            if (is_spill) begin
                spq_d[wi(win)] = 1'b0;
            end else begin
                flq_d[wi(win)] = 1'b0;
                flw_d[wi(win)] = 1'b1;
            end
        end

        // ---- 7. outputs from the next state
        for (int w = 0; w < 128; w++) begin
            pc[w*32 +: 32] = (w < NW) ? pc_d[w % NW] : 32'd0;
            mask[w*32 +: 32] = (w < NW) ? mask_d[w % NW] : 32'd0;
        end
        busy = 128'd0;                  // (slots >= NW: 0)
        lvl = 128'd0;                   // DWS: regime level and arrived, on the next state
        arr = 128'd0;
        for (int w = 0; w < NW; w++) begin
            lvl[w] = live_d[w] && !fin_d[w] &&
                     at_lvl(hold_d[w], cnt_d[w], nspill_d[w], hdepth_d[w]);
            arr[w] = lvl[w] && (pc_d[w] == rpc_d[w] || mask_d[w] == 32'd0);
        end
        busy[NW-1:0] = spq_d | flq_d | flw_d | popq_d | tmr_d | arr[NW-1:0];
        fin = 128'd0;
        fin[NW-1:0] = fin_d;
        ev_push = n_push;
        ev_pop = n_pop;
        ev_spill = n_spill;
        ev_fill = n_fill;
    end

    // the spill ports: port i shows the chunk its update (the lowest port naming the warp)
    // moved out of the ring
    always_comb begin
        logic [WB-1:0] pw;
        spill_ent = '0;
        for (int i = 0; i < NPORT; i++) begin
            pw = in_range(p_slot[i]) ? wi(p_slot[i]) : '0;
            spill_v[i] = upd_v[i] && !p_bad[i] && !p_dup[i] && mw_en[pw];
            spill_vwi[i*8 +: 8] = vwi_d[pw];
            spill_idx[i*7 +: 7] = mw_idx[pw];
            spill_ent[i*MAXC*EW +: CHUNK*EW] = mw_data[pw];
        end
    end

    // err / err_slot: every error bit; err_slot names the last one in simt_eval's order
    always_comb begin
        logic [6:0] ps;
        logic [WB-1:0] pw, fs;
        fs = in_range(fill_slot) ? wi(fill_slot) : '0;
        err = 16'd0;
        err_slot = 7'd0;
        if (save_v && !sv_ok) begin
            err = err | E_SAVE;
            err_slot = in_range(save_slot) ? save_slot : 7'd0;
        end
        if ((launch & ~ALLW) != 128'd0) begin
            err = err | E_SLOT;
            err_slot = 7'd0;
        end
        if (restore_v && !rs_ok) begin
            err = err | E_RESTORE;
            err_slot = in_range(restore_slot) ? restore_slot : 7'd0;
        end
        if (fill_v && (!in_range(fill_slot) || e_fill_w[fs])) begin
            err = err | E_FILL;
            err_slot = in_range(fill_slot) ? fill_slot : 7'd0;
        end
        for (int w = 0; w < NW; w++)
            if (e_pend_w[w]) begin
                err = err | E_STACK;
                err_slot = 7'(w);
            end
        for (int i = 0; i < NPORT; i++) begin
            ps = p_slot[i];
            pw = in_range(ps) ? wi(ps) : '0;
            if (p_bad[i] || p_dup[i]) begin
                err = err | E_SLOT;
                err_slot = p_bad[i] ? 7'd0 : ps;
            end else if (upd_v[i] && e_upd_w[pw] != 16'd0) begin
                err = err | e_upd_w[pw];
                err_slot = ps;
            end
        end
        if (DWS_ON && split_v && !ms_ok) begin
            err = err | E_SPLIT;
            err_slot = in_range(split_src) ? split_src : 7'd0;
        end
        if (DWS_ON && merge_v && !mg_ok) begin
            err = err | E_MERGE;
            err_slot = in_range(merge_dst) ? merge_dst : 7'd0;
        end
        if (DWS_ON && rel_v && !rl_ok) begin
            err = err | E_REL;
            err_slot = in_range(rel_slot) ? rel_slot : 7'd0;
        end
    end

    // ---------------------------------------------------------------- state
    for (genvar w = 0; w < NW; w++) begin : g_state
        always_ff @(posedge clk) begin
            if (rst) begin
                pc_q[w] <= 32'd0;
                mask_q[w] <= 32'd0;
                rpc_q[w] <= NO_PC;
                alive_q[w] <= 32'd0;
                cnt_q[w] <= 6'd0;
                base_q[w] <= 5'd0;
                nspill_q[w] <= 7'd0;
                timer_q[w] <= 8'd0;
                vwi_q[w] <= 8'd0;
                hdepth_q[w] <= 7'd0;
                stk_q[w] <= '0;
            end else begin
                pc_q[w] <= pc_d[w];
                mask_q[w] <= mask_d[w];
                rpc_q[w] <= rpc_d[w];
                alive_q[w] <= alive_d[w];
                cnt_q[w] <= cnt_d[w];
                base_q[w] <= base_d[w];
                nspill_q[w] <= nspill_d[w];
                timer_q[w] <= TMR_ON ? timer_d[w] : 8'd0;
                vwi_q[w] <= vwi_d[w];
                hdepth_q[w] <= DWS_ON ? hdepth_d[w] : 7'd0;
                stk_q[w] <= stk_d[w];
            end
        end
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            live_q <= '0;
            fin_q <= '0;
            spq_q <= '0;
            flq_q <= '0;
            flw_q <= '0;
            popq_q <= '0;
            tmr_q <= '0;
            hold_q <= '0;
            rr_q <= 7'(NW - 1);         // the first grant starts at warp 0
        end else begin
            live_q <= live_d;
            fin_q <= fin_d;
            spq_q <= spq_d;
            flq_q <= flq_d;
            flw_q <= flw_d;
            popq_q <= popq_d;
            tmr_q <= TMR_ON ? tmr_d : '0;
            hold_q <= DWS_ON ? hold_d : '0;
            rr_q <= rr_d;
        end
    end
endmodule
