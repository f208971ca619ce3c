// ws_top.sv -- co-simulation top of rtl/ws.sv (tb only, not synthesised): the configuration's
// scheduler (u0, parameters from gpusim_params.vh) beside variants that cover every policy
// (LRR, GTO, TWOLEVEL, PRIO) and the edge widths (1, 5, 24, 33, 70 and 128 slots), all driven
// by the same inputs.  tb/ws_cosim.cpp holds the same list as C cfgs and checks it against
// the parameters Verilator elaborated.
module ws_top (
    input  logic               clk,
    input  logic               rst,
    input  logic [127:0]       valid,
    input  logic [127:0]       ready,
    input  logic [127:0]       fresh,
    input  logic [127:0]       lstall,
    input  logic [128*16-1:0]  prio,
    output logic [11:0]        issue_v,       // bit k: instance uk
    output logic [83:0]        issue_slot     // [7k+6:7k]: instance uk
);
    ws                                                 u0 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[0]), .issue_slot(issue_slot[0 +: 7]));
    ws #(.P_POLICY(0), .P_NSLOTS(128), .P_ACTIVE(1))   u1 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[1]), .issue_slot(issue_slot[7 +: 7]));
    ws #(.P_POLICY(1), .P_NSLOTS(128), .P_ACTIVE(1))   u2 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[2]), .issue_slot(issue_slot[14 +: 7]));
    ws #(.P_POLICY(2), .P_NSLOTS(24), .P_ACTIVE(8))    u3 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[3]), .issue_slot(issue_slot[21 +: 7]));
    ws #(.P_POLICY(2), .P_NSLOTS(5), .P_ACTIVE(2))     u4 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[4]), .issue_slot(issue_slot[28 +: 7]));
    ws #(.P_POLICY(2), .P_NSLOTS(1), .P_ACTIVE(1))     u5 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[5]), .issue_slot(issue_slot[35 +: 7]));
    ws #(.P_POLICY(3), .P_NSLOTS(24), .P_ACTIVE(1))    u6 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[6]), .issue_slot(issue_slot[42 +: 7]));
    ws #(.P_POLICY(3), .P_NSLOTS(128), .P_ACTIVE(1))   u7 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[7]), .issue_slot(issue_slot[49 +: 7]));
    ws #(.P_POLICY(3), .P_NSLOTS(5), .P_ACTIVE(1))     u8 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[8]), .issue_slot(issue_slot[56 +: 7]));
    ws #(.P_POLICY(1), .P_NSLOTS(33), .P_ACTIVE(1))    u9 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[9]), .issue_slot(issue_slot[63 +: 7]));
    ws #(.P_POLICY(2), .P_NSLOTS(70), .P_ACTIVE(12))   u10 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[10]), .issue_slot(issue_slot[70 +: 7]));
    ws #(.P_POLICY(3), .P_NSLOTS(1), .P_ACTIVE(1))     u11 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .prio, .issue_v(issue_v[11]), .issue_slot(issue_slot[77 +: 7]));
endmodule
