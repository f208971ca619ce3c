// ntb.sv -- VTW's next-TB-index unit: the Verilog reference of model/sm/ntb.{c,h}
// (000_0da6b8b480bd0740.txt Section 4.2).  Same ports as struct ntb_in / ntb_out, same
// registers as struct ntb_regs (map, cnt, lh, lw, order, pipe, head), so tb/ntb_cosim.cpp
// compares outputs and state every cycle.
//
// Ports: the 4 request ports (NTB_PORTS) flattened field by field, port k's field at
// [k*W +: W] (req_v, req_op, req_cta [5:0], req_ctx [7:0], req_warp [4:0], req_reg [15:0],
// req_mask [31:0]); the launch {launch_v, launch_cta, launch_base}; the CTA shape nw, nfull
// [5:0]; gnext [31:0]; prog: 256 contexts (SM_MAX_CTX) x 32 bits, context c at [c*32 +: 32]
// (contexts >= NCTX are not looked at).  Out: gtake [2:0] and the replies rep_* flattened the
// same way (rep_ctx [7:0], rep_reg [15:0], rep_mask, rep_val [31:0], rep_addlane).
//
// Registers (flattened, entry i at [i*W +: W]): map NCTAS x 32, cnt NCTAS x 8; lh NCTAS x 6
// and lw NCTX x 5 (lane != same), order NCTX x 5 (slowest: it holds warp indices, 0..31);
// pipe (LAT - 1) stages x 4 ports x 90 bits, entry {addlane, val, mask, reg, ctx, v} (LSB v),
// stage s port k at [(s*4+k)*90 +: 90]; head clog2(LAT - 1) bits (LAT > 2).  A register a
// configuration does not need is a constant 0 (no flip-flops): under lane same lw[c] of a
// live context is its warp index (ntb_launch wrote it, nothing else does), so nextidxinblk
// answers warp * 32 from the request itself.
//
// Parameters: NTB_NCTAS / NTB_NCTX / NTB_LANE / NTB_LAT of gpusim_params.vh; P_LANE / P_LAT
// override the last two (-1 = the configuration's value), for the co-simulation's variants.
//
// Timing: Mealy like ntb_eval.  Order inside the cycle: a launch resets its TB slot; the
// requests are served in port order, each seeing the earlier ports' updates (ntb_serve on d
// in place; the k-th new index taken this cycle is gnext + k); their replies enter the stage
// presented LAT - 1 cycles later (LAT = 1: the outputs directly); the stage due is presented.
// SlowestLane ranks a TB's full warps by counting: a context's rank is the number of the TB's
// full-warp contexts whose progress is smaller, or equal at a lower context; the comparison
// matrix over all contexts is shared by the 4 ports (prog does not change within the cycle).
// rst (synchronous, active high) is ntb_reset: map all ones (NTB_NONE), everything else 0.
//
// `define INJECT_BUG: SlowestLane breaks progress ties by the higher warp index instead of the
// lower (the co-simulation's self-test must see a mismatch).
module ntb #(
    parameter int P_LANE = -1,
    parameter int P_LAT  = -1
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [3:0]         req_v,
    input  logic [3:0]         req_op,       // enum ntb_op: 0 nexttbid, 1 nextidxinblk
    input  logic [4*6-1:0]     req_cta,
    input  logic [4*8-1:0]     req_ctx,
    input  logic [4*5-1:0]     req_warp,
    input  logic [4*16-1:0]    req_reg,
    input  logic [4*32-1:0]    req_mask,
    input  logic               launch_v,
    input  logic [5:0]         launch_cta,
    input  logic [7:0]         launch_base,
    input  logic [5:0]         nw,
    input  logic [5:0]         nfull,
    input  logic [31:0]        gnext,
    // contexts >= NCTX have no load; nor has prog unless lane = slowest
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [256*32-1:0]  prog,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic [2:0]         gtake,
    output logic [3:0]         rep_v,
    output logic [4*8-1:0]     rep_ctx,
    output logic [4*16-1:0]    rep_reg,
    output logic [4*32-1:0]    rep_mask,
    output logic [4*32-1:0]    rep_val,
    output logic [3:0]         rep_addlane
);
    // The header holds every block's parameters; ntb uses the NTB_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NCTAS  = NTB_NCTAS;
    localparam int NCTX   = NTB_NCTX;
    localparam int LANE   = (P_LANE >= 0) ? P_LANE : NTB_LANE;
    localparam int LAT    = (P_LAT > 0) ? P_LAT : NTB_LAT;
    localparam int SAME = 0, SLOWEST = 1, LOWEST = 2;    // enum ntb_lane
    localparam int STAGES = (LAT > 1) ? LAT - 1 : 1;     // pipe entries held (1 unused at LAT 1)
    localparam int HB     = (STAGES > 1) ? $clog2(STAGES) : 1;
    localparam int RB     = 90;                          // bits of one reply

    // ---------------------------------------------------------------- registers (ntb_regs)
    // Registers a configuration does not use are driven with 0 (see the header).
    /* verilator lint_off UNUSEDSIGNAL */
    logic [NCTAS*32-1:0]      map, map_n;
    logic [NCTAS*8-1:0]       cnt, cnt_n;
    logic [NCTAS*6-1:0]       lh, lh_n;
    logic [NCTX*5-1:0]        lw, lw_n;
    logic [NCTX*5-1:0]        order, order_n;
    logic [STAGES*4*RB-1:0]   pipe;
    logic [HB-1:0]            head;
    /* verilator lint_on UNUSEDSIGNAL */

    // ---------------------------------------------------------------- SlowestLane comparisons
    // lt[a*NCTX + b]: context a sorts before context b (less progress, or equal and a < b).
    logic [NCTX*NCTX-1:0] lt;
    for (genvar a = 0; a < NCTX; a++) begin : g_lt_a
        for (genvar b = 0; b < NCTX; b++) begin : g_lt_b
            if (LANE == SLOWEST) begin : g_cmp
                logic [31:0] pa, pb;
                assign pa = prog[a*32 +: 32];
                assign pb = prog[b*32 +: 32];
