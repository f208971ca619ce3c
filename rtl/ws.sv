// ws.sv -- warp scheduler: the Verilog reference of model/sm/ws.{c,h} (LRR, GTO with its age
// matrix, TWOLEVEL, PRIO).  Same ports as struct ws_in / ws_out, same registers as struct
// ws_regs (older, act, last, last_v), so tb/ws_cosim.cpp compares outputs and state every cycle.
//
// Ports carry the SM's maximum of 128 slots (SM_MAX_SLOTS, base/slotmask.h): every slot set is
// [127:0], a slot index [6:0]; the keys are one packed vector, slot i's 16-bit key at
// prio[16*i +: 16].  Slots at or above NSLOTS are ignored.  Registers are held for NSLOTS
// slots: older NSLOTS x NSLOTS bits, act NSLOTS bits, last clog2(NSLOTS) bits.
//
// Parameters: the configuration's values come from the generated header gpusim_params.vh
// (`gpusim rtl-params --config FILE`, see mk/cosim.mk): WS_POLICY, WS_NSLOTS, WS_ACTIVE.
// P_POLICY / P_NSLOTS / P_ACTIVE override them (-1 = take the configuration's value); the
// co-simulation uses the overrides to test every policy with one build.
//
// Timing: Mealy like ws_eval -- issue_v / issue_slot depend on this cycle's inputs and the
// registers; the registers take the next state at the rising clock edge.  rst (synchronous,
// active high) is ws_reset.  Order inside the cycle (model/sm/ws.c): fresh slots become the
// youngest; TWOLEVEL demotes / promotes; the pick uses the updated age matrix.
//
// `define INJECT_BUG: the age pick of GTO and PRIO takes the youngest candidate instead of the
// oldest (the co-simulation's self-test must see a mismatch).
module ws #(
    parameter int P_POLICY = -1,
    parameter int P_NSLOTS = -1,
    parameter int P_ACTIVE = -1
) (
    input  logic               clk,
    input  logic               rst,
    // Slots at or above NSLOTS are ignored (ws.h), so their input bits have no load; so are
    // the keys of policies other than PRIO.
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [127:0]       valid,      // slot holds a live warp
    input  logic [127:0]       ready,      // slot can issue this cycle
    input  logic [127:0]       fresh,      // slot received a new warp this cycle (youngest)
    input  logic [127:0]       lstall,     // slot stalled on a long-latency dependence
    input  logic [128*16-1:0]  prio,       // [16i+15:16i] slot i's key (PRIO: highest first)
    /* verilator lint_on UNUSEDSIGNAL */
    output logic               issue_v,    // a slot issues this cycle
    output logic [6:0]         issue_slot  // local slot that issues (0 when none)
);
    // The header holds every block's parameters; ws uses the WS_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int POLICY = (P_POLICY >= 0) ? P_POLICY : WS_POLICY;
    localparam int NSLOTS = (P_NSLOTS > 0) ? P_NSLOTS : WS_NSLOTS;
    localparam int ACTIVE = (P_ACTIVE > 0) ? P_ACTIVE : WS_ACTIVE;
    localparam int GTO = 1, TWOLEVEL = 2, PRIO = 3;   // enum ws_policy (LRR = 0)

    localparam int LW = (NSLOTS > 1) ? $clog2(NSLOTS) : 1;  // bits of a slot index (last)
    localparam int CW = $clog2(NSLOTS + 1);     // bits of a slot count
    localparam int RW = $clog2(ACTIVE + 1);     // bits of an active-set count
    localparam bit HOLD_LAST = POLICY != PRIO;  // PRIO reads no last-issued slot

    // ---------------------------------------------------------------- registers (ws_regs)
    logic [NSLOTS-1:0] older [NSLOTS];  // older[i] bit j: slot j is older than slot i
    logic [NSLOTS-1:0] act;             // TWOLEVEL active set (0 for other policies)
    logic [LW-1:0]     last;            // last issued slot (0 for PRIO)
    logic              last_v;          // last is meaningful (0 for PRIO)

    logic [NSLOTS-1:0] older_d [NSLOTS];
    logic [NSLOTS-1:0] act_d;
    logic [LW-1:0]     last_d;
    logic              last_v_d;

    // ---------------------------------------------------------------- helpers
    // Lowest set bit of m (0 when m == 0).
    function automatic logic [LW-1:0] lowest(input logic [NSLOTS-1:0] m);
        lowest = '0;
        for (int i = NSLOTS - 1; i >= 0; i--)
            if (m[i]) lowest = LW'(i);
    endfunction

    // ---------------------------------------------------------------- next state, outputs
    logic [NSLOTS-1:0] vld, rdy, frs, elig;
    logic [LW-1:0]     pick;
    logic              greedy_v;   // last_v, except after a new warp took GTO's greedy slot
    assign vld = valid[NSLOTS-1:0];
    assign rdy = ready[NSLOTS-1:0] & vld;
    assign frs = fresh[NSLOTS-1:0];

    // 1. Fresh slots become the youngest; among several, the lower slot is older.
    always_comb begin
        for (int i = 0; i < NSLOTS; i++)
            older_d[i] = frs[i] ? ~(frs & ({NSLOTS{1'b1}} << i)) : (older[i] & ~frs);
    end

    // 2. TWOLEVEL: drop invalid or long-stalled slots, then promote the oldest ready pending
    // slots while there is room.  The k-th oldest candidate has k older candidates, so
    // "promote the oldest `room` candidates" is one comparison per slot (the age matrix is a
    // total order: reset gives one and making slots youngest keeps it).  Other policies have
    // no active set: act stays at its reset value 0 and every ready slot is eligible.
    if (POLICY == TWOLEVEL) begin : g_twolevel
        logic [NSLOTS-1:0] lst, kept, cand, promote;
        logic [CW-1:0]     nkept;
        logic [RW-1:0]     room;
        function automatic logic [CW-1:0] popcount(input logic [NSLOTS-1:0] m);
            popcount = '0;
            for (int i = 0; i < NSLOTS; i++)
                popcount = popcount + CW'(m[i]);
        endfunction
        always_comb begin
            lst = lstall[NSLOTS-1:0];
            kept = act & vld & ~lst;
            cand = rdy & ~kept & ~lst;
            nkept = popcount(kept);
            room = (32'(nkept) >= ACTIVE) ? '0 : RW'(ACTIVE - 32'(nkept));
            for (int i = 0; i < NSLOTS; i++)
                promote[i] = cand[i] && (32'(popcount(older_d[i] & cand)) < 32'(room));
            act_d = kept | promote;
            elig = rdy & act_d;
        end
    end else begin : g_single
        assign act_d = act;
        assign elig = rdy;
    end

    // 3. The pick.  GTO: the last issued slot while it stays ready, else the oldest ready.
    // PRIO: the oldest of the eligible slots with the highest key.  The oldest of a set is
    // the member no other member is older than (one-hot; lowest index first as model/sm/ws.c
    // scans, else the lowest member).  LRR / TWOLEVEL: round robin from the slot after the
    // last issued one.
    if (POLICY == GTO || POLICY == PRIO) begin : g_age
        logic [NSLOTS-1:0] ocand, old_oh, last_oh;
        if (POLICY == PRIO) begin : g_prio
            logic [15:0] kmax;      // the highest key of an eligible slot (0 when none)
            always_comb begin
                // (a conditional, not an if: Verilator 5.006 miscounts the line coverage of
                // an if inside a loop it unrolls, i.e. in instances of up to 64 slots)
                kmax = '0;
                for (int i = 0; i < NSLOTS; i++)
                    kmax = (elig[i] && prio[16*i +: 16] > kmax) ? prio[16*i +: 16] : kmax;
                for (int i = 0; i < NSLOTS; i++)
                    ocand[i] = elig[i] && prio[16*i +: 16] == kmax;
            end
        end else begin : g_gto
            assign ocand = elig;
        end
        always_comb begin
            for (int i = 0; i < NSLOTS; i++)
`ifdef INJECT_BUG
                old_oh[i] = ocand[i] && ((ocand & ~older_d[i] & ~(NSLOTS'(1) << i)) == '0);
`else
                old_oh[i] = ocand[i] && ((older_d[i] & ocand) == '0);
`endif
            for (int i = 0; i < NSLOTS; i++)
                last_oh[i] = last == LW'(i);
            greedy_v = POLICY == GTO && last_v && (frs & last_oh) == '0;
            pick = (greedy_v && (elig & last_oh) != '0) ? last
                                                     : lowest((old_oh != '0) ? old_oh : ocand);
        end
    end else begin : g_rr
        logic [LW-1:0]     start;
        logic [NSLOTS-1:0] hi;
        always_comb begin
            greedy_v = last_v;
            start = (last_v && 32'(last) != NSLOTS - 1) ? last + LW'(1) : '0;
            hi = elig & ({NSLOTS{1'b1}} << start);
            pick = lowest((hi != '0) ? hi : elig);
        end
    end

    always_comb begin
        issue_v = elig != '0;
        issue_slot = issue_v ? 7'(pick) : 7'd0;
        last_d = HOLD_LAST ? (issue_v ? pick : last) : '0;
        last_v_d = HOLD_LAST && (issue_v || greedy_v);
    end

    // ---------------------------------------------------------------- state
    // One process per row (a loop variable in an always_ff would be a register to Yosys).
    for (genvar i = 0; i < NSLOTS; i++) begin : g_row
        always_ff @(posedge clk)
            older[i] <= rst ? ~({NSLOTS{1'b1}} << i) : older_d[i];   // reset: lower = older
    end
    always_ff @(posedge clk) begin
        if (rst) begin
            act <= '0;
            last <= '0;
            last_v <= 1'b0;
        end else begin
            act <= act_d;
            last <= last_d;
            last_v <= last_v_d;
        end
    end
endmodule
