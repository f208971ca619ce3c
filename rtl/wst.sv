// wst.sv -- DWS's warp-split table: the Verilog reference of model/sm/wst.{c,h}
// (002_ddcb2f79a6edfee4.txt, slides "Implementation: DWS Upon Branch Divergence" (e),
// "Reconvergence Challenges", "Results (1)", backup "WST Hardware Overhead").  Same ports as
// struct wst_in / wst_out (a struct field F of port P is P_F), same registers as struct
// wst_regs, so tb/wst_cosim.cpp compares outputs and state every cycle.  The contract, the
// order and the err bits are in model/sm/wst.h and docs/wst.md.
//
// Ports: launch [63:0] (home slots; bits >= NWARPS are errors), launch_lanes 64 x 32 (home h
// at [h*32 +: 32]); pc 128 x 32; the slot masks lvl, arr, empty, busy, live, susp, issued,
// sb_any [127:0] (slots >= NSLOTS are not looked at); mok; bsplit_v, bsplit_src [6:0],
// bsplit_lanes [31:0]; mcand_v, mcand_src [6:0], mcand_lanes, mcand_ld_lanes [31:0],
// mcand_part_hit.  Out: free_v, free [6:0], full, nvalid [6:0], cand_v, cand_dst, cand_src
// [6:0], nosplit [127:0], msplit_v, msplit_src, msplit_dst [6:0], msplit_lanes [31:0],
// merge_v, merge_dst, merge_src [6:0], rel_v, rel_slot [6:0], free_mask [127:0], prio_key
// 128 x 6, nsusp, narr [6:0], ev_bsplit, ev_msplit, ev_merge_pc, ev_merge_rpc,
// ev_runahead_lanes [5:0], ev_mref [2:0] (why the memory candidate was not split), err [2:0].
//
// Registers (NS = NWARPS + NENT, HB = clog2(NWARPS), EB = clog2(NENT), SB = clog2(NS); entry i
// of an array at [i*W +: W]): valid [NENT-1:0]; home NENT x HB; status NENT x 2; prio
// NENT x 6; own NS x 32; mflag [NS-1:0]; reg_on [NWARPS-1:0]; rr [EB-1:0]; the candidate
// (struct wst_regs.cand) candq_v, candq_dst, candq_src [SB-1:0].  NWARPS >= 2, NENT >= 2.
//
// Parameters: WST_NWARPS, WST_NENT, WST_VARIANT of gpusim_params.vh; P_NWARPS, P_NENT,
// P_VARIANT override them (-1 = the configuration's), for the co-simulation's variants.
//
// Timing: Mealy like wst_eval, in its order: launch, mflag clears, the merge of the candidate,
// the split (a branch split, else a memory split the variant accepts), status, the release,
// the PC matcher, outputs.  rst (synchronous, active high) is wst_reset: every register 0.
// Writes into the tables are per entry (each entry compares the index with its own), reads
// select by index.
//
// `define INJECT_BUG: LazySplit's and ReviveSplit's rule lets a memory split happen while two
// slots are active -- over-subdivision against 002 "Implementation: Reconvergence Challenges"
// ("subdivide only when all available warp-splits are suspended") and "Results (1)"
// (LazySplit: "when there is only one active warp left"); the co-simulation's self-test must
// see a mismatch.
module wst #(
    parameter int P_NWARPS = -1,
    parameter int P_NENT = -1,
    parameter int P_VARIANT = -1
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [63:0]        launch,
    // homes >= NWARPS, slots >= NSLOTS are not looked at
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [64*32-1:0]   launch_lanes,
    input  logic [128*32-1:0]  pc,
    input  logic [127:0]       lvl,
    input  logic [127:0]       arr,
    input  logic [127:0]       empty,
    input  logic [127:0]       busy,
    input  logic [127:0]       live,
    input  logic [127:0]       susp,
    input  logic [127:0]       issued,
    input  logic [127:0]       sb_any,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic               mok,
    input  logic               bsplit_v,
    input  logic [6:0]         bsplit_src,
    input  logic [31:0]        bsplit_lanes,
    input  logic               mcand_v,
    input  logic [6:0]         mcand_src,
    input  logic [31:0]        mcand_lanes,
    input  logic [31:0]        mcand_ld_lanes,
    input  logic               mcand_part_hit,
    output logic               free_v,
    output logic [6:0]         free,
    output logic               full,
    output logic [6:0]         nvalid,
    output logic               cand_v,
    output logic [6:0]         cand_dst,
    output logic [6:0]         cand_src,
    output logic [127:0]       nosplit,
    output logic               msplit_v,
    output logic [6:0]         msplit_src,
    output logic [6:0]         msplit_dst,
    output logic [31:0]        msplit_lanes,
    output logic               merge_v,
    output logic [6:0]         merge_dst,
    output logic [6:0]         merge_src,
    output logic               rel_v,
    output logic [6:0]         rel_slot,
    output logic [127:0]       free_mask,
    output logic [128*6-1:0]   prio_key,
    output logic [6:0]         nsusp,
    output logic [6:0]         narr,
    output logic               ev_bsplit,
    output logic               ev_msplit,
    output logic               ev_merge_pc,
    output logic               ev_merge_rpc,
    output logic [5:0]         ev_runahead_lanes,
    output logic [2:0]         ev_mref,
    output logic [2:0]         err
);
    // The header holds every block's parameters; wst uses the WST_* ones.
    /* verilator lint_off UNUSEDPARAM */
    `include "gpusim_params.vh"
    /* verilator lint_on UNUSEDPARAM */

    localparam int NW = (P_NWARPS > 0) ? P_NWARPS : WST_NWARPS;
    localparam int NE = (P_NENT > 0) ? P_NENT : WST_NENT;
    localparam int VARIANT = (P_VARIANT >= 0) ? P_VARIANT : WST_VARIANT;
    localparam int NS = NW + NE;
    localparam int HB = $clog2(NW);
    localparam int EB = $clog2(NE);
    localparam int SB = $clog2(NS);
    localparam logic [2:0] E_LAUNCH = 3'd1, E_BSPLIT = 3'd2, E_MCAND = 3'd4;   // enum wst_err
    localparam logic [1:0] ST_READY = 2'd0, ST_SUSP = 2'd1, ST_ARR = 2'd2;     // wst_status
    localparam int V_AGGRESS = 2, V_LAZY = 3, V_REVIVE = 4, V_REVIVE_MEM = 5;  // conf_dws
    localparam logic [2:0] MR_NONE = 3'd0, MR_OTHER = 3'd1, MR_NESTED = 3'd2,   // wst_mref
                           MR_BUSY = 3'd3, MR_POLICY = 3'd4, MR_BRANCH = 3'd5, MR_FULL = 3'd6;

    // ---------------------------------------------------------------- registers (wst_regs)
    logic [NE-1:0]    valid;
    logic [NE*HB-1:0] home;
    logic [NE*2-1:0]  status;
    logic [NE*6-1:0]  prio;
    logic [NS*32-1:0] own;
    logic [NS-1:0]    mflag;
    logic [NW-1:0]    reg_on;
    logic [EB-1:0]    rr;
    logic             candq_v;
    logic [SB-1:0]    candq_dst, candq_src;

    // next state
    logic [NE-1:0]    valid_n;
    logic [NE*HB-1:0] home_n;
    logic [NE*2-1:0]  status_n;
    logic [NE*6-1:0]  prio_n;
    logic [NS*32-1:0] own_n;
    logic [NS-1:0]    mflag_n;
    logic [NW-1:0]    reg_on_n;
    logic [EB-1:0]    rr_n;
    logic             candn_v;
    logic [SB-1:0]    candn_dst, candn_src;

    // the input slot masks at NS
    logic [NS-1:0] m_lvl, m_arr, m_emp, m_busy, m_live, m_susp, m_iss, m_any, m_idle;
    assign m_lvl = lvl[NS-1:0];
    assign m_arr = arr[NS-1:0];
    assign m_emp = empty[NS-1:0];
    assign m_busy = busy[NS-1:0];
    assign m_live = live[NS-1:0];
    assign m_susp = susp[NS-1:0];
    assign m_iss = issued[NS-1:0];
    assign m_any = sb_any[NS-1:0];
    assign m_idle = m_live & m_lvl & ~m_busy;

    function automatic logic [31:0] pc_of(input logic [SB-1:0] s);
        pc_of = pc[32*32'(s) +: 32];
    endfunction

    // pc_ok of wst.c: a (a home when a_home) and b of one warp may merge on their pcs; at
    // the same pc not as a latency pair (wst_latency_pair: neither arrived, exactly one
    // suspended on memory)
    function automatic logic pc_ok(input logic [SB-1:0] a, input logic [SB-1:0] b,
                                   input logic a_home, input logic one);
        pc_ok = m_emp[b] || (m_emp[a] && (!a_home || one)) ||
                (pc_of(a) == pc_of(b) && !(!m_arr[a] && !m_arr[b] && m_susp[a] != m_susp[b]));
    endfunction

    // valid entries of warp h in a table (v, hm)
    function automatic logic only_one(input logic [NE-1:0] v, input logic [NE*HB-1:0] hm,
                                      input logic [HB-1:0] h);
        int n;
        n = 0;
        for (int e = 0; e < NE; e++)
            if (v[e] && hm[HB*e +: HB] == h)
                n = n + 1;
        only_one = n == 1;
    endfunction

    function automatic logic none_of(input logic [NE-1:0] v, input logic [NE*HB-1:0] hm,
                                     input logic [HB-1:0] h);
        none_of = 1'b1;
        for (int e = 0; e < NE; e++)
            if (v[e] && hm[HB*e +: HB] == h)
                none_of = 1'b0;
    endfunction

    // home of slot s < NS in table hm
    function automatic logic [HB-1:0] home_of(input logic [SB-1:0] s, input logic [NE*HB-1:0] hm);
        if (32'(s) < NW)
            home_of = HB'(s);
        else
            home_of = hm[HB*(32'(s) - NW) +: HB];
    endfunction

    // slot s holds a warp or a split (a home, or a valid entry's slot)
    function automatic logic used(input logic [6:0] s);
        if (32'(s) < NW)
            used = 1'b1;
        else if (32'(s) < NS)
            used = valid[32'(s) - NW];
        else
            used = 1'b0;
    endfunction

    // ---------------------------------------------------------------- the cycle
    always_comb begin
        logic          mg, one, taken, sp_v, bs_ok, mc_ok, pick_v, found, hit, rule, pol;
        logic [SB-1:0] dst, src, sp_src, sp_dst, ps, pt;
        logic [HB-1:0] h, sp_h, ph;
        logic [31:0]   sp_lanes, owns, ownd;
        logic [EB-1:0] fe, pick, rr0, rx;
        logic          fe_v;
        logic [7:0]    nact;
        {free_v, free, full, nvalid, cand_v, cand_dst, cand_src, nosplit} = '0;
        {msplit_v, msplit_src, msplit_dst, msplit_lanes, merge_v, merge_dst, merge_src} = '0;
        {rel_v, rel_slot, free_mask, ev_bsplit, ev_msplit, ev_merge_pc, ev_merge_rpc} = '0;
        ev_runahead_lanes = '0;
        ev_mref = MR_NONE;
        err = '0;
        {mg, one, taken, sp_v, bs_ok, mc_ok, pick_v, found, hit, fe_v, rule, pol} = '0;
        {dst, src, sp_src, sp_dst, ps, pt, h, sp_h, ph} = '0;
        {sp_lanes, owns, ownd, fe, pick, rr0, rx, nact} = '0;
        {candn_v, candn_dst, candn_src} = '0;
        status_n = status;
        rr_n = rr;
        valid_n = valid;
        home_n = home;
        prio_n = prio;
        own_n = own;
        mflag_n = mflag;
        reg_on_n = reg_on;

        // launch: the homes own their lanes
        if (|(launch >> NW))
            err = err | E_LAUNCH;
        for (int k = 0; k < NW; k++)
            if (launch[k]) begin
                if (reg_on[k])
                    err = err | E_LAUNCH;
                else begin
                    own_n[32*k +: 32] = launch_lanes[32*k +: 32];
                    mflag_n[k] = 1'b0;
                end
            end
        // mflag clears where the row is empty
        mflag_n = mflag_n & m_any;

        // the merge of the registered candidate
        dst = candq_dst;
        src = candq_src;
        h = home_of(src, home);
        mg = candq_v && 32'(src) >= NW && used(7'(src)) && used(7'(dst)) && dst != src &&
             home_of(dst, home) == h && m_idle[dst] && m_idle[src] && !m_iss[dst] &&
             !m_iss[src] && mok &&
             !(bsplit_v && (bsplit_src == 7'(dst) || bsplit_src == 7'(src))) &&
             pc_ok(dst, src, 32'(dst) < NW, only_one(valid, home, h));
        if (mg) begin
            merge_v = 1'b1;
            merge_dst = 7'(dst);
            merge_src = 7'(src);
            owns = own_n[32*32'(src) +: 32];
            ownd = own_n[32*32'(dst) +: 32] | owns;
            for (int s = 0; s < NS; s++) begin
                if (SB'(s) == dst)
                    own_n[32*s +: 32] = ownd;
                if (SB'(s) == src)
                    own_n[32*s +: 32] = '0;
            end
            for (int e = 0; e < NE; e++) begin
                if (SB'(NW + e) == dst)
                    prio_n[6*e +: 6] = 6'($countones(ownd));
                if (SB'(NW + e) == src)
                    valid_n[e] = 1'b0;
            end
            free_mask = 128'(1) << src;
            mflag_n[src] = 1'b0;
            if (m_any[dst] || m_any[src])
                mflag_n[dst] = 1'b1;
            ev_merge_rpc = m_arr[dst];
            ev_merge_pc = !m_arr[dst];
        end

        // the free entry (q)
        fe_v = 1'b0;
        fe = '0;
        for (int e = NE - 1; e >= 0; e--)
            if (!valid[e]) begin
                fe_v = 1'b1;
                fe = EB'(e);
            end

        // the branch split, else the memory split
        sp_src = SB'(bsplit_src);
        sp_lanes = bsplit_lanes;
        owns = own_n[32*32'(sp_src) +: 32];
        bs_ok = fe_v && 32'(bsplit_src) < NS && used(bsplit_src) && m_live[sp_src] &&
                !mflag[sp_src] && !(reg_on_n[home_of(sp_src, home)] && !m_lvl[sp_src]) &&
                bsplit_lanes != '0 && (bsplit_lanes & ~owns) == '0 && bsplit_lanes != owns;
        taken = bsplit_v && bs_ok;
        if (bsplit_v && !bs_ok)
            err = err | E_BSPLIT;
        nact = 8'($countones(m_live & ~m_arr & ~m_susp));
        // the variant's memory-split rule (slides "Results (1)"): aggress always; lazy only
        // when at most one slot is active and the source is a home; revive, revive_mem only
        // when at most one slot is active ("subdivide only when all available warp-splits are
        // suspended")
`ifdef INJECT_BUG
        rule = nact <= 8'd2;
