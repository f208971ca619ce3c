/*
 * printf.c -- device-side printf for the runtime library: where a kernel's printf output goes.
 *
 * Not a hardware block. The model formats each call of printf in a kernel (PTX vprintf) and
 * writes a launch's output when the launch ends (gs_set_printf, model/func/devprintf.h: in
 * the order CTA, warp, the thread's call count, lane). Here: the destination, from
 * GPUSIM_PRINTF -- unset or "stdout" the program's stdout (the C library's stdout, so the
 * device output falls in place among the program's own printf lines, launches being
 * synchronous), "stderr", "off" (discarded), or a file (written from the start, kept open
 * across cudaDeviceReset and closed at exit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static FILE *pf_file;                 /* GPUSIM_PRINTF's file, once opened */

int rt_printf_attach(struct gs_gpu *gpu, char *err, size_t errlen)
{
    const char *s = getenv("GPUSIM_PRINTF");
    FILE *out = stdout;
    if (s && !strcmp(s, "stderr"))
        out = stderr;
    else if (s && !strcmp(s, "off"))
        out = NULL;
    else if (s && s[0] && strcmp(s, "stdout")) {
        if (!pf_file && !(pf_file = fopen(s, "w"))) {
            snprintf(err, errlen, "GPUSIM_PRINTF: cannot write %s", s);
            return -1;
        }
        out = pf_file;
    }
    gs_set_printf(gpu, out);
    return 0;
}

void rt_printf_close(void)
{
    if (pf_file)
        fclose(pf_file);
    pf_file = NULL;
}
