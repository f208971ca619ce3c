// simt.sv -- SIMT reconvergence stack with spill and fill: the Verilog reference of
// model/simt.{c,h} (token and IPDOM policies).  Same ports as struct simt_in / simt_out, same
// registers as struct simt_regs, so tb/simt_cosim.cpp compares outputs and state every cycle.
// Semantics, ports and timing: model/simt.h and docs/simt.md.
//
// Parameters: the configuration's values come from the generated header gpusim_params.vh
// (`gpusim rtl-params --config FILE`, see mk/cosim.mk): SIMT_NWARPS, SIMT_POLICY, SIMT_DEPTH,
// SIMT_CHUNK, SIMT_ENTRY_BYTES, SIMT_POP_CYCLES, SIMT_FILL_CYCLES, SIMT_SM_ID,
// SIMT_SPILL_BASE, SIMT_SPILL_STRIDE.  P_* override the first six (-1 = the configuration's
// value): the co-simulation uses them for a small stack that spills all the time.
//
// Ports: the fields of the C structs with the same names; arrays flattened into packed
// vectors, element i at [i*W +: W] (upd[4] -> upd_v[i], upd_slot[i*6 +: 6], upd_kind[i*2 +: 2],
// upd_taken/target/reconv/exited[i*32 +: 32]; launch_mask[w*32 +: 32]; pc/mask[w*32 +: 32]);
// struct mem_req req -> req_addr, req_bytes, req_kind, req_sm, req_warp, req_pad, req_tag,
// req_t_issue (meaningful where req_v).  Widths are those of the C maxima (64 slots, 4
// update ports); slots >= NWARPS read as 0 and their inputs are not looked at, as in C.
// Two event counts are wider than simt.h's field comments say, because the C values can
// exceed them: ev_pop [7:0] (every warp can pop in the same cycle) and ev_spill [2:0] (one
// spill per update port).
//
// Registers: the fields of struct simt_regs, each named NAME_q (the q of the C block's q/d
// pair; the plain names pc, mask and fin are the output ports); NAME_d is the next state.
// A stack entry is 97 bits {type, mask[31:0], rpc[31:0], pc[31:0]}; stk_q[w] is warp w's
// ring of DEPTH entries (entry i at [i*97 +: 97]).  mem_q is NOT ON-CHIP STORAGE: it is the
// memory image of the spill area (what a fill reads back), kept so that the harness can
// compare it with simt_regs.mem; a cost estimate must leave it out (under SYNTHESIS it is a
// plain memory without reset, one $mem for Yosys).  No logic reads an entry's type bit (a
// pop takes pc, rpc and mask), so synthesis removes it.
//
// Timing: Mealy like simt_eval -- every output reflects this cycle's inputs applied to the
// registers; the registers take the next state at the rising clock edge.  rst (synchronous,
// active high) is simt_reset (everything 0, rpc = none, rr = 63).
// Same-cycle order, per warp exactly as simt_eval: 1. launch, 2. the fill response (the
// chunk comes back, then the pending pop), 3. the pop timer, 4. a pending pop, 5. the
// update port naming the warp (the lowest one; a second one is a SIMT_E_SLOT error); then,
// over all warps, 6. the memory request (round robin after rr).  Stages 2, 4 and 5 can each
// end in a pop (pop_one below: three pop units per warp, in series, as in C).  err_slot
// names the last error in simt_eval's order (launch, fill, pending pops by warp, update
// ports by port).
//
// `define INJECT_BUG (co-simulation self-test only): a spill request's address is one
// entry too high (the chunk's offset counts one entry more than is in memory).
module simt #(
    parameter int P_NWARPS = -1,
    parameter int P_POLICY = -1,
    parameter int P_DEPTH = -1,
    parameter int P_CHUNK = -1,
    parameter int P_POP_CYCLES = -1,
    parameter int P_FILL_CYCLES = -1
) (
    input  logic               clk,
    input  logic               rst,
    // update ports upd[4]: the control outcome of the instructions issued last cycle
    input  logic [3:0]         upd_v,
    input  logic [4*6-1:0]     upd_slot,
    input  logic [4*2-1:0]     upd_kind,     // enum simt_kind: NORMAL, BRANCH, EXIT
    input  logic [4*32-1:0]    upd_taken,
    input  logic [4*32-1:0]    upd_target,
    input  logic [4*32-1:0]    upd_reconv,
    input  logic [4*32-1:0]    upd_exited,
    // launches: slots receiving a new warp (pc 0, mask = launch_mask[w], empty stack)
    input  logic [63:0]        launch,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [64*32-1:0]   launch_mask,  // (slots >= NWARPS are not looked at)
    /* verilator lint_on UNUSEDSIGNAL */
    // memory side
    input  logic               req_ready,
    input  logic               fill_v,
    input  logic [5:0]         fill_slot,
    // per slot, after this cycle's inputs
    output logic [64*32-1:0]   pc,
    output logic [64*32-1:0]   mask,
    output logic [63:0]        busy,
    output logic [63:0]        fin,
    output logic [63:0]        redirect,
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
    // events and errors
    output logic [3:0]         ev_push,
    output logic [7:0]         ev_pop,
    output logic [2:0]         ev_spill,
    output logic [1:0]         ev_fill,
    output logic [7:0]         ev_depth,
    output logic [5:0]         err,
    output logic [5:0]         err_slot
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
    localparam int MAXSP  = 112;                 // SIMT_MAX_SPILL: entries in memory per warp
    localparam int NPORT  = 4;                   // SIMT_UPD_PORTS
    localparam int EW     = 97;                  // stack entry bits
    localparam int WB     = (NW > 1) ? $clog2(NW) : 1;   // warp index bits
    localparam logic POP_T = POPC != 0;          // pops start a timer
    localparam logic FILL_T = FILLC != 0;        // fills add to it
    // the pop timers exist only when something starts them (simt_storage counts them only
    // then): with POPC = FILLC = 0 timer_q / tmr_q are tied to 0 and synthesis drops them
    localparam logic TMR_ON = POP_T | FILL_T;

    localparam logic [31:0] NO_PC = 32'hffffffff;            // SIMT_NO_PC
    localparam int TOKEN = 0;                                 // enum simt_policy
    localparam logic SYNC = 1'b0, DIV = 1'b1;                 // enum simt_type
    localparam logic [1:0] K_BRANCH = 2'd1, K_EXIT = 2'd2;    // enum simt_kind (else NORMAL)
    localparam logic [7:0] MK_SPILL = 8'd4, MK_FILL = 8'd5;   // enum mem_kind
    localparam logic [5:0] E_SLOT = 6'd1, E_BUSY = 6'd2, E_OVERFLOW = 6'd4,   // enum simt_err
                           E_RECONV = 6'd8, E_FILL = 6'd16, E_STACK = 6'd32;
    localparam logic [63:0] ALLW = (NW >= 64) ? ~64'd0 : ((64'd1 << NW) - 64'd1);

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
    logic [63:0] live_q /*verilator public_flat_rw*/;          // slot holds a launched warp
    logic [63:0] fin_q  /*verilator public_flat_rw*/;          // warp finished
    logic [63:0] spq_q  /*verilator public_flat_rw*/;          // spill request waiting
    logic [63:0] flq_q  /*verilator public_flat_rw*/;          // fill request waiting
    logic [63:0] flw_q  /*verilator public_flat_rw*/;          // fill accepted, awaiting data
    logic [63:0] popq_q /*verilator public_flat_rw*/;          // another pop is due
    logic [63:0] tmr_q  /*verilator public_flat_rw*/;          // timer != 0
    logic [5:0]  rr_q   /*verilator public_flat_rw*/;          // last warp granted the port
    logic [DEPTH*EW-1:0] stk_q [NW] /*verilator public_flat_rw*/;   // on-chip rings
    // NOT ON-CHIP STORAGE: the memory image of the spill area (simt_regs.mem).
    logic [EW-1:0] mem_q [NW][MAXSP] /*verilator public_flat_rw*/;

    logic [31:0] pc_d [NW], mask_d [NW], rpc_d [NW], alive_d [NW];
    logic [5:0]  cnt_d [NW];
    logic [4:0]  base_d [NW];
    logic [6:0]  nspill_d [NW];
    logic [7:0]  timer_d [NW];
    logic [63:0] live_d, fin_d, spq_d, flq_d, flw_d, popq_d, tmr_d;
    logic [5:0]  rr_d;
    logic [DEPTH*EW-1:0] stk_d [NW];
    // spill write port of each warp: the chunk's first entry in memory (nspill) and entries
    logic [NW-1:0]            mw_en;
    logic [6:0]               mw_idx [NW];
    logic [CHUNK*EW-1:0]      mw_data [NW];

    // ---------------------------------------------------------------- helpers
    // A 6-bit slot number (< NW) as an index into the per-warp arrays.
    // (only the low WB bits matter: callers pass slots < NW)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [WB-1:0] wi(input logic [5:0] slot);
        wi = slot[WB-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // Ring index: x < 2 * DEPTH folded onto 0..DEPTH-1 (x % DEPTH).
    function automatic logic [4:0] ring(input logic [6:0] x);
        ring = (x >= 7'(DEPTH)) ? 5'(x - 7'(DEPTH)) : 5'(x);
    endfunction

    // Ring index of the top entry (cnt > 0; 0 when the ring is empty).
    function automatic logic [4:0] top_idx(input logic [4:0] b, input logic [5:0] c);
        top_idx = (c != 6'd0) ? ring(7'(b) + 7'(c) - 7'd1) : 5'd0;
    endfunction

    // Entry i of a ring (one comparator per entry: a read mux, no shifter).  Writes are
    // written out where they happen, one comparator and write enable per entry: a function
    // returning the whole ring made Yosys's proc_mux about 20 times slower.
    function automatic logic [EW-1:0] ring_rd(input logic [DEPTH*EW-1:0] rg,
                                              input logic [4:0] i);
        ring_rd = '0;
        for (int k = 0; k < DEPTH; k++)
            if (i == 5'(k))
                ring_rd = rg[k*EW +: EW];
    endfunction


    function automatic logic [EW-1:0] ent(input logic [31:0] epc, input logic [31:0] erpc,
                                          input logic [31:0] emask, input logic etype);
        ent = {etype, emask, erpc, epc};
    endfunction

    // pop_one of simt.c (with settle, start_timer and finish): pop the top entry `top` into
    // the warp's registers, or start a fill, or finish the warp, or flag SIMT_E_STACK.
    // Returns {pc, rpc, mask, cnt, nspill, timer, tmr, popq, flq, fin, popped, err}.
    localparam int POPW = 32 * 3 + 6 + 7 + 8 + 6;
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [POPW-1:0] pop_one(
        input logic [31:0] ppc, input logic [31:0] prpc, input logic [31:0] pmask,
        input logic [31:0] palive, input logic [5:0] pcnt, input logic [6:0] pnsp,
        input logic [7:0] ptimer, input logic ptmr, input logic ppopq, input logic pflq,
        input logic pfin, input logic [EW-1:0] top);   // (its type bit is not needed)
        logic popped, perr;
        popped = 1'b0;
        perr = 1'b0;
        if (pcnt != 6'd0) begin
            pcnt = pcnt - 6'd1;
            ppc = top[31:0];
            prpc = top[63:32];
            pmask = top[95:64] & palive;
            popped = 1'b1;
            ptimer = POP_T ? 8'(POPC) : ptimer;       // start_timer
            ptmr = ptmr | POP_T;
            ppopq = (pmask == 32'd0) || (ppc == prpc);
        end else if (pnsp != 7'd0) begin   // fill first; the pop is done when it returns
            pflq = 1'b1;
            ppopq = 1'b1;
        end else if (pmask == 32'd0) begin // finish: no live lane and nothing left
            prpc = NO_PC;
            pfin = 1'b1;
            ppopq = 1'b0;
        end else begin                     // pc == rpc with an empty stack
            perr = 1'b1;
            prpc = NO_PC;
            ppopq = 1'b0;
        end
        pop_one = {ppc, prpc, pmask, pcnt, pnsp, ptimer, ptmr, ppopq, pflq, pfin, popped, perr};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ---------------------------------------------------------------- next state, outputs
    // the fill response's read port: the top chunk in memory of warp fill_slot
    logic [5:0]               fs;
    logic [6:0]               fsrc;
    logic [CHUNK*EW-1:0]      frd;
    always_comb begin
        fs = ({1'b0, fill_slot} < 7'(NW)) ? fill_slot : 6'd0;
        fsrc = (nspill_q[wi(fs)] >= 7'(CHUNK)) ? nspill_q[wi(fs)] - 7'(CHUNK) : 7'd0;
        for (int k = 0; k < CHUNK; k++)
            frd[k*EW +: EW] = mem_q[wi(fs)][fsrc + 7'(k)];
    end

    // per-warp results that simt_eval's order combines across warps
    logic [NW-1:0]      e_fill_w;   // fill response for a warp not waiting for one
    logic [NW-1:0]      e_pend_w;   // pending pop: SIMT_E_STACK
    logic [5:0]         e_upd_w [NW];   // the update port's error bits
    logic [NPORT-1:0]   p_bad, p_dup;
    logic [5:0]         p_slot [NPORT];

    // ports: slot out of range, or a second port naming the same warp
    always_comb begin
        for (int i = 0; i < NPORT; i++) begin
            p_slot[i] = upd_slot[i*6 +: 6];
            p_bad[i] = upd_v[i] && ({1'b0, p_slot[i]} >= 7'(NW));
            p_dup[i] = 1'b0;
            for (int j = 0; j < i; j++)
                if (upd_v[j] && upd_slot[j*6 +: 6] == p_slot[i])
                    p_dup[i] = upd_v[i] && !p_bad[i];
        end
    end

    always_comb begin : eval
        logic [31:0] wpc, wmask, wrpc, walive, taken, nt, ex, r;
        logic [5:0]  wcnt;
        logic [4:0]  wbase, nb, ri;
        logic [6:0]  wnsp;
        logic [7:0]  wtimer;
        logic [8:0]  tsum;
        logic        f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr;
        logic [DEPTH*EW-1:0] s;  // the warp's ring, entry i at [i*EW +: EW]
        logic [EW-1:0] top, e;   // (locals: all given a value before the warp loop)
        logic        popped, pp, want, perr, acc, uv, psync, pdiv, at_r, room, push_k;
        logic [1:0]  ukind;
        logic [31:0] utaken, utarget, ureconv, uexited;
        logic [5:0]  eu;
        logic [7:0]  dep;
        logic [3:0]  n_push;
        logic [7:0]  n_pop;
        logic [2:0]  n_spill;
        logic [1:0]  n_fill;
        logic [63:0] cand, hi, off, a;
        logic [5:0]  start, win;
        logic        is_spill;

        {wpc, wmask, wrpc, walive, taken, nt, ex, r} = '0;
        {wcnt, wbase, nb, ri, wnsp, wtimer, tsum} = '0;
        {f_live, f_fin, f_spq, f_flq, f_flw, f_popq, f_tmr} = '0;
        s = '0;
        {top, e} = '0;
        {popped, pp, want, perr, acc, uv, psync, pdiv, at_r, room, push_k} = '0;
        {ukind, utaken, utarget, ureconv, uexited, eu, dep} = '0;
        n_push = 4'd0;
        n_pop = 8'd0;
        n_spill = 3'd0;
        n_fill = 2'd0;
        ev_depth = 8'd0;
        redirect = 64'd0;
        live_d = 64'd0; fin_d = 64'd0; spq_d = 64'd0; flq_d = 64'd0;
        flw_d = 64'd0; popq_d = 64'd0; tmr_d = 64'd0;

        for (int w = 0; w < NW; w++) begin
            wpc = pc_q[w];
            wmask = mask_q[w];
            wrpc = rpc_q[w];
            walive = alive_q[w];
            wcnt = cnt_q[w];
            wbase = base_q[w];
            wnsp = nspill_q[w];
            wtimer = timer_q[w];
            f_live = live_q[w];
            f_fin = fin_q[w];
            f_spq = spq_q[w];
            f_flq = flq_q[w];
            f_flw = flw_q[w];
            f_popq = popq_q[w];
            f_tmr = tmr_q[w];
            s = stk_q[w];
            popped = 1'b0;
            e_fill_w[w] = 1'b0;
            e_pend_w[w] = 1'b0;
            eu = 6'd0;
            mw_en[w] = 1'b0;
            mw_idx[w] = 7'd0;
            mw_data[w] = '0;

            // ---- 1. launch: pc 0, empty stack, the new lanes
            if (launch[w]) begin
                wpc = 32'd0;
                wmask = launch_mask[w*32 +: 32];
                walive = launch_mask[w*32 +: 32];
                wrpc = NO_PC;
                wcnt = 6'd0;
                wbase = 5'd0;
                wnsp = 7'd0;
                wtimer = 8'd0;
                f_live = 1'b1;
                f_spq = 1'b0;
                f_flq = 1'b0;
                f_flw = 1'b0;
                f_popq = 1'b0;
                f_tmr = 1'b0;
                f_fin = (launch_mask[w*32 +: 32] == 32'd0);
                redirect[w] = 1'b1;
            end

            // ---- 2. the fill response: the top chunk in memory goes under the (empty)
            // ring, then the pending pop
            if (fill_v && fill_slot == 6'(w)) begin
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
                                s[j*EW +: EW] = frd[k*EW +: EW];
                    end
                    wbase = nb;
                    wcnt = wcnt + 6'(CHUNK);
                    wnsp = wnsp - 7'(CHUNK);
                    n_fill = n_fill + 2'd1;
                    top = ring_rd(s, top_idx(wbase, wcnt));
                    {wpc, wrpc, wmask, wcnt, wnsp, wtimer, f_tmr, f_popq, f_flq, f_fin, pp,
                     perr} = pop_one(wpc, wrpc, wmask, walive, wcnt, wnsp, wtimer, f_tmr,
                                     f_popq, f_flq, f_fin, top);
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
                                 f_flq, f_fin, top);
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
            for (int i = NPORT - 1; i >= 0; i--)
                if (upd_v[i] && p_slot[i] == 6'(w)) begin
                    uv = 1'b1;
                    ukind = upd_kind[i*2 +: 2];
                    utaken = upd_taken[i*32 +: 32];
                    utarget = upd_target[i*32 +: 32];
                    ureconv = upd_reconv[i*32 +: 32];
                    uexited = upd_exited[i*32 +: 32];
                end
            acc = 1'b0;
            want = 1'b0;
            if (uv) begin
                if (!f_live || f_fin || f_spq || f_flq || f_flw || f_popq || f_tmr) begin
                    eu = E_BUSY;
                end else begin
                    acc = 1'b1;
                    taken = utaken & wmask;
                    if (ukind == K_BRANCH && taken != 32'd0 && utarget != wpc + 32'd1 &&
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
                            eu = E_RECONV;
                        end else if (!room) begin
                            eu = E_OVERFLOW;
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
                                f_popq = (wmask == 32'd0) || (wpc == wrpc);
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
                        want = wpc == wrpc;
                    end else if (ukind == K_EXIT) begin
                        ex = uexited & wmask;
                        walive = walive & ~ex;
                        wmask = wmask & ~ex;
                        if (walive == 32'd0) begin   // finish: drop the stack
                            wmask = 32'd0;
                            wrpc = NO_PC;
                            wcnt = 6'd0;
                            wnsp = 7'd0;
                            f_fin = 1'b1;
                            f_popq = 1'b0;
                        end else if (wmask == 32'd0) begin
                            want = 1'b1;
                        end else begin
                            wpc = wpc + 32'd1;
                            want = wpc == wrpc;
                        end
                    end else begin                   // NORMAL (and barriers)
                        wpc = wpc + 32'd1;
                        want = wpc == wrpc;
                    end
                end
            end
            if (want) begin
                top = ring_rd(s, top_idx(wbase, wcnt));
                {wpc, wrpc, wmask, wcnt, wnsp, wtimer, f_tmr, f_popq, f_flq, f_fin, pp,
                 perr} = pop_one(wpc, wrpc, wmask, walive, wcnt, wnsp, wtimer, f_tmr, f_popq,
                                 f_flq, f_fin, top);
                n_pop = n_pop + 8'(pp);
                if (perr)
                    eu = E_STACK;
            end
            if (acc && wpc != pc_q[w] + 32'd1)
                redirect[w] = 1'b1;
            e_upd_w[w] = eu;

            pc_d[w] = wpc;
            mask_d[w] = wmask;
            rpc_d[w] = wrpc;
            alive_d[w] = walive;
            cnt_d[w] = wcnt;
            base_d[w] = wbase;
            nspill_d[w] = wnsp;
            timer_d[w] = wtimer;
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
        // fill to send
        cand = spq_d | flq_d;
        start = rr_q + 6'd1;
        hi = cand & (~64'd0 << start);
        win = 6'd0;
        for (int w = NW - 1; w >= 0; w--)
            if (((hi != 64'd0) ? hi[w] : cand[w]))
                win = 6'(w);
        is_spill = spq_d[win];
`ifdef INJECT_BUG
        off = (64'(nspill_d[wi(win)]) - 64'(CHUNK) + (is_spill ? 64'd1 : 64'd0)) * 64'(EB);
`else
        off = (64'(nspill_d[wi(win)]) - 64'(CHUNK)) * 64'(EB);
`endif
        a = SIMT_SPILL_BASE + 64'(win) * 64'(SIMT_SPILL_STRIDE) + off;
        req_v = cand != 64'd0;
        req_addr = {a[63:7], 7'd0};
        req_bytes = 32'(CHUNK * EB);
        req_kind = is_spill ? MK_SPILL : MK_FILL;
        req_sm = 8'(SIMT_SM_ID);
        req_warp = {2'd0, win};
        req_pad = 8'd0;
        req_tag = {25'd0, a[6:0]};
        req_t_issue = 64'd0;
        rr_d = rr_q;
        if (req_v && req_ready) begin
            rr_d = win;
            if (is_spill) begin
                spq_d[win] = 1'b0;
            end else begin
                flq_d[win] = 1'b0;
                flw_d[win] = 1'b1;
            end
        end

        // ---- 7. outputs from the next state
        for (int w = 0; w < 64; w++) begin
            pc[w*32 +: 32] = (w < NW) ? pc_d[w % NW] : 32'd0;
            mask[w*32 +: 32] = (w < NW) ? mask_d[w % NW] : 32'd0;
        end
        busy = spq_d | flq_d | flw_d | popq_d | tmr_d;
        fin = fin_d;
        ev_push = n_push;
        ev_pop = n_pop;
        ev_spill = n_spill;
        ev_fill = n_fill;
    end

    // err / err_slot: every error bit; err_slot names the last one in simt_eval's order
    always_comb begin
        logic [5:0] ps;
        logic [WB-1:0] pw;
        err = 6'd0;
        err_slot = 6'd0;
        if ((launch & ~ALLW) != 64'd0)
            err = err | E_SLOT;
        if (fill_v && ({1'b0, fill_slot} >= 7'(NW) || e_fill_w[wi(fs)])) begin
            err = err | E_FILL;
            err_slot = fs;
        end
        for (int w = 0; w < NW; w++)
            if (e_pend_w[w]) begin
                err = err | E_STACK;
                err_slot = 6'(w);
            end
        for (int i = 0; i < NPORT; i++) begin
            ps = p_slot[i];
            pw = ({1'b0, ps} < 7'(NW)) ? wi(ps) : '0;
            if (p_bad[i] || p_dup[i]) begin
                err = err | E_SLOT;
                err_slot = p_bad[i] ? 6'd0 : ps;
            end else if (upd_v[i] && e_upd_w[pw] != 6'd0) begin
                err = err | e_upd_w[pw];
                err_slot = ps;
            end
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
                stk_q[w] <= stk_d[w];
            end
        end

        // the memory image (not on-chip), written by the spills; simulation clears it on
        // reset as simt_reset does (two nested loops of at most 16: Verilator unrolls those),
        // synthesis does not (a reset does not clear global memory): there it stays a plain
        // memory, which Yosys keeps as one $mem until memory_map
        always_ff @(posedge clk) begin
            if (rst) begin
`ifndef SYNTHESIS
                for (int h = 0; h < MAXSP / 16; h++)   // (MAXSP = 7 x 16)
                    for (int l = 0; l < 16; l++)
                        mem_q[w][h * 16 + l] <= '0;
`endif
            end else if (mw_en[w]) begin
                for (int k = 0; k < CHUNK; k++)
                    mem_q[w][mw_idx[w] + 7'(k)] <= mw_data[w][k*EW +: EW];
            end
        end
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            live_q <= 64'd0;
            fin_q <= 64'd0;
            spq_q <= 64'd0;
            flq_q <= 64'd0;
            flw_q <= 64'd0;
            popq_q <= 64'd0;
            tmr_q <= 64'd0;
            rr_q <= 6'd63;              // the first grant starts at warp 0
        end else begin
            live_q <= live_d;
            fin_q <= fin_d;
            spq_q <= spq_d;
            flq_q <= flq_d;
            flw_q <= flw_d;
            popq_q <= popq_d;
            tmr_q <= TMR_ON ? tmr_d : 64'd0;
            rr_q <= rr_d;
        end
    end
endmodule
