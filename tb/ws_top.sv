// ws_top.sv -- co-simulation top of rtl/ws.sv (tb only, not synthesised): the configuration's
// scheduler (u0, parameters from gpusim_params.vh) beside variants that cover every policy and
// the edge widths, all driven by the same inputs.  tb/ws_cosim.cpp holds the same list as C
// cfgs and checks it against the parameters Verilator elaborated.
module ws_top (
    input  logic        clk,
    input  logic        rst,
    input  logic [31:0] valid,
    input  logic [31:0] ready,
    input  logic [31:0] fresh,
    input  logic [31:0] lstall,
    output logic [5:0]  issue_v,       // bit k: instance uk
    output logic [29:0] issue_slot     // [5k+4:5k]: instance uk
);
    ws                                                  u0 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[0]), .issue_slot(issue_slot[4:0]));
    ws #(.P_POLICY(0), .P_NSLOTS(32), .P_ACTIVE(1))     u1 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[1]), .issue_slot(issue_slot[9:5]));
    ws #(.P_POLICY(1), .P_NSLOTS(32), .P_ACTIVE(1))     u2 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[2]), .issue_slot(issue_slot[14:10]));
    ws #(.P_POLICY(2), .P_NSLOTS(24), .P_ACTIVE(8))     u3 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[3]), .issue_slot(issue_slot[19:15]));
    ws #(.P_POLICY(2), .P_NSLOTS(5), .P_ACTIVE(2))      u4 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[4]), .issue_slot(issue_slot[24:20]));
    ws #(.P_POLICY(2), .P_NSLOTS(1), .P_ACTIVE(1))      u5 (.clk, .rst, .valid, .ready, .fresh,
        .lstall, .issue_v(issue_v[5]), .issue_slot(issue_slot[29:25]));
endmodule