`ifdef INJECT_BUG
                assign lt[a*NCTX + b] = pa < pb || (pa == pb && a > b);
`else
                assign lt[a*NCTX + b] = pa < pb || (pa == pb && a < b);
`endif
            end else begin : g_none
                assign lt[a*NCTX + b] = 1'b0;
            end
        end
    end

    // ---------------------------------------------------------------- the requests
    logic [4*RB-1:0] now;        // this cycle's replies, port k at [k*RB +: RB]
    logic [2:0]      took;

    // The warp index a full warp takes with the newest index (lowest: the count so far;
    // slowest: the snapshot's entry at that position).
    function automatic logic [4:0] lane_of(input logic [4:0] h, input logic [4:0] ord);
        lane_of = (LANE == LOWEST) ? h : ord;
    endfunction

    always_comb begin
        logic [5:0]  c;          // TB slot of the request
        logic [7:0]  x;          // its context
        logic [7:0]  base;       // context of the TB's warp 0
        logic [31:0] val;
        logic [5:0]  rank, h;
        rank = '0;
        h = '0;
        map_n = map;
        cnt_n = cnt;
        lh_n = lh;
        lw_n = lw;
        order_n = order;
        if (launch_v) begin
            map_n[32*32'(launch_cta) +: 32] = '1;
            cnt_n[8*32'(launch_cta) +: 8] = '0;
            lh_n[6*32'(launch_cta) +: 6] = '0;
            for (int i = 0; i < 32; i++)
                if (i < 32'(nw) && 32'(launch_base) + i < NCTX)
                    lw_n[5*(32'(launch_base) + i) +: 5] = 5'(i);
        end
        took = '0;
        now = '0;
        for (int k = 0; k < 4; k++) begin
            c = req_cta[6*k +: 6];
            x = req_ctx[8*k +: 8];
            base = x - 8'(req_warp[5*k +: 5]);
            val = '0;
            if (req_v[k] && req_op[k]) begin
                val = (LANE == SAME) ? 32'(req_warp[5*k +: 5]) << 5
                                     : 32'(lw_n[5*32'(x) +: 5]) << 5;
            end else if (req_v[k]) begin
                if (cnt_n[8*32'(c) +: 8] == 8'd0) begin      // the TB's first warp
                    map_n[32*32'(c) +: 32] = gnext + 32'(took);
                    cnt_n[8*32'(c) +: 8] = 8'(nw) - 8'd1;
                    lh_n[6*32'(c) +: 6] = '0;
                    took = took + 3'd1;
                    if (LANE == SLOWEST)
                        for (int b = 0; b < NCTX; b++)
                            if (b >= 32'(base) && b < 32'(base) + 32'(nfull)) begin
                                rank = '0;
                                for (int a = 0; a < NCTX; a++)
                                    if (a >= 32'(base) && a < 32'(base) + 32'(nfull) &&
                                        lt[a*NCTX + b])
                                        rank = rank + 6'd1;
                                order_n[5*(32'(base) + 32'(rank)) +: 5] = lw_n[5*b +: 5];
                            end
                end else begin
                    cnt_n[8*32'(c) +: 8] = cnt_n[8*32'(c) +: 8] - 8'd1;
                end
                if (LANE != SAME && {1'b0, req_warp[5*k +: 5]} < nfull) begin
                    h = lh_n[6*32'(c) +: 6];
                    lw_n[5*32'(x) +: 5] =
                        lane_of(h[4:0], order_n[5*(32'(base) + 32'(h)) +: 5]);
                    lh_n[6*32'(c) +: 6] = h + 6'd1;
                end
                val = map_n[32*32'(c) +: 32];
            end
            now[k*RB +: RB] = {req_v[k] & req_op[k], val, req_mask[32*k +: 32],
                               req_reg[16*k +: 16], x, req_v[k]};
        end
    end

    // ---------------------------------------------------------------- outputs
    logic [4*RB-1:0] out;
    assign gtake = took;
    for (genvar k = 0; k < 4; k++) begin : g_rep
        assign rep_v[k] = out[k*RB];
        assign rep_ctx[8*k +: 8] = out[k*RB + 1 +: 8];
        assign rep_reg[16*k +: 16] = out[k*RB + 9 +: 16];
        assign rep_mask[32*k +: 32] = out[k*RB + 25 +: 32];
        assign rep_val[32*k +: 32] = out[k*RB + 57 +: 32];
        assign rep_addlane[k] = out[k*RB + 89];
    end

    // ---------------------------------------------------------------- the registers
    always_ff @(posedge clk) begin
        if (rst) begin
            map <= '1;
            cnt <= '0;
        end else begin
            map <= map_n;
            cnt <= cnt_n;
        end
    end

    if (LANE != SAME) begin : g_lane
        always_ff @(posedge clk) begin
            if (rst) begin
                lh <= '0;
                lw <= '0;
            end else begin
                lh <= lh_n;
                lw <= lw_n;
            end
        end
    end else begin : g_nolane
        assign lh = '0;
        assign lw = '0;
    end

    if (LANE == SLOWEST) begin : g_order
        always_ff @(posedge clk)
            if (rst)
                order <= '0;
            else
                order <= order_n;
    end else begin : g_noorder
        assign order = '0;
    end

    if (LAT > 1) begin : g_pipe
        always_ff @(posedge clk)
            if (rst)
                pipe <= '0;
            else
                pipe[32'(head)*4*RB +: 4*RB] <= now;
        assign out = pipe[32'(head)*4*RB +: 4*RB];
    end else begin : g_nopipe
        assign pipe = '0;
        assign out = now;
    end

    if (STAGES > 1) begin : g_head
        always_ff @(posedge clk)
            if (rst)
                head <= '0;
            else
                head <= (32'(head) == STAGES - 1) ? '0 : head + HB'(1);
    end else begin : g_nohead
        assign head = '0;
    end
endmodule
