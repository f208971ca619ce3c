// sb.sv -- scoreboard with virtual-warp-ID tags: the Verilog twin of model/sb.{c,h}.
//
// One per SM.  Per warp slot: SB_NREGS pending-write bits (pend) and the 8-bit virtual warp ID
// of the slot's owner (vwi).  Ports are the fields of struct sb_in / struct sb_out with the
// same names; arrays are flattened into packed vectors, element i at [i*W +: W] (chk_reg:
// slot s, entry k at [(s*8+k)*16 +: 16]; res_reg: port j, entry k at [(j*4+k)*16 +: 16]).
// Port widths are those of the C maxima (64 slots, 8 release ports, 4 reserve ports, 4
// destinations, 8 checked registers); SB_NSLOTS / SB_NREGS (from `gpusim rtl-params`) size
// the state.  The only flip-flops are pend (SB_NSLOTS x SB_NREGS) and vwi (SB_NSLOTS x 8).
//
// Same-cycle order (model/sb.h, docs/sb.md): set-VWI, then releases (matched against the VWI
// after set-VWI), then reserves; the check (hazard) and count ports read the resulting next
// state, so outputs are combinational in this cycle's inputs and the current registers.
// Register indices are folded modulo SB_NREGS (a power of two).  err: bit 0 (SB_E_SLOT) a port
// named a slot >= SB_NSLOTS, bit 1 (SB_E_COUNT) a count over its maximum (res_n > 4: the
// reserve is ignored; chk_n > 8: 8 registers are checked).
//
// Reset (synchronous, active high): no pending bits, vwi[s] = s (the baseline assignment).
// INJECT_BUG (co-simulation self-test only): a release ignores the VWI tag.
module sb #(
    parameter int SB_NSLOTS = 48,              // warp slots, 1..64
    parameter int SB_NREGS  = 256              // pending bits per slot: power of two, 1..256
) (
    input  logic               clk,
    input  logic               rst,
    // set-VWI: slots (re)assigned this cycle (pending bits cleared) and their new VWI
    input  logic [63:0]        setvwi,
    // verilator lint_off UNUSEDSIGNAL
    // (ports have the C maxima's widths: slots >= SB_NSLOTS and register-index bits above
    //  log2(SB_NREGS) are not looked at, exactly as in the C block)
    input  logic [64*8-1:0]    setvwi_vwi,
    // releases (writebacks): rel[8] of {v, slot[5:0], vwi[7:0], reg[15:0]}
    input  logic [7:0]         rel_v,
    input  logic [8*6-1:0]     rel_slot,
    input  logic [8*8-1:0]     rel_vwi,
    input  logic [8*16-1:0]    rel_reg,
    // reserves: res[4] of {v, slot[5:0], n[2:0], reg[4][15:0]}
    input  logic [3:0]         res_v,
    input  logic [4*6-1:0]     res_slot,
    input  logic [4*3-1:0]     res_n,
    input  logic [4*4*16-1:0]  res_reg,
    // check: per slot a valid bit, a count chk_n[3:0] and 8 register indices
    input  logic [63:0]        chk_v,
    input  logic [64*4-1:0]    chk_n,
    input  logic [64*8*16-1:0] chk_reg,
    // verilator lint_on UNUSEDSIGNAL
    // count port
    input  logic               cnt_v,
    input  logic [5:0]         cnt_slot,
    output logic [63:0]        hazard,
    output logic [8:0]         cnt,
    output logic [3:0]         ev_rel,
    output logic [3:0]         ev_rel_stale,
    output logic [1:0]         err
);
    localparam int RB = SB_NREGS > 1 ? $clog2(SB_NREGS) : 1;  // folded index width
    localparam logic [RB-1:0] RMASK = RB'(SB_NREGS - 1);
    localparam logic [6:0] NS = 7'(SB_NSLOTS);

    // The registers (same names as struct sb_regs)
    // The registers (same names as struct sb_regs), flattened: slot s's pending bits at
    // pend[s*SB_NREGS +: SB_NREGS], its VWI at vwi[s*8 +: 8].
    localparam int PW = SB_NSLOTS * SB_NREGS;
    logic [PW-1:0]          pend /*verilator public_flat_rd*/;
    logic [SB_NSLOTS*8-1:0] vwi  /*verilator public_flat_rd*/;

    logic [PW-1:0]          pend_d;
    logic [SB_NSLOTS*8-1:0] vwi_d;

    // A register index folded onto its bit, as a one-hot row mask.
    // (callers pass the index's low RB bits: the rest are folded away)
    function automatic logic [SB_NREGS-1:0] bit_of(input logic [RB-1:0] r);
        logic [SB_NREGS-1:0] m;
        m = '0;
        m[r & RMASK] = 1'b1;
        bit_of = m;
    endfunction

    function automatic logic slot_ok(input logic [5:0] s);
        slot_ok = {1'b0, s} < NS;
    endfunction

    // ---- next state: set-VWI, then releases, then reserves
    logic [3:0] n_rel, n_stale;
    logic       e_slot_upd, e_cnt_upd;

    always_comb begin
        logic [5:0] s6;
        logic [7:0] tag;
        logic [2:0] n3;
        pend_d = pend;
        vwi_d = vwi;
        n_rel = '0;
        n_stale = '0;
        e_slot_upd = 1'b0;
        e_cnt_upd = 1'b0;
        // set-VWI
        for (int s = 0; s < 64; s++) begin
            if (setvwi[s]) begin
                if (s < SB_NSLOTS) begin
                    pend_d[s*SB_NREGS +: SB_NREGS] = '0;
                    vwi_d[s*8 +: 8] = setvwi_vwi[s*8 +: 8];
                end else begin
                    e_slot_upd = 1'b1;
                end
            end
        end
        // releases, tag compared with the VWI after set-VWI
        for (int i = 0; i < 8; i++) begin
            s6 = rel_slot[i*6 +: 6];
            tag = rel_vwi[i*8 +: 8];
            if (rel_v[i]) begin
                if (!slot_ok(s6)) begin
                    e_slot_upd = 1'b1;
`ifdef INJECT_BUG
                end else begin
                    pend_d[s6*SB_NREGS +: SB_NREGS] = pend_d[s6*SB_NREGS +: SB_NREGS] &
                                                      ~bit_of(rel_reg[i*16 +: RB]);
                    if (tag != vwi_d[s6*8 +: 8])
                        n_stale = n_stale + 4'd1;
                    else
                        n_rel = n_rel + 4'd1;
                end
`else
                end else if (tag != vwi_d[s6*8 +: 8]) begin
                    n_stale = n_stale + 4'd1;
                end else begin
                    pend_d[s6*SB_NREGS +: SB_NREGS] = pend_d[s6*SB_NREGS +: SB_NREGS] &
                                                      ~bit_of(rel_reg[i*16 +: RB]);
                    n_rel = n_rel + 4'd1;
                end
`endif
            end
        end
        // reserves
        for (int j = 0; j < 4; j++) begin
            s6 = res_slot[j*6 +: 6];
            n3 = res_n[j*3 +: 3];
            if (res_v[j]) begin
                if (!slot_ok(s6)) begin
                    e_slot_upd = 1'b1;
                end else if (n3 > 3'd4) begin
                    e_cnt_upd = 1'b1;
                end else begin
                    for (int k = 0; k < 4; k++)
                        if (3'(k) < n3)
                            pend_d[s6*SB_NREGS +: SB_NREGS] = pend_d[s6*SB_NREGS +: SB_NREGS] |
                                bit_of(res_reg[(j*4+k)*16 +: RB]);
                end
            end
        end
    end

    // ---- check port: every checked slot's registers against the next state
    logic [63:0] hz;
    logic        e_slot_chk, e_cnt_chk;

    always_comb begin
        logic [3:0] n4;
        hz = '0;
        e_slot_chk = 1'b0;
        e_cnt_chk = 1'b0;
        for (int s = 0; s < 64; s++) begin
            n4 = chk_n[s*4 +: 4];
            if (chk_v[s]) begin
                if (s >= SB_NSLOTS) begin
                    e_slot_chk = 1'b1;
                end else begin
                    if (n4 > 4'd8) begin
                        e_cnt_chk = 1'b1;
                        n4 = 4'd8;
                    end
                    for (int k = 0; k < 8; k++)
                        if (4'(k) < n4 && |(pend_d[s*SB_NREGS +: SB_NREGS] & bit_of(chk_reg[(s*8+k)*16 +: RB])))
                            hz[s] = 1'b1;
                end
            end
        end
    end

    // ---- count port: pending bits of one slot in the next state
    logic [8:0] pc;
    logic       e_slot_cnt;

    always_comb begin
        pc = '0;
        e_slot_cnt = 1'b0;
        if (cnt_v) begin
            if (slot_ok(cnt_slot)) begin
                for (int b = 0; b < SB_NREGS; b++)
                    pc = pc + {8'd0, pend_d[cnt_slot*SB_NREGS + b]};
            end else begin
                e_slot_cnt = 1'b1;
            end
        end
    end

    assign hazard = hz;
    assign cnt = pc;
    assign ev_rel = n_rel;
    assign ev_rel_stale = n_stale;
    assign err = {e_cnt_upd | e_cnt_chk, e_slot_upd | e_slot_chk | e_slot_cnt};

    // ---- the registers
    always_ff @(posedge clk) begin
        if (rst) begin
            for (int s = 0; s < SB_NSLOTS; s++) begin
                pend[s*SB_NREGS +: SB_NREGS] <= '0;
                vwi[s*8 +: 8] <= 8'(s);
            end
        end else begin
            pend <= pend_d;
            vwi <= vwi_d;
        end
    end
endmodule
