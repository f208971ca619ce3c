// simt_fn.svh -- the helper functions of rtl/simt.sv (included inside module simt: they use
// its parameters NW, WB, DEPTH, EW, POP_T, POPC, NO_PC). Split from simt.sv to keep the file
// under 1,000 lines; not a module of its own.
    // ---------------------------------------------------------------- helpers
    // A 7-bit slot number (< NW) as an index into the per-warp arrays.
    // (only the low WB bits matter: callers pass slots < NW)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [WB-1:0] wi(input logic [6:0] slot);
        wi = slot[WB-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // Is a 7-bit slot number one of this instance's slots?
    function automatic logic in_range(input logic [6:0] slot);
        in_range = {1'b0, slot} < 8'(NW);
    endfunction

    // Ring index: x < 2 * DEPTH folded onto 0..DEPTH-1 (x % DEPTH).
    function automatic logic [4:0] ring(input logic [6:0] x);
        ring = (x >= 7'(DEPTH)) ? 5'(x - 7'(DEPTH)) : 5'(x);
    endfunction

    // Ring index of the top entry (cnt > 0; 0 when the ring is empty).
    function automatic logic [4:0] top_idx(input logic [4:0] b, input logic [5:0] c);
        top_idx = (c != 6'd0) ? ring(7'(b) + 7'(c) - 7'd1) : 5'd0;
    endfunction

    // Entry i of a ring (one comparator per entry: a read mux, no shifter).  Writes are
    // written out where they happen, one comparator and write enable per entry: a function
    // returning the whole ring made Yosys's proc_mux about 20 times slower.
    function automatic logic [EW-1:0] ring_rd(input logic [DEPTH*EW-1:0] rg,
                                              input logic [4:0] i);
        ring_rd = '0;
        for (int k = 0; k < DEPTH; k++)
            if (i == 5'(k))
                ring_rd = rg[k*EW +: EW];
    endfunction


    // DWS: at the regime level (holding, depth cnt + nspill == hdepth)
    function automatic logic at_lvl(input logic h, input logic [5:0] c, input logic [6:0] n,
                                    input logic [6:0] hd);
        at_lvl = h && (8'(c) + 8'(n) == 8'(hd));
    endfunction

    // Slot number as a one-hot NW-bit vector (0 when >= NW)
    function automatic logic [NW-1:0] sbit(input logic [6:0] slot);
        sbit = '0;
        for (int k = 0; k < NW; k++)
            if (slot == 7'(k))
                sbit[k] = 1'b1;
    endfunction

    function automatic logic [EW-1:0] ent(input logic [31:0] epc, input logic [31:0] erpc,
                                          input logic [31:0] emask, input logic etype);
        ent = {etype, emask, erpc, epc};
    endfunction

    // pop_one of simt.c (with settle, start_timer and finish): pop the top entry `top` into
    // the warp's registers, or start a fill, or finish the warp, or flag SIMT_E_STACK.
    // Returns {pc, rpc, mask, cnt, nspill, timer, tmr, popq, flq, fin, popped, err}.
    localparam int POPW = 32 * 3 + 6 + 7 + 8 + 6;
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [POPW-1:0] pop_one(
        input logic [31:0] ppc, input logic [31:0] prpc, input logic [31:0] pmask,
        input logic [31:0] palive, input logic [5:0] pcnt, input logic [6:0] pnsp,
        input logic [7:0] ptimer, input logic ptmr, input logic ppopq, input logic pflq,
        input logic pfin, input logic [EW-1:0] top,    // (its type bit is not needed)
        input logic phold, input logic [6:0] phd);
        logic popped, perr;
        popped = 1'b0;
        perr = 1'b0;
        if (pcnt != 6'd0) begin
            pcnt = pcnt - 6'd1;
            ppc = top[31:0];
            prpc = top[63:32];
            pmask = top[95:64] & palive;
            popped = 1'b1;
            ptimer = POP_T ? 8'(POPC) : ptimer;       // start_timer
            ptmr = ptmr | POP_T;
            if (at_lvl(phold, pcnt, pnsp, phd)) begin   // DWS: no pop; empty: park at rpc
                ppopq = 1'b0;
                if (pmask == 32'd0)
                    ppc = prpc;
            end else begin
                ppopq = (pmask == 32'd0) || (ppc == prpc);
            end
        end else if (pnsp != 7'd0) begin   // fill first; the pop is done when it returns
            pflq = 1'b1;
            ppopq = 1'b1;
        end else if (pmask == 32'd0) begin // finish: no live lane and nothing left
            prpc = NO_PC;
            pfin = 1'b1;
            ppopq = 1'b0;
        end else begin                     // pc == rpc with an empty stack
            perr = 1'b1;
            prpc = NO_PC;
            ppopq = 1'b0;
        end
        pop_one = {ppc, prpc, pmask, pcnt, pnsp, ptimer, ptmr, ppopq, pflq, pfin, popped, perr};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
