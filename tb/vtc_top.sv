// vtc_top.sv -- co-simulation top of rtl/vtc.sv (tb only, not synthesised): the configuration's
// controller (u0, VTC_NCTAS of gpusim_params.vh: 64 on gtx480) beside two small tables, u1 with
// 8 entries (Fermi's CTA slots) and u2 with 5 (a FIFO that wraps at a non-power of two).  Each
// instance has its own inputs (tb/vtc_cosim.cpp drives each with its own stimulus, within its
// table): instance k's field at [k*W +: W] of every port, inputs and outputs alike.
// tb/vtc_cosim.cpp holds the same list of table sizes and checks it against the elaborated
// parameters.
module vtc_top (
    input  logic               clk,
    input  logic               rst,
    input  logic [3*64-1:0]     launch,
    input  logic [3*64-1:0]     launch_act,
    input  logic [3*64-1:0]     done,
    input  logic [3*6-1:0]      nw,
    input  logic [3*12-1:0]     beats,
    input  logic [3*1-1:0]      room,
    input  logic [3*384-1:0]    nstall,
    input  logic [3*384-1:0]    nlive,
    input  logic [3*1-1:0]      pend_v,
    input  logic [3*9-1:0]      pend_n,
    input  logic [3*8-1:0]      rel_v,
    input  logic [3*48-1:0]     rel_cta,
    input  logic [3*1-1:0]      grant,
    output logic [3*1-1:0]      fence_v,
    output logic [3*6-1:0]      fence_cta,
    output logic [3*1-1:0]      save_v,
    output logic [3*5-1:0]      save_w,
    output logic [3*1-1:0]      rest_v,
    output logic [3*5-1:0]      rest_w,
    output logic [3*1-1:0]      rest_fresh,
    output logic [3*6-1:0]      rest_cta,
    output logic [3*1-1:0]      ldq_v,
    output logic [3*6-1:0]      ldq_cta,
    output logic [3*1-1:0]      ctx_req,
    output logic [3*7-1:0]      rdy_n,
    output logic [3*7-1:0]      nact,
    output logic [3*7-1:0]      ninact,
    output logic [3*1-1:0]      ev_out,
    output logic [3*1-1:0]      ev_in,
    output logic [3*1-1:0]      ev_fill,
    output logic [3*1-1:0]      ev_busy,
    output logic [3*1-1:0]      ev_wait,
    output logic [3*6-1:0]      err
);
    vtc u0 (
        .clk, .rst, .launch(launch[0 +: 64]), .launch_act(launch_act[0 +: 64]),
        .done(done[0 +: 64]), .nw(nw[0 +: 6]), .beats(beats[0 +: 12]), .room(room[0 +: 1]),
        .nstall(nstall[0 +: 384]), .nlive(nlive[0 +: 384]), .pend_v(pend_v[0 +: 1]),
        .pend_n(pend_n[0 +: 9]), .rel_v(rel_v[0 +: 8]), .rel_cta(rel_cta[0 +: 48]),
        .grant(grant[0 +: 1]), .fence_v(fence_v[0 +: 1]), .fence_cta(fence_cta[0 +: 6]),
        .save_v(save_v[0 +: 1]), .save_w(save_w[0 +: 5]), .rest_v(rest_v[0 +: 1]),
        .rest_w(rest_w[0 +: 5]), .rest_fresh(rest_fresh[0 +: 1]), .rest_cta(rest_cta[0 +: 6]), .ldq_v(ldq_v[0 +: 1]),
        .ldq_cta(ldq_cta[0 +: 6]), .ctx_req(ctx_req[0 +: 1]), .rdy_n(rdy_n[0 +: 7]),
        .nact(nact[0 +: 7]), .ninact(ninact[0 +: 7]), .ev_out(ev_out[0 +: 1]),
        .ev_in(ev_in[0 +: 1]), .ev_fill(ev_fill[0 +: 1]), .ev_busy(ev_busy[0 +: 1]),
        .ev_wait(ev_wait[0 +: 1]), .err(err[0 +: 6]));
    vtc #(.P_NCTAS(8)) u1 (
        .clk, .rst, .launch(launch[64 +: 64]), .launch_act(launch_act[64 +: 64]),
        .done(done[64 +: 64]), .nw(nw[6 +: 6]), .beats(beats[12 +: 12]), .room(room[1 +: 1]),
        .nstall(nstall[384 +: 384]), .nlive(nlive[384 +: 384]), .pend_v(pend_v[1 +: 1]),
        .pend_n(pend_n[9 +: 9]), .rel_v(rel_v[8 +: 8]), .rel_cta(rel_cta[48 +: 48]),
        .grant(grant[1 +: 1]), .fence_v(fence_v[1 +: 1]), .fence_cta(fence_cta[6 +: 6]),
        .save_v(save_v[1 +: 1]), .save_w(save_w[5 +: 5]), .rest_v(rest_v[1 +: 1]),
        .rest_w(rest_w[5 +: 5]), .rest_fresh(rest_fresh[1 +: 1]), .rest_cta(rest_cta[6 +: 6]), .ldq_v(ldq_v[1 +: 1]),
        .ldq_cta(ldq_cta[6 +: 6]), .ctx_req(ctx_req[1 +: 1]), .rdy_n(rdy_n[7 +: 7]),
        .nact(nact[7 +: 7]), .ninact(ninact[7 +: 7]), .ev_out(ev_out[1 +: 1]),
        .ev_in(ev_in[1 +: 1]), .ev_fill(ev_fill[1 +: 1]), .ev_busy(ev_busy[1 +: 1]),
        .ev_wait(ev_wait[1 +: 1]), .err(err[6 +: 6]));
    vtc #(.P_NCTAS(5)) u2 (
        .clk, .rst, .launch(launch[128 +: 64]), .launch_act(launch_act[128 +: 64]),
        .done(done[128 +: 64]), .nw(nw[12 +: 6]), .beats(beats[24 +: 12]), .room(room[2 +: 1]),
        .nstall(nstall[768 +: 384]), .nlive(nlive[768 +: 384]), .pend_v(pend_v[2 +: 1]),
        .pend_n(pend_n[18 +: 9]), .rel_v(rel_v[16 +: 8]), .rel_cta(rel_cta[96 +: 48]),
        .grant(grant[2 +: 1]), .fence_v(fence_v[2 +: 1]), .fence_cta(fence_cta[12 +: 6]),
        .save_v(save_v[2 +: 1]), .save_w(save_w[10 +: 5]), .rest_v(rest_v[2 +: 1]),
        .rest_w(rest_w[10 +: 5]), .rest_fresh(rest_fresh[2 +: 1]), .rest_cta(rest_cta[12 +: 6]), .ldq_v(ldq_v[2 +: 1]),
        .ldq_cta(ldq_cta[12 +: 6]), .ctx_req(ctx_req[2 +: 1]), .rdy_n(rdy_n[14 +: 7]),
        .nact(nact[14 +: 7]), .ninact(ninact[14 +: 7]), .ev_out(ev_out[2 +: 1]),
        .ev_in(ev_in[2 +: 1]), .ev_fill(ev_fill[2 +: 1]), .ev_busy(ev_busy[2 +: 1]),
        .ev_wait(ev_wait[2 +: 1]), .err(err[12 +: 6]));
endmodule
