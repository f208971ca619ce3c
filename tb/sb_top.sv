// sb_top.sv -- co-simulation top of rtl/sb.sv (tb only, not synthesised): the configuration's
// scoreboard (u0, parameters from gpusim_params.vh) beside variants that cover every slot
// (128: every 7-bit slot index legal), folding (64, 2 and 1 pending bits per slot) and tiny
// slot counts, with DWS built in (the `any` output), all driven by the same inputs.  tb/sb_cosim.cpp holds the same list as C cfgs
// and checks it against the parameters Verilator elaborated.  Outputs: instance k's field at
// [k*W +: W].
module sb_top (
    input  logic                clk,
    input  logic                rst,
    input  logic [127:0]        setvwi,
    input  logic [128*8-1:0]    setvwi_vwi,
    input  logic [7:0]          rel_v,
    input  logic [8*128-1:0]    rel_slots,
    input  logic [8*8-1:0]      rel_vwi,
    input  logic [8*16-1:0]     rel_reg,
    input  logic [3:0]          res_v,
    input  logic [4*7-1:0]      res_slot,
    input  logic [4*3-1:0]      res_n,
    input  logic [4*4*16-1:0]   res_reg,
    input  logic [127:0]        chk_v,
    input  logic [128*4-1:0]    chk_n,
    input  logic [128*8*16-1:0] chk_reg,
    input  logic                copy_v,
    input  logic [6:0]          copy_src,
    input  logic [6:0]          copy_dst,
    input  logic [2:0]          copy_n,
    input  logic [4*16-1:0]     copy_reg,
    input  logic                cnt_v,
    input  logic [6:0]          cnt_slot,
    input  logic                merge_v,
    input  logic [6:0]          merge_dst,
    input  logic [6:0]          merge_src,
    input  logic                mchk_v,
    input  logic [6:0]          mchk_a,
    input  logic [6:0]          mchk_b,
    output logic [4*128-1:0]    hazard,
    output logic [4*128-1:0]    any,
    output logic [4*9-1:0]      cnt,
    output logic [3:0]          mok,
    output logic [4*4-1:0]      ev_rel,
    output logic [4*4-1:0]      ev_rel_stale,
    output logic [4*3-1:0]      err
);
    sb                                 u0 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slots,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .copy_v, .copy_src, .copy_dst, .copy_n, .copy_reg, .cnt_v, .cnt_slot, .merge_v,
        .merge_dst, .merge_src, .mchk_v, .mchk_a, .mchk_b, .hazard(hazard[0 +: 128]),
        .any(any[0 +: 128]), .cnt(cnt[0 +: 9]), .mok(mok[0]),
        .ev_rel(ev_rel[0 +: 4]), .ev_rel_stale(ev_rel_stale[0 +: 4]), .err(err[0 +: 3]));
    sb #(.P_NSLOTS(128), .P_NREGS(64), .P_DWS(1)) u1 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slots,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .copy_v, .copy_src, .copy_dst, .copy_n, .copy_reg, .cnt_v, .cnt_slot, .merge_v,
        .merge_dst, .merge_src, .mchk_v, .mchk_a, .mchk_b, .hazard(hazard[128 +: 128]),
        .any(any[128 +: 128]), .cnt(cnt[9 +: 9]), .mok(mok[1]),
        .ev_rel(ev_rel[4 +: 4]), .ev_rel_stale(ev_rel_stale[4 +: 4]), .err(err[3 +: 3]));
    sb #(.P_NSLOTS(5), .P_NREGS(2), .P_DWS(1))    u2 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slots,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .copy_v, .copy_src, .copy_dst, .copy_n, .copy_reg, .cnt_v, .cnt_slot, .merge_v,
        .merge_dst, .merge_src, .mchk_v, .mchk_a, .mchk_b, .hazard(hazard[256 +: 128]),
        .any(any[256 +: 128]), .cnt(cnt[18 +: 9]), .mok(mok[2]),
        .ev_rel(ev_rel[8 +: 4]), .ev_rel_stale(ev_rel_stale[8 +: 4]), .err(err[6 +: 3]));
    sb #(.P_NSLOTS(1), .P_NREGS(1), .P_DWS(1))    u3 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slots,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .copy_v, .copy_src, .copy_dst, .copy_n, .copy_reg, .cnt_v, .cnt_slot, .merge_v,
        .merge_dst, .merge_src, .mchk_v, .mchk_a, .mchk_b, .hazard(hazard[384 +: 128]),
        .any(any[384 +: 128]), .cnt(cnt[27 +: 9]), .mok(mok[3]),
        .ev_rel(ev_rel[12 +: 4]), .ev_rel_stale(ev_rel_stale[12 +: 4]), .err(err[9 +: 3]));
endmodule
