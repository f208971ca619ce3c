#!/usr/bin/env python3
"""gen_scale_ptx.py KIND N -- a PTX module with N declarations of one kind, for measuring how
the front end (parse, link, print: `gpusim ptx FILE`) scales (docs/performance.md, "Front-end
scaling"; the deterministic test is tests/test_ptx_scale.c).

Kinds (each declared name is also used once, so look-ups are measured with declarations):
  reglist    one `.reg .b32 %c0, %c1, ..., %cN-1;` line, one mov per register
  regrange   N/100 ranges `.reg .b32 %qK_<100>;`, one mov per register
  globals    N module variables, .global/.const/.shared in turn, one load each
  locals     N kernel-scope .local variables, one load each
  params     N kernel parameters (.u8: PTX allows 64 KiB of them), one ld.param each
  labels     N labels, each followed by a conditional branch to another (forward and back)
  funcs      N .func, each called once from the kernel (inlined by the linker)
  calls      N call sequences, each with its own `.param .b32 param0` (as nvcc writes them)
  entries    N .entry kernels (`gpusim ptx` links and prints every one)
"""
import sys

HEAD = ".version 7.0\n.target sm_75\n.address_size 64\n\n"


def kernel(name, body, params="", regs="\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"):
    return ".visible .entry %s(%s)\n{\n%s%s\tret;\n}\n" % (name, params, regs, body)


def gen(kind, n):
    out = [HEAD]
    if kind == "reglist":
        names = ", ".join("%%c%d" % i for i in range(n))
        body = "\t.reg .b32 %s;\n" % names
        body += "".join("\tmov.u32 %%c%d, %d;\n" % (i, i) for i in range(n))
        out.append(kernel("k", body))
    elif kind == "regrange":
        body = "".join("\t.reg .b32 %%q%d_<100>;\n" % k for k in range(n // 100))
        body += "".join("\tmov.u32 %%q%d_%d, %d;\n" % (i // 100, i % 100, i) for i in range(n))
        out.append(kernel("k", body))
    elif kind == "globals":
        sp = ("global", "const", "shared")
        out += [".%s .align 4 .u32 g%d;\n" % (sp[i % 3], i) for i in range(n)]
        out.append(kernel("k", "".join("\tld.%s.u32 %%r1, [g%d];\n" % (sp[i % 3], i)
                                       for i in range(n))))
    elif kind == "locals":
        body = "".join("\t.local .align 4 .u32 l%d;\n" % i for i in range(n))
        body += "".join("\tld.local.u32 %%r1, [l%d];\n" % i for i in range(n))
        out.append(kernel("k", body))
    elif kind == "params":
        params = ",".join("\n\t.param .u8 k_p%d" % i for i in range(n)) + "\n"
        body = "".join("\tld.param.u8 %%r1, [k_p%d];\n" % i for i in range(n))
        out.append(kernel("k", body, params))
    elif kind == "labels":
        body = "\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 7;\n"
        for i in range(n):
            body += "$L%d:\n\t@%%p1 bra $L%d;\n" % (i, (i * 7 + n // 2) % n)
        out.append(kernel("k", body))
    elif kind == "funcs":
        out += [".func f%d()\n{\n\t.reg .b32 %%x<2>;\n\tmov.u32 %%x1, %d;\n\tret;\n}\n" % (i, i)
                for i in range(n)]
        out.append(kernel("k", "".join("\tcall.uni f%d, ();\n" % i for i in range(n))))
    elif kind == "calls":
        out.append(".func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %x;\n"
                   "\tld.param.b32 %x, [a];\n\tst.param.b32 [r], %x;\n\tret;\n}\n")
        body = "".join("\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
                       "\tst.param.b32 [param0], %%r1;\n\tcall.uni (retval0), f, (param0);\n"
                       "\tld.param.b32 %%r%d, [retval0];\n\t}\n" % (1 + i % 3) for i in range(n))
        out.append(kernel("k", body))
    elif kind == "entries":
        out += [kernel("k%d" % i, "\tmov.u32 %%r1, %d;\n" % i) for i in range(n)]
    else:
        sys.exit("gen_scale_ptx.py: unknown kind '%s'" % kind)
    return "".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.stdout.write(gen(sys.argv[1], int(sys.argv[2])))
