// sb_top.sv -- co-simulation top of rtl/sb.sv (tb only, not synthesised): the configuration's
// scoreboard (u0, parameters from gpusim_params.vh) beside variants that cover every slot
// (128: every 7-bit slot index legal), folding (64, 2 and 1 pending bits per slot) and tiny
// slot counts, all driven by the same inputs.  tb/sb_cosim.cpp holds the same list as C cfgs
// and checks it against the parameters Verilator elaborated.  Outputs: instance k's field at
// [k*W +: W].
module sb_top (
    input  logic                clk,
    input  logic                rst,
    input  logic [127:0]        setvwi,
    input  logic [128*8-1:0]    setvwi_vwi,
    input  logic [7:0]          rel_v,
    input  logic [8*7-1:0]      rel_slot,
    input  logic [8*8-1:0]      rel_vwi,
    input  logic [8*16-1:0]     rel_reg,
    input  logic [3:0]          res_v,
    input  logic [4*7-1:0]      res_slot,
    input  logic [4*3-1:0]      res_n,
    input  logic [4*4*16-1:0]   res_reg,
    input  logic [127:0]        chk_v,
    input  logic [128*4-1:0]    chk_n,
    input  logic [128*8*16-1:0] chk_reg,
    input  logic                cnt_v,
    input  logic [6:0]          cnt_slot,
    output logic [4*128-1:0]    hazard,
    output logic [4*9-1:0]      cnt,
    output logic [4*4-1:0]      ev_rel,
    output logic [4*4-1:0]      ev_rel_stale,
    output logic [4*2-1:0]      err
);
    sb                                 u0 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slot,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .cnt_v, .cnt_slot, .hazard(hazard[0 +: 128]), .cnt(cnt[0 +: 9]),
        .ev_rel(ev_rel[0 +: 4]), .ev_rel_stale(ev_rel_stale[0 +: 4]), .err(err[0 +: 2]));
    sb #(.P_NSLOTS(128), .P_NREGS(64)) u1 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slot,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .cnt_v, .cnt_slot, .hazard(hazard[128 +: 128]), .cnt(cnt[9 +: 9]),
        .ev_rel(ev_rel[4 +: 4]), .ev_rel_stale(ev_rel_stale[4 +: 4]), .err(err[2 +: 2]));
    sb #(.P_NSLOTS(5), .P_NREGS(2))    u2 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slot,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .cnt_v, .cnt_slot, .hazard(hazard[256 +: 128]), .cnt(cnt[18 +: 9]),
        .ev_rel(ev_rel[8 +: 4]), .ev_rel_stale(ev_rel_stale[8 +: 4]), .err(err[4 +: 2]));
    sb #(.P_NSLOTS(1), .P_NREGS(1))    u3 (.clk, .rst, .setvwi, .setvwi_vwi, .rel_v, .rel_slot,
        .rel_vwi, .rel_reg, .res_v, .res_slot, .res_n, .res_reg, .chk_v, .chk_n, .chk_reg,
        .cnt_v, .cnt_slot, .hazard(hazard[384 +: 128]), .cnt(cnt[27 +: 9]),
        .ev_rel(ev_rel[12 +: 4]), .ev_rel_stale(ev_rel_stale[12 +: 4]), .err(err[6 +: 2]));
endmodule
