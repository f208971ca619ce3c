// pas_top.sv -- co-simulation top of rtl/pas.sv (tb only, not synthesised): the
// configuration's block (u0, parameters from gpusim_params.vh) beside a large variant (130
// contexts: masks across 64-bit words, 64 CTA slots: every TB-rank bit, 4 schedulers) and a
// tiny one (5 contexts, 2 CTA slots, 1 scheduler), all driven by the same inputs.
// tb/pas_cosim.cpp holds the same list as C cfgs and checks it against the elaborated
// parameters.
module pas_top (
    input  logic                clk,
    input  logic                rst,
    input  logic [3:0]          issued_v,
    input  logic [4*8-1:0]      issued_ctx,
    input  logic [3:0]          issued_ntb,
    input  logic [63:0]         cta_launch,
    input  logic [256*8-1:0]    ctx_cta,
    input  logic [64*6-1:0]     cta_nw,
    input  logic [255:0]        ctx_valid,
    input  logic [256*32-1:0]   insns,
    input  logic [64*32-1:0]    prog,
    input  logic [255:0]        at_bar,
    input  logic [64*6-1:0]     nbar,
    input  logic                slow,
    output logic [256*16-1:0]   key0, key1, key2,     // instance uk's keys
    output logic [255:0]        ahead0, ahead1, ahead2
);
    pas                                                    u0 (.clk, .rst, .issued_v,
        .issued_ctx, .issued_ntb, .cta_launch, .ctx_cta, .cta_nw, .ctx_valid, .insns, .prog,
        .at_bar, .nbar, .slow, .key(key0), .ahead(ahead0));
    pas #(.P_NCTX(130), .P_NCTAS(64), .P_NSCHED(4))        u1 (.clk, .rst, .issued_v,
        .issued_ctx, .issued_ntb, .cta_launch, .ctx_cta, .cta_nw, .ctx_valid, .insns, .prog,
        .at_bar, .nbar, .slow, .key(key1), .ahead(ahead1));
    pas #(.P_NCTX(5), .P_NCTAS(2), .P_NSCHED(1))           u2 (.clk, .rst, .issued_v,
        .issued_ctx, .issued_ntb, .cta_launch, .ctx_cta, .cta_nw, .ctx_valid, .insns, .prog,
        .at_bar, .nbar, .slow, .key(key2), .ahead(ahead2));
endmodule
