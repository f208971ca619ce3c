// vtc.sv -- VT's Virtual Thread Controller: the Verilog reference of model/sm/vtc.{c,h}
// (004_23e173f444f46134.txt Section IV-A, Fig. 7).  Same ports as struct vtc_in / vtc_out,
// same registers as struct vtc_regs, so tb/vtc_cosim.cpp compares outputs and state every
// cycle.  The contract, the cycle timing and the err bits are in model/sm/vtc.h and docs/vtc.md.
//
// Ports: the CTA-slot masks launch, launch_act, done [63:0] (SM_MAX_CTAS; bits >= NCTAS are
// errors); nw [5:0]; beats [11:0]; room; nstall, nlive: 64 CTA slots x 6 bits, slot k at
// [k*6 +: 6] (slots >= NCTAS are not looked at); pend_v, pend_n [8:0]; the 8 stale-writeback
// ports (SB_MAX_REL) rel_v [7:0], rel_cta port p at [p*6 +: 6]; grant.  Out: fence_v,
// fence_cta [5:0], save_v, save_w [4:0], rest_v, rest_w [4:0], rest_fresh, rest_cta [5:0], ldq_v, ldq_cta
// [5:0], ctx_req, rdy_n, nact, ninact [6:0], ev_out, ev_in, ev_fill, ev_busy, ev_wait, err [5:0].
//
// Registers (CB = clog2(NCTAS), NB = clog2(NCTAS + 1); entry i of an array at [i*W +: W]):
// res, act, saved, inq [NCTAS-1:0]; cnt NCTAS x 14; rdq NCTAS x CB; rd_head [CB-1:0];
// rd_n [NB-1:0]; ph [1:0]; out_cta, in_cta [CB-1:0]; sv_i, rs_i [5:0]; rd_left, wr_left [11:0].
// NCTAS >= 2 (a one-entry table would have 0-bit CTA indices).
//
// Parameters: VTC_NCTAS of gpusim_params.vh; P_NCTAS overrides it (-1 = the configuration's),
// for the co-simulation's variants.
//
// Timing: Mealy like vtc_eval, in its order: done, launch, active counters = nstall, stale
// writebacks (in port order), pend, grant, the push of the lowest ready CTA at the registered
// tail (one write port), decision (idle at the start of the cycle: pops the registered head),
// sequencer, outputs.  rst (synchronous, active high) is vtc_reset: every register 0.
//
// `define INJECT_BUG: 004's swap trigger broken -- an active CTA is marked for swap-out when
// all but one of its live warps wait on long-latency memory (the tracking counter one short
// of the CTA's warps; with one live warp, when none waits), where the paper swaps only "if the
// counter value reaches the number of warps in the CTA" (Sec. IV-A).  The co-simulation's
// self-test must see a mismatch.
module vtc #(
    parameter int P_NCTAS = -1
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [63:0]        launch,
    input  logic [63:0]        launch_act,
    input  logic [63:0]        done,
    input  logic [5:0]         nw,
    input  logic [11:0]        beats,
    input  logic               room,
    // slots >= NCTAS have no load
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [64*6-1:0]    nstall,
    input  logic [64*6-1:0]    nlive,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic               pend_v,
    input  logic [8:0]         pend_n,
    input  logic [7:0]         rel_v,
    input  logic [8*6-1:0]     rel_cta,
    input  logic               grant,
    output logic               fence_v,
    output logic [5:0]         fence_cta,
    output logic               save_v,
    output logic [4:0]         save_w,
    output logic               rest_v,
    output logic [4:0]         rest_w,
    output logic               rest_fresh,
    output logic [5:0]         rest_cta,
    output logic               ldq_v,
    output logic [5:0]         ldq_cta,
    output logic               ctx_req,
    output logic [6:0]         rdy_n,
    output logic [6:0]         nact,
    output logic [6:0]         ninact,
    output logic               ev_out,
    output logic               ev_in,
    output logic               ev_fill,
    output logic               ev_busy,
    output logic               ev_wait,
    output logic [5:0]         err
);
    // The header holds every block's parameters; vtc uses VTC_NCTAS.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NCTAS = (P_NCTAS > 0) ? P_NCTAS : VTC_NCTAS;
    localparam int N  = NCTAS;
    localparam int CB = $clog2(N);
    localparam int NB = $clog2(N + 1);
    localparam logic [1:0] IDLE = 2'd0, SWAP = 2'd1, FILL = 2'd2;            // enum vtc_ph
    localparam logic [5:0] E_DEC = 6'd1, E_LAUNCH = 6'd2, E_DONE = 6'd4,      // enum vtc_err
                           E_PEND = 6'd8, E_GRANT = 6'd16, E_NW = 6'd32;
    localparam int MAXW = 32;                                                 // VTC_MAX_W
    localparam int MAXREGS = 256;                                             // SB_MAX_REGS

    // ---------------------------------------------------------------- registers (vtc_regs)
    logic [N-1:0]     res, act, saved, inq;
    logic [N*14-1:0]  cnt;
    logic [N*CB-1:0]  rdq;
    logic [CB-1:0]    rd_head;
    logic [NB-1:0]    rd_n;
    logic [1:0]       ph;
    logic [CB-1:0]    out_cta, in_cta;
    logic [5:0]       sv_i, rs_i;
    logic [11:0]      rd_left, wr_left;

    // next state
    logic [N-1:0]     res_n, act_n, saved_n, inq_n;
    logic [N*14-1:0]  cnt_n;
    logic [N*CB-1:0]  rdq_n;
    logic [CB-1:0]    rd_head_n;
    logic [NB-1:0]    rd_n_n;
    logic [1:0]       ph_n;
    logic [CB-1:0]    out_n, in_n;
    logic [5:0]       sv_n, rs_n;
    logic [11:0]      rdl_n, wrl_n;

    function automatic logic [CB-1:0] wrap_inc(input logic [CB-1:0] x);
        wrap_inc = (32'(x) + 1 == N) ? '0 : x + CB'(1);
    endfunction

    // ---------------------------------------------------------------- done, launch, counters
    // Steps 1-5 of the eval: the table after the ports (before the push and the decision).
    // Per entry, with no index into the table but its own: a port that names a CTA is
    // compared with every entry (the stale writebacks are counted per entry; in port order a
    // CTA's counter goes down to 0 and the rest are errors).
    logic [N-1:0]     res_a, act_a, saved_a, inq_a;
    logic [N*14-1:0]  cnt_a;
    logic [5:0]       e_a;
    always_comb begin
        logic        want, pend_ok;
        logic [3:0]  nrel;
        logic [13:0] c;
        want = ph == SWAP && sv_i >= 6'd1 && sv_i <= nw;
        pend_ok = pend_v && want && 32'(pend_n) <= MAXREGS;
        res_a = res;
        act_a = act;
        saved_a = saved;
        inq_a = inq;
        cnt_a = cnt;
        e_a = '0;
        if (|(done >> N))
            e_a = e_a | E_DONE;
        if (|(launch_act & ~launch) || |(launch >> N))
            e_a = e_a | E_LAUNCH;
        for (int p = 0; p < 8; p++)
            if (rel_v[p] && 32'(rel_cta[6*p +: 6]) >= N)
                e_a = e_a | E_DEC;
        if (pend_v != want || (pend_v && 32'(pend_n) > MAXREGS))
            e_a = e_a | E_PEND;
        for (int k = 0; k < N; k++) begin
            c = cnt[14*k +: 14];
            // done: only a resident active CTA outside the swap (not the in CTA being restored)
            if (done[k]) begin
                if (!(res[k] && act[k]) || (ph != IDLE && CB'(k) == in_cta && rs_i < nw))
                    e_a = e_a | E_DONE;
                else begin
                    res_a[k] = 1'b0;
                    act_a[k] = 1'b0;
                    saved_a[k] = 1'b0;
                    c = '0;
                end
            end
            // launch: a free entry, active or inactive (never ran)
            if (launch[k]) begin
                if (res_a[k])
                    e_a = e_a | E_LAUNCH;
                else begin
                    res_a[k] = 1'b1;
                    act_a[k] = launch_act[k];
                    saved_a[k] = 1'b0;
                    inq_a[k] = 1'b0;
                    c = '0;
                end
            end
            // active: the stalled warps
            if (act_a[k])
                c = 14'(nstall[6*k +: 6]);
            // stale writebacks of an inactive CTA
            nrel = '0;
            for (int p = 0; p < 8; p++)
                if (rel_v[p] && 32'(rel_cta[6*p +: 6]) == k)
                    nrel = nrel + 4'd1;
            if (nrel != '0) begin
                if (!res_a[k] || act_a[k])
                    e_a = e_a | E_DEC;
                else if (14'(nrel) > c) begin
                    e_a = e_a | E_DEC;
                    c = '0;
                end else
                    c = c - 14'(nrel);
            end
            // the count of the warp saved in the cycle before
            if (pend_ok && CB'(k) == out_cta)
                c = c + 14'(pend_n);
            cnt_a[14*k +: 14] = c;
        end
    end

    // ---------------------------------------------------------------- grant
    logic waits;
    assign waits = rd_left != '0 || (ph == SWAP && sv_i >= nw && wr_left != '0);

    // ---------------------------------------------------------------- push, decision, sequencer
    always_comb begin
        logic          found, pushed, swap;
        logic [CB-1:0] o, kr, hk, tail;
        logic [5:0]    sv0;
        logic [N-1:0]  bit_o, bit_h;
        swap = 1'b0;
        sv0 = '0;
        res_n = res_a;
        act_n = act_a;
        saved_n = saved_a;
        inq_n = inq_a;
        cnt_n = cnt_a;
        rdq_n = rdq;
        rd_head_n = rd_head;
        rd_n_n = rd_n;
        ph_n = ph;
        out_n = out_cta;
        in_n = in_cta;
        sv_n = sv_i;
        rs_n = rs_i;
        rdl_n = rd_left;
        wrl_n = wr_left;
        err = e_a;
        {fence_v, fence_cta, save_v, save_w, rest_v, rest_w, rest_fresh, rest_cta, ldq_v, ldq_cta} = '0;
        {ctx_req, ev_out, ev_in, ev_fill} = '0;
        // grant: the in CTA's read first, then the out CTA's write
        ev_wait = waits && !grant;
        if (grant) begin
            if (!waits)
                err = err | E_GRANT;
            else if (rd_left != '0)
                rdl_n = rd_left - 12'd1;
            else
                wrl_n = wr_left - 12'd1;
        end
        // push (one FIFO write port): the lowest ready inactive CTA not yet queued
        pushed = 1'b0;
        kr = '0;
        for (int k = 0; k < N; k++)
            if (!pushed && res_n[k] && !act_n[k] && !inq_n[k] && cnt_n[14*k +: 14] == '0 &&
                !(ph == SWAP && CB'(k) == out_cta && sv_i < nw)) begin
                pushed = 1'b1;
                kr = CB'(k);
            end
        tail = (32'(rd_head) + 32'(rd_n) >= N) ? CB'(32'(rd_head) + 32'(rd_n) - N)
                                                : CB'(32'(rd_head) + 32'(rd_n));
        if (pushed) begin
            rdq_n[CB*32'(tail) +: CB] = kr;
            inq_n = inq_n | (N'(1) << kr);
            rd_n_n = rd_n_n + NB'(1);
        end
        // decision (idle): swap the lowest fully stalled active CTA for the head, or fill
        found = 1'b0;
        o = '0;
        for (int k = 0; k < N; k++)
`ifdef INJECT_BUG
            if (!found && act_n[k] && nlive[6*k +: 6] != '0 &&
                cnt_n[14*k +: 14] + 14'd1 >= 14'(nlive[6*k +: 6])) begin
`else
            if (!found && act_n[k] && nlive[6*k +: 6] != '0 &&
                cnt_n[14*k +: 14] == 14'(nlive[6*k +: 6])) begin
`endif
                found = 1'b1;
                o = CB'(k);
            end
        hk = rdq[CB*32'(rd_head) +: CB];
        bit_o = N'(1) << o;
        bit_h = N'(1) << hk;
        if (ph == IDLE && rd_n != '0 && nw >= 6'd1 && 32'(nw) <= MAXW && (found || room)) begin
            rd_head_n = wrap_inc(rd_head);
            rd_n_n = rd_n_n - NB'(1);
            inq_n = inq_n & ~bit_h;
            act_n = act_n | bit_h;
            in_n = hk;
            rs_n = '0;
            sv_n = '0;
            rdl_n = saved_n[hk] ? beats : '0;
            ev_in = 1'b1;
            if (!found) begin
                ph_n = FILL;
                wrl_n = '0;
                ev_fill = 1'b1;
            end else begin
                ph_n = SWAP;
                out_n = o;
                act_n = act_n & ~bit_o;
                saved_n = saved_n | bit_o;
                for (int k = 0; k < N; k++)
                    if (bit_o[k])
                        cnt_n[14*k +: 14] = '0;
                wrl_n = beats;
                ev_out = 1'b1;
                ldq_v = 1'b1;
                ldq_cta = 6'(o);
            end
        end
        // sequencer: one save and one restore a cycle, a restore never before its save
        swap = ph_n == SWAP;
        sv0 = sv_n;
        if (ph_n != IDLE) begin
            rest_cta = 6'(in_n);
            if (swap && sv0 < nw) begin
                save_v = 1'b1;
                fence_v = 1'b1;
                save_w = sv0[4:0];
                fence_cta = 6'(out_n);
                sv_n = sv0 + 6'd1;
            end else if (swap && sv0 == nw) begin
                sv_n = sv0 + 6'd1;              // the last save's count is in
            end
            if (rs_n < nw && rdl_n == '0 && (!swap || rs_n < sv0)) begin
                rest_v = 1'b1;
                rest_w = rs_n[4:0];
                rest_fresh = !saved_n[in_n];
                rs_n = rs_n + 6'd1;
            end
            ctx_req = rdl_n != '0 || (swap && sv_n >= nw && wrl_n != '0);
            if (rs_n >= nw && rdl_n == '0 && wrl_n == '0 && (!swap || sv_n > nw))
                ph_n = IDLE;
        end
        if (res_n != '0 && (nw == '0 || 32'(nw) > MAXW))
            err = err | E_NW;
    end

    // ---------------------------------------------------------------- outputs
    assign ev_busy = ph != IDLE;
    assign rdy_n = 7'(rd_n_n);
    assign nact = 7'($countones(res_n & act_n));
    assign ninact = 7'($countones(res_n & ~act_n));

    // ---------------------------------------------------------------- the registers
    always_ff @(posedge clk) begin
        if (rst) begin
            res <= '0;
            act <= '0;
            saved <= '0;
            inq <= '0;
            cnt <= '0;
            rdq <= '0;
            rd_head <= '0;
            rd_n <= '0;
            ph <= IDLE;
            out_cta <= '0;
            in_cta <= '0;
            sv_i <= '0;
            rs_i <= '0;
            rd_left <= '0;
            wr_left <= '0;
        end else begin
            res <= res_n;
            act <= act_n;
            saved <= saved_n;
            inq <= inq_n;
            cnt <= cnt_n;
            rdq <= rdq_n;
            rd_head <= rd_head_n;
            rd_n <= rd_n_n;
            ph <= ph_n;
            out_cta <= out_n;
            in_cta <= in_n;
            sv_i <= sv_n;
            rs_i <= rs_n;
            rd_left <= rdl_n;
            wr_left <= wrl_n;
        end
    end
endmodule
