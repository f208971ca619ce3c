/*
 * exec_printf.c -- device-side printf (PTX vprintf) in the functional executor.
 *
 * Hardware it stands for: none directly -- on a GPU vprintf is a library function that copies
 * the format's address and the arguments into a buffer in global memory, which the host
 * driver prints after the kernel.  Here the linker makes each call one instruction
 * (OP_PRINTF, ptx_inline.c) and this file does the whole call for each executing lane, in lane
 * order: it reads the two addresses, the format string (generic address, at most
 * PF_MAX_STRING bytes), formats it on the host with the arguments from the lane's argument
 * buffer (devprintf.c) and keeps the text in the launch's buffer (ex_ctx.pf; written when the
 * launch ends, in the order devprintf.h gives). The return value (arguments consumed; -1 for a
 * NULL format) goes to the call's return .param. A bad format or an address outside memory
 * is the kernel's error, naming kernel, PC, CTA and thread, as any fault.
 */
#include "exec_priv.h"
#include "devprintf.h"
#include <stdlib.h>

struct lane_src {
    const struct ex_ctx *c;
    uint32_t lane;
    uint64_t args;                 /* the argument buffer's generic address */
};

static int rd(const struct ex_ctx *c, uint32_t lane, uint64_t addr, unsigned n, uint64_t *v)
{
    const uint8_t *p = ex_mem_ptr(c, lane, PS_GENERIC, addr, n, 0);
    uint64_t x = 0;
    if (!p)
        return -1;
    memcpy(&x, p, n);              /* little-endian host, as the model's memory */
    *v = x;
    return 0;
}

static int src_arg(void *ctx, uint64_t off, unsigned n, uint64_t *v, char *err, size_t errlen)
{
    const struct lane_src *s = ctx;
    if (!s->args)
        return snprintf(err, errlen, "the format wants an argument but the argument buffer is "
                        "NULL"), -1;
    if (rd(s->c, s->lane, s->args + off, n, v))
        return snprintf(err, errlen, "argument at offset %llu of the buffer at 0x%llx (%u "
                        "bytes) is outside memory or misaligned", (unsigned long long)off,
                        (unsigned long long)s->args, n), -1;
    return 0;
}

static int src_byte(void *ctx, uint64_t addr, uint8_t *b, char *err, size_t errlen)
{
    const struct lane_src *s = ctx;
    uint64_t v;
    if (rd(s->c, s->lane, addr, 1, &v))
        return snprintf(err, errlen, "string byte at 0x%llx is outside memory",
                        (unsigned long long)addr), -1;
    *b = (uint8_t)v;
    return 0;
}

/* The value of address operand o (fmt, args) for lane: a register, or 8 bytes of a .param. */
static int addr_opd(const struct xs *x, const struct ptx_operand *o, uint32_t lane, uint64_t *v)
{
    const uint8_t *p;
    if (o->kind == OPD_REG && o->reg >= 0) {
        *v = x->c->regs[(size_t)o->reg * W + lane];
        return 0;
    }
    if (o->kind != OPD_ADDR || !(p = ex_mem_ptr(x->c, lane, PS_PARAM, (uint64_t)o->imm, 8, 0)))
        return -1;
    memcpy(v, p, 8);
    return 0;
}

/* The format string at addr: its bytes (malloc'd) and length, or NULL with err set. */
static char *read_format(const struct lane_src *s, uint64_t addr, size_t *len, char *err,
                         size_t errlen)
{
    struct pf_text t = {0};
    uint8_t b;
    for (size_t k = 0;; k++) {
        if (k == PF_MAX_STRING) {
            snprintf(err, errlen, "format string at 0x%llx longer than %u bytes",
                     (unsigned long long)addr, PF_MAX_STRING);
            break;
        }
        if (src_byte((void *)s, addr + k, &b, err, errlen)) {
            snprintf(err, errlen, "format string at 0x%llx: byte %zu is outside memory",
                     (unsigned long long)addr, k);
            break;
        }
        if (!b) {
            char *f = malloc(k + 1);
            if (f) {
                memcpy(f, t.s ? t.s : "", k);
                f[k] = 0;
                *len = k;
            } else {
                snprintf(err, errlen, "out of host memory");
            }
            free(t.s);
            return f;
        }
        if (t.n == t.cap) {
            size_t cap = t.cap ? 2 * t.cap : 128;
            char *g = realloc(t.s, cap);
            if (!g) {
                snprintf(err, errlen, "out of host memory");
                break;
            }
            t.s = g;
            t.cap = cap;
        }
        t.s[t.n++] = (char)b;
    }
    free(t.s);
    return NULL;
}

/* One lane's call: 0, or -1 with the reason in err. */
static int one_lane(const struct xs *x, uint32_t l, int32_t *ret, struct pf_text *out, char *err,
                    size_t errlen)
{
    const struct ptx_insn *in = x->in;
    struct lane_src s = { x->c, l, 0 };
    struct pf_src src = { &s, src_arg, src_byte };
    uint64_t fmt;
    size_t len = 0;
    char *f;
    int n;
    if (addr_opd(x, &in->opd[1], l, &fmt) || addr_opd(x, &in->opd[2], l, &s.args))
        return snprintf(err, errlen, "the call's arguments cannot be read"), -1;
    if (!fmt) {
        *ret = -1;                     /* CUDA's printf for a NULL format */
        return 0;
    }
    if (!(f = read_format(&s, fmt, &len, err, errlen)))
        return -1;
    out->n = 0;
    n = pf_format(f, len, &src, out, err, errlen);
    free(f);
    if (n < 0)
        return -1;
    *ret = n;
    return 0;
}

void ex_op_printf(const struct xs *x)
{
    const struct ex_ctx *c = x->c;
    const struct ptx_operand *r = &x->in->opd[0];
    struct pf_text out = {0};
    char err[PTX_ERR_LEN - 200];
    uint64_t cta = c->ctaid[0] + (uint64_t)c->nctaid[0] * (c->ctaid[1] +
                   (uint64_t)c->nctaid[1] * c->ctaid[2]);
    FOR_LANES(l, x->exec) {
        int32_t ret = 0;
        uint8_t *p;
        err[0] = 0;
        if (one_lane(x, l, &ret, &out, err, sizeof err)) {
            ex_fail(x, l, "printf: %s", err);
            break;
        }
        if (c->pf && ret >= 0)
            pf_add(c->pf, cta, c->tid0 + l, out.s ? out.s : "", out.n);
        if (r->kind == OPD_ADDR) {
            if (!(p = ex_mem_ptr(c, l, PS_PARAM, (uint64_t)r->imm, 4, 1))) {
                ex_fail(x, l, "printf: its return value cannot be written");
                break;
            }
            memcpy(p, &ret, 4);
        }
    }
    free(out.s);
}
