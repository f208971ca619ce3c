/*
 * devprintf.h -- device-side printf (PTX `vprintf`): the host-side formatter and the buffer
 * that holds one launch's output until the launch ends.
 *
 * Not a hardware block.  A kernel's printf compiles to `call vprintf, (fmt, args)`: fmt the
 * generic address of the format string, args that of a buffer of the packed arguments (the
 * CUDA printf ABI: each argument at the next offset aligned to its size; int, char and short
 * as 4 bytes, long, long long, pointers and strings as 8, float promoted to double).  The
 * linker turns the call into one OP_PRINTF instruction (ptx_inline.c); the functional
 * executor (exec_printf.c) reads the format and the arguments of each executing lane and
 * formats them here, on the host, checking every conversion: a bad format or an address
 * outside memory is the kernel's error (naming kernel, PC, CTA and thread), never a crash.
 *
 * Order: a launch's output is kept and written when the launch ends, sorted by CTA (linear
 * index), then warp of the CTA (thread / 32), then the thread's own call count (its first
 * printf, second, ...), then lane.  For code where a warp's threads call printf together this
 * is "per warp instruction, in lane order"; the key depends only on what each thread prints,
 * not on when the model executed it, so the functional and the timing model print the same
 * text (under vtw the CTA and thread are the transformed kernel's, which may differ).
 */
#ifndef DEVPRINTF_H
#define DEVPRINTF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PF_MAX_LAUNCH (64u << 20)   /* bytes one launch keeps: its text and 40 bytes a call
                                       (a record); beyond: dropped */
#define PF_MAX_STRING (1u << 20)    /* longest format string or %s argument read */
#define PF_MAX_WIDTH  4096u         /* largest field width or precision accepted */
#define PF_MAX_ARGS   32            /* arguments after the format (CUDA's limit) */

/* Where the formatter reads device memory; both return 0, or -1 with the reason in err. */
struct pf_src {
    void *ctx;
    /* the n-byte (4 or 8) little-endian value at offset off of the argument buffer */
    int (*arg)(void *ctx, uint64_t off, unsigned n, uint64_t *v, char *err, size_t errlen);
    /* the byte at generic address addr */
    int (*byte)(void *ctx, uint64_t addr, uint8_t *b, char *err, size_t errlen);
};

/* A growing text. */
struct pf_text { char *s; size_t n, cap; };

/* Format fmt (len bytes, no NUL needed) with the arguments src reads, appending to out:
   the number of arguments consumed (CUDA's printf returns it), or -1 with the reason in err
   (an unknown or unsupported conversion, a width above PF_MAX_WIDTH, more than PF_MAX_ARGS
   arguments, a read src refused, out of host memory). */
int pf_format(const char *fmt, size_t len, const struct pf_src *src, struct pf_text *out,
              char *err, size_t errlen);

struct pf_rec { uint64_t cta, idx; uint32_t tid, seq; size_t off, len; };

/* One launch's output, and where it goes. */
struct ex_printf {
    FILE *out;                       /* NULL: discarded */
    struct pf_rec *rec;
    size_t nrec, cap;
    struct pf_text text;
    uint64_t dropped;                /* calls whose text did not fit in PF_MAX_LAUNCH */
};

/* Keep the text of one call of thread tid of CTA cta (linear indices). */
void pf_add(struct ex_printf *b, uint64_t cta, uint32_t tid, const char *s, size_t len);
/* Write the launch's output in the order above to b->out (and a line saying how many calls
   were dropped, if any), flush it, and empty the buffer. */
void pf_flush(struct ex_printf *b);
void pf_free(struct ex_printf *b);

#endif
