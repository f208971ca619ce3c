// pas.sv -- VTW's progress-aware scheduler: the Verilog reference of model/sm/pas.{c,h}
// (000_0da6b8b480bd0740.txt Sections 4.3.2, 4.4, 4.5).  Same ports as struct pas_in /
// pas_out, same registers as struct pas_regs (iter, low, nnext), so tb/pas_cosim.cpp compares
// outputs and state every cycle.
//
// Ports keep the C maxima's widths (256 contexts = SM_MAX_CTX, 64 CTA slots = SM_MAX_CTAS,
// 4 schedulers); arrays are flattened into packed vectors, element i at [i*W +: W]:
// issued[k] is issued_v[k], issued_ctx[8k +: 8], issued_ntb[k]; ctx_cta[8x +: 8],
// cta_nw[6t +: 6], insns[32x +: 32], prog[32t +: 32], nbar[6t +: 6], key[16x +: 16]; the
// per-context bits (ctx_valid, at_bar, ahead) are [255:0].  Contexts at or above NCTX and CTA
// slots at or above NCTAS are ignored (their keys and ahead bits are 0).  Registers are held
// for NCTX contexts and NCTAS CTA slots: iter[32x +: 32], low[32t +: 32], nnext[8t +: 8].
//
// Parameters: PAS_NCTX / PAS_NCTAS / PAS_NSCHED of the generated header gpusim_params.vh
// (`gpusim rtl-params --config FILE`, see mk/cosim.mk); P_NCTX / P_NCTAS / P_NSCHED override
// them (-1 = the configuration's value).
//
// Timing: Mealy like pas_eval.  The issues (of the previous cycle, from the SM's issue latch)
// update iter / nnext / low in scheduler order, then the launches clear; key and ahead are
// computed from that next state and this cycle's progress inputs.  rst (synchronous, active
// high) is pas_reset: every register 0.
//
// Keys: {class[1:0], 63 - TB rank [5:0], 255 - warp rank [7:0]}; a rank counts the entries
// that sort before (a smaller sort value, or an equal one at a lower index); see pas.h for
// the classes.  Sort values (smaller first) -- TBs: class 3 {63 - nbar, ~prog}, class 2
// cta_nw - nnext, class 1 ~prog, class 0 255 - nnext, slow prog; warps: class 3
// {at_bar, insns}, class 1 ~insns, otherwise insns.
//
// `define INJECT_BUG breaks a rule of Algorithm 1 (000 Sec. 4.3.2; issue 38): the key's class
// of SameIter warps and of DiffIter warps at the higher iteration are swapped, so the latter
// (lines 24-30, the last) go before the former (lines 17-23) -- the co-simulation's self-test
// must see a mismatch. (It replaced a tie-break bug, higher context first, which no rule of
// the document states.)
module pas #(
    parameter int P_NCTX   = -1,
    parameter int P_NCTAS  = -1,
    parameter int P_NSCHED = -1
) (
    input  logic                clk,
    input  logic                rst,
    // Entries at or above NCTX / NCTAS / NSCHED are not looked at (as in the C block), so
    // their input bits have no load.
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [3:0]          issued_v,     // issued[4]: the previous cycle's issues
    input  logic [4*8-1:0]      issued_ctx,   //   [7:0] context
    input  logic [3:0]          issued_ntb,   //   it was nexttbid
    input  logic [63:0]         cta_launch,   // CTA slots launched this cycle
    input  logic [256*8-1:0]    ctx_cta,      // [7:0] CTA slot of each context (0xFF unused)
    input  logic [64*6-1:0]     cta_nw,       // [5:0] warps of each CTA
    input  logic [255:0]        ctx_valid,    // contexts holding a live warp
    input  logic [256*32-1:0]   insns,        // [31:0] iss: warp instructions in its iteration
    input  logic [64*32-1:0]    prog,         // [31:0] iss: CTA progress
    input  logic [255:0]        at_bar,       // iss: the warp waits at a barrier
    input  logic [64*6-1:0]     nbar,         // [5:0] iss: warps of the CTA at a barrier
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                slow,         // slow phase
    output logic [256*16-1:0]   key,          // [15:0] per context
    output logic [255:0]        ahead         // contexts in the next iteration
);
    // The header holds every block's parameters; pas uses the PAS_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NCTX   = (P_NCTX > 0) ? P_NCTX : PAS_NCTX;
    localparam int NCTAS  = (P_NCTAS > 0) ? P_NCTAS : PAS_NCTAS;
    localparam int NSCHED = (P_NSCHED > 0) ? P_NSCHED : PAS_NSCHED;
    localparam int NCLS = 5;               // classes 0..3 and the slow phase (4)
    localparam int SLOW = 4;

    // ---------------------------------------------------------------- registers (pas_regs)
    logic [NCTX*32-1:0]  iter;             // per context: its WWL iteration
    logic [NCTAS*32-1:0] low;              // per CTA slot: lowest iteration of its warps
    logic [NCTAS*8-1:0]  nnext;            // per CTA slot: its warps in iteration low + 1

    logic [NCTX*32-1:0]  iter_d;
    logic [NCTAS*32-1:0] low_d;
    logic [NCTAS*8-1:0]  nnext_d;

    // ---------------------------------------------------------------- iteration tracking
    // Per scheduler in order: the context's CTA slot and iteration are looked up in the state
    // updated by the earlier schedulers (one comparison per context, no variable index).
    logic [7:0]  xk, tk;                   // scheduler k's context and its CTA slot
    logic [31:0] cur;                      // that context's iteration
    logic        ok;                       // it is a nexttbid of a context with a CTA slot
    always_comb begin
        iter_d = iter;
        low_d = low;
        nnext_d = nnext;
        for (int k = 0; k < NSCHED; k++) begin
            xk = issued_ctx[8*k +: 8];
            tk = 8'hFF;
            cur = '0;
            for (int x = 0; x < NCTX; x++) begin
                tk = (32'(xk) == x) ? ctx_cta[8*x +: 8] : tk;
                cur = (32'(xk) == x) ? iter_d[32*x +: 32] : cur;
            end
            ok = issued_v[k] && issued_ntb[k] && 32'(xk) < NCTX && 32'(tk) < NCTAS;
            for (int t = 0; t < NCTAS; t++)
                if (ok && 32'(tk) == t && cur == low_d[32*t +: 32]) begin
                    if (nnext_d[8*t +: 8] + 8'd1 == {2'b0, cta_nw[6*t +: 6]}) begin
                        low_d[32*t +: 32] = low_d[32*t +: 32] + 32'd1;
                        nnext_d[8*t +: 8] = '0;
                    end else
                        nnext_d[8*t +: 8] = nnext_d[8*t +: 8] + 8'd1;
                end
            for (int x = 0; x < NCTX; x++)
                iter_d[32*x +: 32] = (ok && 32'(xk) == x) ? cur + 32'd1 : iter_d[32*x +: 32];
        end
        // launches clear the CTA slot and its contexts
        for (int x = 0; x < NCTX; x++)
            for (int t = 0; t < NCTAS; t++)
                iter_d[32*x +: 32] = (32'(ctx_cta[8*x +: 8]) == t && cta_launch[t])
                                   ? '0 : iter_d[32*x +: 32];
        for (int t = 0; t < NCTAS; t++) begin
            low_d[32*t +: 32] = cta_launch[t] ? '0 : low_d[32*t +: 32];
            nnext_d[8*t +: 8] = cta_launch[t] ? '0 : nnext_d[8*t +: 8];
        end
    end

    // ---------------------------------------------------------------- this cycle's view
    logic [NCTX-1:0]  vld;                 // valid context with a CTA slot below NCTAS
    logic [NCTAS-1:0] live, bar, diff;     // TBs with a valid context; Barrier; DiffIter
    logic [NCTAS-1:0] set [NCLS];          // the TBs each class ranks
    logic [37:0]      tbv [NCLS][NCTAS];   // TB sort values
    logic [5:0]       rank [NCLS][NCTAS];  // TB rank in its class's set
    logic [6:0]       tr;                  // a TB rank being counted
    always_comb begin
        for (int x = 0; x < NCTX; x++)
            vld[x] = ctx_valid[x] && 32'(ctx_cta[8*x +: 8]) < NCTAS;
        for (int t = 0; t < NCTAS; t++) begin
            live[t] = 1'b0;
            for (int x = 0; x < NCTX; x++)
                live[t] = live[t] | (vld[x] && 32'(ctx_cta[8*x +: 8]) == t);
        end
        for (int t = 0; t < NCTAS; t++) begin
            bar[t] = live[t] && nbar[6*t +: 6] != '0;
            diff[t] = live[t] && !bar[t] && nnext_d[8*t +: 8] != '0;
            tbv[3][t] = {6'd63 - nbar[6*t +: 6], ~prog[32*t +: 32]};
            tbv[2][t] = {30'd0, 8'({2'b0, cta_nw[6*t +: 6]} - nnext_d[8*t +: 8])};
            tbv[1][t] = {6'd0, ~prog[32*t +: 32]};
            tbv[0][t] = {30'd0, 8'(8'd255 - nnext_d[8*t +: 8])};
            tbv[SLOW][t] = {6'd0, prog[32*t +: 32]};
        end
        set[3] = bar;
        set[2] = diff;
        set[1] = live & ~bar & ~diff;
        set[0] = diff;
        set[SLOW] = live;
        for (int c = 0; c < NCLS; c++)
            for (int t = 0; t < NCTAS; t++) begin
                tr = '0;
                for (int u = 0; u < NCTAS; u++)
                    tr = tr + 7'(set[c][u] && (tbv[c][u] < tbv[c][t] ||
                                               (tbv[c][u] == tbv[c][t] && u < t)));
                rank[c][t] = tr[5:0];
            end
    end

    // ---------------------------------------------------------------- warps
    logic [2:0]  wcls [NCTX];              // class of each valid context
    logic [32:0] wv [NCTX];                // its sort value in the class
    logic [5:0]  trank [NCTX];             // its TB's rank in that class
    logic [31:0] tlow [NCTX];              // its TB's low
    logic        bt, st;                   // its TB is Barrier / SameIter
    logic [7:0]  t;                        // its CTA slot
    always_comb begin
        for (int x = 0; x < NCTX; x++) begin
            t = ctx_cta[8*x +: 8];
            bt = 1'b0;
            st = 1'b0;
            tlow[x] = '0;
            for (int u = 0; u < NCTAS; u++) begin
                bt = (32'(t) == u) ? bar[u] : bt;
                st = (32'(t) == u) ? set[1][u] : st;
                tlow[x] = (32'(t) == u) ? low_d[32*u +: 32] : tlow[x];
            end
            wcls[x] = slow ? 3'(SLOW) : bt ? 3'd3 : st ? 3'd1
                    : (iter_d[32*x +: 32] == tlow[x]) ? 3'd2 : 3'd0;
            wv[x] = wcls[x] == 3'd3 ? {at_bar[x], insns[32*x +: 32]}
                  : wcls[x] == 3'd1 ? {1'b0, ~insns[32*x +: 32]} : {1'b0, insns[32*x +: 32]};
            trank[x] = '0;
            for (int u = 0; u < NCTAS; u++)
                trank[x] = (32'(t) == u) ? rank[wcls[x]][u] : trank[x];
        end
    end

    logic [8:0] r;                         // a warp rank being counted
    always_comb begin
        key = '0;
        ahead = '0;
        for (int x = 0; x < NCTX; x++) begin
            r = '0;
            for (int y = 0; y < NCTX; y++)
                r = r + 9'(vld[y] && ctx_cta[8*y +: 8] == ctx_cta[8*x +: 8] && wcls[y] == wcls[x]
                           && (wv[y] < wv[x] || (wv[y] == wv[x] && y < x)));
`ifdef INJECT_BUG
            key[16*x +: 16] = vld[x] ? {wcls[x] == 3'(SLOW) ? 2'd0
                                        : wcls[x][1] ? wcls[x][1:0] : {1'b0, ~wcls[x][0]},
                                        6'd63 - trank[x], 8'd255 - r[7:0]} : 16'd0;
`else
            key[16*x +: 16] = vld[x] ? {wcls[x] == 3'(SLOW) ? 2'd0 : wcls[x][1:0],
                                        6'd63 - trank[x], 8'd255 - r[7:0]} : 16'd0;
`endif
            ahead[x] = vld[x] && iter_d[32*x +: 32] != tlow[x];
        end
    end

    // ---------------------------------------------------------------- state
    always_ff @(posedge clk) begin
        if (rst) begin
            iter <= '0;
            low <= '0;
            nnext <= '0;
        end else begin
            iter <= iter_d;
            low <= low_d;
            nnext <= nnext_d;
        end
    end
endmodule
