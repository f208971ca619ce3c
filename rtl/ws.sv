// ws.sv -- warp scheduler: the Verilog reference of model/ws.{c,h} (LRR, GTO with its age
// matrix, TWOLEVEL).  Same ports as struct ws_in / ws_out, same registers as struct ws_regs
// (older, act, last, last_v), so tb/ws_cosim.cpp compares outputs and state every cycle.
//
// Parameters: the configuration's values come from the generated header gpusim_params.vh
// (`gpusim rtl-params --config FILE`, see mk/cosim.mk): WS_POLICY, WS_NSLOTS, WS_ACTIVE.
// P_POLICY / P_NSLOTS / P_ACTIVE override them (-1 = take the configuration's value); the
// co-simulation uses the overrides to test every policy with one build.
//
// Timing: Mealy like ws_eval -- issue_v / issue_slot depend on this cycle's inputs and the
// registers; the registers take the next state at the rising clock edge.  rst (synchronous,
// active high) is ws_reset.  Order inside the cycle (model/ws.c): fresh slots become the
// youngest; TWOLEVEL demotes / promotes; the pick uses the updated age matrix.
//
// `define INJECT_BUG: GTO's non-greedy pick takes the youngest ready slot instead of the
// oldest (the co-simulation's self-test must see a mismatch).
module ws #(
    parameter int P_POLICY = -1,
    parameter int P_NSLOTS = -1,
    parameter int P_ACTIVE = -1
) (
    input  logic        clk,
    input  logic        rst,
    // Slots at or above NSLOTS are ignored (ws.h), so their input bits have no load.
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [31:0] valid,      // slot holds a live warp
    input  logic [31:0] ready,      // slot can issue this cycle
    input  logic [31:0] fresh,      // slot received a new warp this cycle (becomes youngest)
    input  logic [31:0] lstall,     // slot stalled on a long-latency dependence (TWOLEVEL)
    /* verilator lint_on UNUSEDSIGNAL */
    output logic        issue_v,    // a slot issues this cycle
    output logic [4:0]  issue_slot  // local slot that issues (0 when none)
);
    // The header holds every block's parameters; ws uses the WS_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int POLICY = (P_POLICY >= 0) ? P_POLICY : WS_POLICY;
    localparam int NSLOTS = (P_NSLOTS > 0) ? P_NSLOTS : WS_NSLOTS;
    localparam int ACTIVE = (P_ACTIVE > 0) ? P_ACTIVE : WS_ACTIVE;
    localparam int LRR = 0, GTO = 1, TWOLEVEL = 2;   // enum ws_policy

    // ---------------------------------------------------------------- registers (ws_regs)
    logic [NSLOTS-1:0] older [NSLOTS];  // older[i] bit j: slot j is older than slot i
    logic [NSLOTS-1:0] act;             // TWOLEVEL active set (0 for other policies)
    logic [4:0]        last;            // last issued slot
    logic              last_v;          // last is meaningful

    logic [NSLOTS-1:0] older_d [NSLOTS];
    logic [NSLOTS-1:0] act_d;
    logic [4:0]        last_d;
    logic              last_v_d;

    // ---------------------------------------------------------------- helpers
    // Lowest set bit of m (0 when m == 0).
    function automatic logic [4:0] lowest(input logic [NSLOTS-1:0] m);
        logic [4:0] r;
        r = 5'd0;
        for (int i = NSLOTS - 1; i >= 0; i--)
            if (m[i]) r = 5'(i);
        return r;
    endfunction

    function automatic logic [5:0] popcount(input logic [NSLOTS-1:0] m);
        logic [5:0] n;
        n = 6'd0;
        for (int i = 0; i < NSLOTS; i++)
            n = n + {5'd0, m[i]};
        return n;
    endfunction

    // ---------------------------------------------------------------- next state, outputs
    logic [NSLOTS-1:0] vld, rdy, frs, lst;
    assign vld = valid[NSLOTS-1:0];
    assign rdy = ready[NSLOTS-1:0] & vld;
    assign frs = fresh[NSLOTS-1:0];
    assign lst = lstall[NSLOTS-1:0];

    // 1. Fresh slots become the youngest; among several, the lower slot is older.
    always_comb begin
        for (int i = 0; i < NSLOTS; i++)
            older_d[i] = frs[i] ? ~(frs & ({NSLOTS{1'b1}} << i)) : (older[i] & ~frs);
    end

    // Oldest slot of cand by the updated matrix: the one no other candidate is older than
    // (lowest index first, as model/ws.c scans; falls back to the lowest candidate).
    function automatic logic [4:0] oldest(input logic [NSLOTS-1:0] cand,
                                          input logic [NSLOTS-1:0] m [NSLOTS]);
        logic [NSLOTS-1:0] oh;
        for (int i = 0; i < NSLOTS; i++)
            oh[i] = cand[i] && ((m[i] & cand) == '0);
        return (oh != '0) ? lowest(oh) : lowest(cand);
    endfunction

`ifdef INJECT_BUG
    // The injected bug: the youngest candidate (every other candidate is older than it).
    function automatic logic [4:0] youngest(input logic [NSLOTS-1:0] cand,
                                            input logic [NSLOTS-1:0] m [NSLOTS]);
        logic [NSLOTS-1:0] oh;
        for (int i = 0; i < NSLOTS; i++)
            oh[i] = cand[i] && ((cand & ~m[i] & ~(NSLOTS'(1) << i)) == '0);
        return (oh != '0) ? lowest(oh) : lowest(cand);
    endfunction
`endif

    // 2. TWOLEVEL: drop invalid or long-stalled slots, then promote the oldest ready pending
    // slots while there is room.  The k-th oldest candidate has k older candidates, so
    // "promote the oldest `room` candidates" is one comparison per slot (the age matrix is a
    // total order: reset gives one and making slots youngest keeps it).
    logic [NSLOTS-1:0] kept, cand, promote;
    logic [5:0]        room;
    always_comb begin
        kept = act & vld & ~lst;
        cand = rdy & ~kept & ~lst;
        room = (popcount(kept) >= 6'(ACTIVE)) ? 6'd0 : 6'(ACTIVE) - popcount(kept);
        for (int i = 0; i < NSLOTS; i++)
            promote[i] = cand[i] && (popcount(older_d[i] & cand) < room);
    end

    // 3. The pick.
    logic [NSLOTS-1:0] elig, hi;
    logic [31:0]       elig32;
    logic [4:0]        start, pick;
    logic              greedy_v;   // GTO: last_v after a new warp took the greedy slot
    always_comb begin
        act_d = (POLICY == TWOLEVEL) ? (kept | promote) : act;
        elig = (POLICY == TWOLEVEL) ? (rdy & act_d) : rdy;
        elig32 = 32'(elig);
        greedy_v = last_v && !((POLICY == GTO) && (32'(frs) >> last) != 32'd0
                               && (32'(frs) >> last) % 2 == 32'd1);
        start = (last_v && 32'(last) != NSLOTS - 1) ? last + 5'd1 : 5'd0;
        hi = elig & ({NSLOTS{1'b1}} << start);
        if (POLICY == GTO) begin
            if (greedy_v && elig32[last])
                pick = last;
            else
`ifdef INJECT_BUG
                pick = youngest(elig, older_d);
`else
                pick = oldest(elig, older_d);
`endif
        end else begin
            pick = lowest((hi != '0) ? hi : elig);
        end
        issue_v = elig != '0;
        issue_slot = issue_v ? pick : 5'd0;
        last_d = issue_v ? pick : last;
        last_v_d = issue_v | greedy_v;
    end

    // ---------------------------------------------------------------- state
    always_ff @(posedge clk) begin
        if (rst) begin
            for (int i = 0; i < NSLOTS; i++)
                for (int j = 0; j < NSLOTS; j++)
                    older[i][j] <= (j < i);
            act <= '0;
            last <= 5'd0;
            last_v <= 1'b0;
        end else begin
            for (int i = 0; i < NSLOTS; i++)
                older[i] <= older_d[i];
            act <= act_d;
            last <= last_d;
            last_v <= last_v_d;
        end
    end
endmodule