`else
        rule = nact <= 8'd1;
`endif
        mc_ok = 1'b0;
        if (mcand_v) begin
            if (32'(mcand_src) >= NS || (mcand_lanes & ~mcand_ld_lanes) != '0)
                err = err | E_MCAND;
            else begin
                ps = SB'(mcand_src);
                owns = own_n[32*32'(ps) +: 32];
                if (VARIANT == V_AGGRESS)
                    pol = 1'b1;
                else if (VARIANT == V_LAZY)
                    pol = rule && 32'(mcand_src) < NW;
                else if (VARIANT == V_REVIVE || VARIANT == V_REVIVE_MEM)
                    pol = rule;
                else
                    pol = 1'b0;
                // why it is not split: the first that holds (enum wst_mref)
                if (!mcand_part_hit || !used(mcand_src) || !m_live[ps] ||
                    owns != mcand_ld_lanes || mcand_lanes == '0 || mcand_lanes == owns)
                    ev_mref = MR_OTHER;
                else if (reg_on_n[home_of(ps, home)] && !m_lvl[ps])
                    ev_mref = MR_NESTED;
                else if (m_busy[ps] || mflag[ps] || (mg && (ps == dst || ps == src)))
                    ev_mref = MR_BUSY;
                else if (!pol)
                    ev_mref = MR_POLICY;
                else if (taken)
                    ev_mref = MR_BRANCH;
                else if (!fe_v)
                    ev_mref = MR_FULL;
                mc_ok = ev_mref == MR_NONE;
            end
        end
        if (!taken) begin
            sp_src = SB'(mcand_src);
            sp_lanes = mcand_lanes;
        end
        sp_v = taken || mc_ok;
        sp_dst = SB'(NW + 32'(fe));
        sp_h = home_of(sp_src, home);
        if (sp_v) begin
            owns = own_n[32*32'(sp_src) +: 32] & ~sp_lanes;
            for (int s = 0; s < NS; s++) begin
                if (SB'(s) == sp_dst)
                    own_n[32*s +: 32] = sp_lanes;
                if (SB'(s) == sp_src)
                    own_n[32*s +: 32] = owns;
            end
            for (int e = 0; e < NE; e++) begin
                if (EB'(e) == fe) begin
                    valid_n[e] = 1'b1;
                    home_n[HB*e +: HB] = sp_h;
                    prio_n[6*e +: 6] = 6'($countones(sp_lanes));
                end
                if (SB'(NW + e) == sp_src)
                    prio_n[6*e +: 6] = 6'($countones(owns));
            end
            for (int k = 0; k < NW; k++)
                if (HB'(k) == sp_h)
                    reg_on_n[k] = 1'b1;
            mflag_n[sp_dst] = 1'b0;
            ev_bsplit = taken;
            if (!taken) begin
                msplit_v = 1'b1;
                msplit_src = 7'(sp_src);
                msplit_dst = 7'(sp_dst);
                msplit_lanes = sp_lanes;
                ev_msplit = 1'b1;
                ev_runahead_lanes = 6'($countones(sp_lanes));
            end
        end

        // status from this cycle's inputs
        for (int e = 0; e < NE; e++)
            status_n[2*e +: 2] = !valid_n[e] ? ST_READY : m_arr[NW + e] ? ST_ARR :
                                 m_susp[NW + e] ? ST_SUSP : ST_READY;

        // the release: the lowest home in the regime with no split left
        found = 1'b0;
        for (int k = 0; k < NW; k++)
            if (!found && reg_on_n[k] && none_of(valid_n, home_n, HB'(k))) begin
                found = 1'b1;
                reg_on_n[k] = 1'b0;
                rel_v = 1'b1;
                rel_slot = 7'(k);
            end

        // the PC matcher: the first idle entry at regime level from rr on, and its partner
        rr0 = (32'(rr) < NE) ? rr : '0;
        pick_v = 1'b0;
        pick = '0;
        for (int e = NE - 1; e >= 0; e--)
            if (valid_n[e] && m_idle[NW + e]) begin
                pick_v = 1'b1;
                pick = EB'(e);
            end
        for (int e = NE - 1; e >= 0; e--)
            if (EB'(e) >= rr0 && valid_n[e] && m_idle[NW + e])
                pick = EB'(e);
        ps = SB'(NW + 32'(pick));
        ph = home_n[HB*32'(pick) +: HB];
        one = only_one(valid_n, home_n, ph);
        candn_v = 1'b0;
        candn_dst = '0;
        candn_src = '0;
        if (pick_v) begin
            if (m_idle[SB'(ph)] && pc_ok(SB'(ph), ps, 1'b1, one)) begin
                candn_v = 1'b1;
                candn_dst = SB'(ph);
                candn_src = ps;
            end else begin
                hit = 1'b0;
                for (int f = 0; f < NE; f++) begin
                    pt = SB'(NW + f);
                    if (!hit && EB'(f) != pick && valid_n[f] && home_n[HB*f +: HB] == ph &&
                        m_idle[NW + f] && pc_ok(pt, ps, 1'b0, 1'b0)) begin
                        hit = 1'b1;
                        candn_v = 1'b1;
                        candn_dst = (pt < ps) ? pt : ps;
                        candn_src = (pt < ps) ? ps : pt;
                    end
                end
            end
        end
        rx = pick_v ? pick : rr0;
        rr_n = (32'(rx) + 1 == NE) ? '0 : rx + EB'(1);

        // outputs for the next cycle
        for (int e = NE - 1; e >= 0; e--)
            if (!valid_n[e]) begin
                free_v = 1'b1;
                free = 7'(NW + e);
            end
        full = !free_v;
        nvalid = 7'($countones(valid_n));
        cand_v = candn_v;
        cand_dst = 7'(candn_dst);
        cand_src = 7'(candn_src);
        nosplit = 128'(mflag_n);
    end

    // ---------------------------------------------------------------- outputs from q
    always_comb begin
        prio_key = '0;
        nsusp = '0;
        narr = '0;
        for (int k = 0; k < NW; k++)
            prio_key[6*k +: 6] = 6'($countones(own[32*k +: 32]));
        for (int e = 0; e < NE; e++) begin
            prio_key[6*(NW + e) +: 6] = valid[e] ? prio[6*e +: 6] : '0;
            if (valid[e] && status[2*e +: 2] == ST_SUSP)
                nsusp = nsusp + 7'd1;
            if (valid[e] && status[2*e +: 2] == ST_ARR)
                narr = narr + 7'd1;
        end
    end

    // ---------------------------------------------------------------- the registers
    always_ff @(posedge clk) begin
        if (rst) begin
            valid <= '0;
            home <= '0;
            status <= '0;
            prio <= '0;
            own <= '0;
            mflag <= '0;
            reg_on <= '0;
            rr <= '0;
            candq_v <= 1'b0;
            candq_dst <= '0;
            candq_src <= '0;
        end else begin
            valid <= valid_n;
            home <= home_n;
            status <= status_n;
            prio <= prio_n;
            own <= own_n;
            mflag <= mflag_n;
            reg_on <= reg_on_n;
            rr <= rr_n;
            candq_v <= candn_v;
            candq_dst <= candn_dst;
            candq_src <= candn_src;
        end
    end
endmodule
