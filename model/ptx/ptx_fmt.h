/*
 * ptx_fmt.h -- the instruction formatter that the disassembler (ptx_insn_format, ptx_util.c)
 * and the printer (ptx_print.c) share (private to model/ptx).
 *
 * Not a hardware block.  ptx_fmt_insn writes one prog instruction -- guard, dotted opcode,
 * operands -- into a bounded buffer.  Without a namer it writes the dump form (registers by
 * name or %R<n>, folded addresses as "space:0x..", branch targets as "@pc"); the printer
 * passes a namer that writes symbols ("smem+16") and labels, which is valid PTX.
 */
#ifndef PTX_FMT_H
#define PTX_FMT_H
#include "ptx.h"

struct ptx_sbuf {                /* bounded output buffer; `full` once something did not fit */
    char  *p;
    size_t len, pos;
    int    full;
};

void ptx_sb_add(struct ptx_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct ptx_namer {               /* names for what the linker folded into numbers */
    void *ctx;
    void (*reg)(void *ctx, struct ptx_sbuf *b, int32_t r);
    void (*addr)(void *ctx, struct ptx_sbuf *b, uint8_t space, int64_t addr); /* [..] and mov/cvta */
    void (*label)(void *ctx, struct ptx_sbuf *b, int64_t pc);
};

/* One instruction; nm == NULL: the dump form. */
void ptx_fmt_insn(struct ptx_sbuf *b, const struct ptx_prog *p, const struct ptx_insn *in,
                  const struct ptx_namer *nm);

#endif
