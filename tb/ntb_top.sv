// ntb_top.sv -- co-simulation top of rtl/ntb.sv (tb only, not synthesised): the configuration's
// unit (u0, parameters from gpusim_params.vh) beside variants that cover every lane policy at
// latency 1 (replies combinational) and at latency > 1 (a one-stage and a two-stage ring):
// u1 slowest/1, u2 lowest/3, u3 slowest/2, u4 same/1, u5 lowest/1; and the configuration's
// unit under the two other lane policies, u6 slowest and u7 lowest at the configuration's
// latency (a recording made with --set vtw_lane=slowest or lowest is that unit's: issue 38);
// all hold the configuration's TB slots and contexts and are driven by the same inputs.
// tb/ntb_cosim.cpp holds the same list as C cfgs and checks it against the parameters that
// were elaborated.
// Outputs: instance k's field at [k*W +: W].
module ntb_top (
    input  logic               clk,
    input  logic               rst,
    input  logic [3:0]         req_v,
    input  logic [3:0]         req_op,
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
    input  logic [256*32-1:0]  prog,
    output logic [8*3-1:0]       gtake,
    output logic [8*4-1:0]       rep_v,
    output logic [8*32-1:0]      rep_ctx,
    output logic [8*64-1:0]      rep_reg,
    output logic [8*128-1:0]     rep_mask,
    output logic [8*128-1:0]     rep_val,
    output logic [8*4-1:0]       rep_addlane
);
    ntb u0 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[0 +: 3]), .rep_v(rep_v[0 +: 4]), .rep_ctx(rep_ctx[0 +: 32]),
        .rep_reg(rep_reg[0 +: 64]), .rep_mask(rep_mask[0 +: 128]),
        .rep_val(rep_val[0 +: 128]), .rep_addlane(rep_addlane[0 +: 4]));
    ntb #(.P_LANE(1), .P_LAT(1)) u1 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[3 +: 3]), .rep_v(rep_v[4 +: 4]), .rep_ctx(rep_ctx[32 +: 32]),
        .rep_reg(rep_reg[64 +: 64]), .rep_mask(rep_mask[128 +: 128]),
        .rep_val(rep_val[128 +: 128]), .rep_addlane(rep_addlane[4 +: 4]));
    ntb #(.P_LANE(2), .P_LAT(3)) u2 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[6 +: 3]), .rep_v(rep_v[8 +: 4]), .rep_ctx(rep_ctx[64 +: 32]),
        .rep_reg(rep_reg[128 +: 64]), .rep_mask(rep_mask[256 +: 128]),
        .rep_val(rep_val[256 +: 128]), .rep_addlane(rep_addlane[8 +: 4]));
    ntb #(.P_LANE(1), .P_LAT(2)) u3 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[9 +: 3]), .rep_v(rep_v[12 +: 4]), .rep_ctx(rep_ctx[96 +: 32]),
        .rep_reg(rep_reg[192 +: 64]), .rep_mask(rep_mask[384 +: 128]),
        .rep_val(rep_val[384 +: 128]), .rep_addlane(rep_addlane[12 +: 4]));
    ntb #(.P_LANE(0), .P_LAT(1)) u4 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[12 +: 3]), .rep_v(rep_v[16 +: 4]), .rep_ctx(rep_ctx[128 +: 32]),
        .rep_reg(rep_reg[256 +: 64]), .rep_mask(rep_mask[512 +: 128]),
        .rep_val(rep_val[512 +: 128]), .rep_addlane(rep_addlane[16 +: 4]));
    ntb #(.P_LANE(2), .P_LAT(1)) u5 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[15 +: 3]), .rep_v(rep_v[20 +: 4]), .rep_ctx(rep_ctx[160 +: 32]),
        .rep_reg(rep_reg[320 +: 64]), .rep_mask(rep_mask[640 +: 128]),
        .rep_val(rep_val[640 +: 128]), .rep_addlane(rep_addlane[20 +: 4]));
    ntb #(.P_LANE(1)) u6 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[18 +: 3]), .rep_v(rep_v[24 +: 4]), .rep_ctx(rep_ctx[192 +: 32]),
        .rep_reg(rep_reg[384 +: 64]), .rep_mask(rep_mask[768 +: 128]),
        .rep_val(rep_val[768 +: 128]), .rep_addlane(rep_addlane[24 +: 4]));
    ntb #(.P_LANE(2)) u7 (.clk, .rst, .req_v, .req_op, .req_cta, .req_ctx, .req_warp, .req_reg,
        .req_mask, .launch_v, .launch_cta, .launch_base, .nw, .nfull, .gnext, .prog,
        .gtake(gtake[21 +: 3]), .rep_v(rep_v[28 +: 4]), .rep_ctx(rep_ctx[224 +: 32]),
        .rep_reg(rep_reg[448 +: 64]), .rep_mask(rep_mask[896 +: 128]),
        .rep_val(rep_val[896 +: 128]), .rep_addlane(rep_addlane[28 +: 4]));
endmodule
