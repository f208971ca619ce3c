// simt_top.sv -- co-simulation top of rtl/simt.sv (tb only, not synthesised): the
// configuration's SIMT stack (u0, parameters from gpusim_params.vh) beside two small stacks
// that spill, fill and wait all the time (u1: IPDOM, 8 warps, depth 4; u2: TOKEN, 127 warps:
// slots up to 126, and 127 as the one beyond nwarps; depth 3, a ring that is not a power of
// two; both with the DWS ports on: warp splits, merges, releases), each with its own ports:
// every port of module simt is here K = 3 times as wide,
// instance k on slice k (e.g. upd_v[4k +: 4], launch_mask[4096k +: 4096], pc[4096k +: 4096]).
// tb/simt_cosim.cpp builds the C cfgs of u1 and u2 from the parameters Verilator elaborated
// and drives each instance with its own stimulus (recordings drive u0; u1 and u2 then idle).
// Keep every instance at 6 warps or more: Verilator 5.006 unrolls the warp loop of a smaller
// one and then counts its line coverage points with the loop's last values (wrong figures;
// the simulation is right).
module simt_top #(
    parameter int K = 3
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [K*4-1:0]               upd_v,
    input  logic [K*28-1:0]              upd_slot,
    input  logic [K*8-1:0]               upd_kind,
    input  logic [K*128-1:0]             upd_taken,
    input  logic [K*128-1:0]             upd_target,
    input  logic [K*128-1:0]             upd_reconv,
    input  logic [K*128-1:0]             upd_exited,
    input  logic [K*4-1:0]               upd_split_v,
    input  logic [K*28-1:0]              upd_split_slot,
    input  logic [K*32-1:0]              upd_split_img,
    input  logic [K*128-1:0]             launch,
    input  logic [K*4096-1:0]            launch_mask,
    input  logic [K*1024-1:0]            launch_vwi,
    input  logic [K-1:0]                 save_v,
    input  logic [K*7-1:0]               save_slot,
    input  logic [K-1:0]                 restore_v,
    input  logic [K*7-1:0]               restore_slot,
    input  logic [K*32-1:0]              restore_pc,
    input  logic [K*32-1:0]              restore_mask,
    input  logic [K*32-1:0]              restore_rpc,
    input  logic [K*32-1:0]              restore_alive,
    input  logic [K*8-1:0]               restore_vwi,
    input  logic [K-1:0]                 restore_fin,
    input  logic [K*6-1:0]               restore_cnt,
    input  logic [K*7-1:0]               restore_nspill,
    input  logic [K-1:0]                 restore_hold,
    input  logic [K*7-1:0]               restore_hdepth,
    input  logic [K*3104-1:0]            restore_ent,
    input  logic [K-1:0]                 req_ready,
    input  logic [K-1:0]                 fill_v,
    input  logic [K*7-1:0]               fill_slot,
    input  logic [K*1552-1:0]            fill_ent,
    input  logic [K-1:0]                 split_v,
    input  logic [K*7-1:0]               split_src,
    input  logic [K*7-1:0]               split_dst,
    input  logic [K*32-1:0]              split_lanes,
    input  logic [K*8-1:0]               split_img,
    input  logic [K-1:0]                 merge_v,
    input  logic [K*7-1:0]               merge_dst,
    input  logic [K*7-1:0]               merge_src,
    input  logic [K-1:0]                 rel_v,
    input  logic [K*7-1:0]               rel_slot,
    output logic [K*4096-1:0]            pc,
    output logic [K*4096-1:0]            mask,
    output logic [K*128-1:0]             busy,
    output logic [K*128-1:0]             fin,
    output logic [K*128-1:0]             redirect,
    output logic [K*128-1:0]             lvl,
    output logic [K*128-1:0]             arr,
    output logic [K-1:0]                 req_v,
    output logic [K*64-1:0]              req_addr,
    output logic [K*32-1:0]              req_bytes,
    output logic [K*8-1:0]               req_kind,
    output logic [K*8-1:0]               req_sm,
    output logic [K*8-1:0]               req_warp,
    output logic [K*8-1:0]               req_pad,
    output logic [K*32-1:0]              req_tag,
    output logic [K*64-1:0]              req_t_issue,
    output logic [K*4-1:0]               spill_v,
    output logic [K*32-1:0]              spill_vwi,
    output logic [K*28-1:0]              spill_idx,
    output logic [K*6208-1:0]            spill_ent,
    output logic [K-1:0]                 saved_v,
    output logic [K*32-1:0]              saved_pc,
    output logic [K*32-1:0]              saved_mask,
    output logic [K*32-1:0]              saved_rpc,
    output logic [K*32-1:0]              saved_alive,
    output logic [K*8-1:0]               saved_vwi,
    output logic [K-1:0]                 saved_fin,
    output logic [K*6-1:0]               saved_cnt,
    output logic [K*7-1:0]               saved_nspill,
    output logic [K-1:0]                 saved_hold,
    output logic [K*7-1:0]               saved_hdepth,
    output logic [K*3104-1:0]            saved_ent,
    output logic [K*4-1:0]               ev_push,
    output logic [K*8-1:0]               ev_pop,
    output logic [K*3-1:0]               ev_spill,
    output logic [K*2-1:0]               ev_fill,
    output logic [K*8-1:0]               ev_depth,
    output logic [K*16-1:0]              err,
    output logic [K*7-1:0]               err_slot
);
`define SIMT_TOP_PORTS(k) \
        .clk, .rst, .upd_v(upd_v[k*4 +: 4]), .upd_slot(upd_slot[k*28 +: 28]), \
        .upd_kind(upd_kind[k*8 +: 8]), .upd_taken(upd_taken[k*128 +: 128]), \
        .upd_target(upd_target[k*128 +: 128]), .upd_reconv(upd_reconv[k*128 +: 128]), \
        .upd_exited(upd_exited[k*128 +: 128]), .launch(launch[k*128 +: 128]), \
        .upd_split_v(upd_split_v[k*4 +: 4]), .upd_split_slot(upd_split_slot[k*28 +: 28]), \
        .upd_split_img(upd_split_img[k*32 +: 32]), \
        .restore_hold(restore_hold[k]), .restore_hdepth(restore_hdepth[k*7 +: 7]), \
        .split_v(split_v[k]), .split_src(split_src[k*7 +: 7]), .split_dst(split_dst[k*7 +: 7]), \
        .split_lanes(split_lanes[k*32 +: 32]), .split_img(split_img[k*8 +: 8]), \
        .merge_v(merge_v[k]), .merge_dst(merge_dst[k*7 +: 7]), .merge_src(merge_src[k*7 +: 7]), \
        .rel_v(rel_v[k]), .rel_slot(rel_slot[k*7 +: 7]), \
        .lvl(lvl[k*128 +: 128]), .arr(arr[k*128 +: 128]), \
        .saved_hold(saved_hold[k]), .saved_hdepth(saved_hdepth[k*7 +: 7]), \
        .launch_mask(launch_mask[k*4096 +: 4096]), .launch_vwi(launch_vwi[k*1024 +: 1024]), \
        .save_v(save_v[k]), .save_slot(save_slot[k*7 +: 7]), .restore_v(restore_v[k]), \
        .restore_slot(restore_slot[k*7 +: 7]), .restore_pc(restore_pc[k*32 +: 32]), \
        .restore_mask(restore_mask[k*32 +: 32]), .restore_rpc(restore_rpc[k*32 +: 32]), \
        .restore_alive(restore_alive[k*32 +: 32]), .restore_vwi(restore_vwi[k*8 +: 8]), \
        .restore_fin(restore_fin[k]), .restore_cnt(restore_cnt[k*6 +: 6]), \
        .restore_nspill(restore_nspill[k*7 +: 7]), \
        .restore_ent(restore_ent[k*3104 +: 3104]), .req_ready(req_ready[k]), \
        .fill_v(fill_v[k]), .fill_slot(fill_slot[k*7 +: 7]), \
        .fill_ent(fill_ent[k*1552 +: 1552]), .pc(pc[k*4096 +: 4096]), \
        .mask(mask[k*4096 +: 4096]), .busy(busy[k*128 +: 128]), .fin(fin[k*128 +: 128]), \
        .redirect(redirect[k*128 +: 128]), .req_v(req_v[k]), \
        .req_addr(req_addr[k*64 +: 64]), .req_bytes(req_bytes[k*32 +: 32]), \
        .req_kind(req_kind[k*8 +: 8]), .req_sm(req_sm[k*8 +: 8]), \
        .req_warp(req_warp[k*8 +: 8]), .req_pad(req_pad[k*8 +: 8]), \
        .req_tag(req_tag[k*32 +: 32]), .req_t_issue(req_t_issue[k*64 +: 64]), \
        .spill_v(spill_v[k*4 +: 4]), .spill_vwi(spill_vwi[k*32 +: 32]), \
        .spill_idx(spill_idx[k*28 +: 28]), .spill_ent(spill_ent[k*6208 +: 6208]), \
        .saved_v(saved_v[k]), .saved_pc(saved_pc[k*32 +: 32]), \
        .saved_mask(saved_mask[k*32 +: 32]), .saved_rpc(saved_rpc[k*32 +: 32]), \
        .saved_alive(saved_alive[k*32 +: 32]), .saved_vwi(saved_vwi[k*8 +: 8]), \
        .saved_fin(saved_fin[k]), .saved_cnt(saved_cnt[k*6 +: 6]), \
        .saved_nspill(saved_nspill[k*7 +: 7]), .saved_ent(saved_ent[k*3104 +: 3104]), \
        .ev_push(ev_push[k*4 +: 4]), .ev_pop(ev_pop[k*8 +: 8]), \
        .ev_spill(ev_spill[k*3 +: 3]), .ev_fill(ev_fill[k*2 +: 2]), \
        .ev_depth(ev_depth[k*8 +: 8]), .err(err[k*16 +: 16]), .err_slot(err_slot[k*7 +: 7])

    simt u0 (`SIMT_TOP_PORTS(0));
    simt #(.P_NWARPS(8), .P_POLICY(1), .P_DEPTH(4), .P_CHUNK(2), .P_POP_CYCLES(2),
           .P_FILL_CYCLES(3), .P_DWS(1)) u1 (`SIMT_TOP_PORTS(1));
    simt #(.P_NWARPS(127), .P_POLICY(0), .P_DEPTH(3), .P_CHUNK(2), .P_POP_CYCLES(1),
           .P_FILL_CYCLES(1), .P_DWS(1)) u2 (`SIMT_TOP_PORTS(2));
`undef SIMT_TOP_PORTS
endmodule
