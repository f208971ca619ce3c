/*
 * fuzz_bbv_one.c -- one fuzz input through the binary BBV reader (model/gpu/bbv.c), as
 * `gpusim bbv --read` reads a file: the bytes, exactly the input's, through fmemopen;
 * bbv_read_magic, then bbv_read launch after launch until the end or a refusal. Each launch
 * read is written back in both forms: the CSV form (what --read prints), which must have its
 * two comment lines, its header and one line per thread, and the binary form, which must be
 * byte for byte the input's bytes it was read from (the reader keeps every field
 * it reads, so a launch it accepts is one the writer makes). Every call must succeed or fail
 * with a message. Bounds: none needed -- the reader stores a launch's counts as they arrive
 * (a short input claiming 2 GiB of counts allocates what it holds), its block figures are at
 * most 2^24 x 16 bytes, within the fuzzer's -rss_limit_mb.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "gpu/bbv.h"

static uint64_t lines(const char *s, size_t n)
{
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

/* The launch b, read from in[from, to), written back in both forms: 0 when the binary form
   is those bytes, the CSV form is its two comment lines, its header and a line per thread
   (a kernel name holding a newline broke it), and both writes succeed. */
static int write_back(const struct bbv *b, const uint8_t *in, long from, long to)
{
    char *bin = NULL, *csv = NULL;
    size_t bl = 0, cl = 0;
    FILE *fb = open_memstream(&bin, &bl), *fc = open_memstream(&csv, &cl);
    int bad = !fb || !fc;
    if (!bad) {
        bad = bbv_write(fb, b, 0, 0) | bbv_write(fc, b, 1, 0);
        bad |= fclose(fb) | fclose(fc);
        fb = fc = NULL;
        bad |= bl != (size_t)(to - from) || memcmp(bin, in + from, bl) != 0;
        bad |= memchr(csv, 0, cl) != NULL || lines(csv, cl) != 3 + b->nthreads;
    }
    if (fb)
        fclose(fb);
    if (fc)
        fclose(fc);
    if (bad)
        fprintf(stderr, "fuzz_bbv: launch of %s at bytes %ld-%ld: written back as %zu bytes "
                "(the bytes read?) and %llu CSV lines (%llu threads + 3?)\n", b->kernel, from, to,
                bl, (unsigned long long)lines(csv, cl), (unsigned long long)b->nthreads);
    free(bin);
    free(csv);
    return bad;
}

int fuzz_bbv_one(const uint8_t *data, size_t size)
{
    char err[512] = "";
    struct bbv b;
    long from;
    int r, bad = 0;
    FILE *f = size ? fmemopen((void *)data, size, "rb") : NULL;
    if (!f)
        return 0;                     /* an empty file: the reader is never reached */
    if (bbv_read_magic(f, err, sizeof err)) {
        fclose(f);
        if (err[0])
            return 0;
        fprintf(stderr, "fuzz_bbv: bbv_read_magic returned -1 without a message\n");
        return 1;
    }
    from = ftell(f);
    while ((r = bbv_read(f, &b, err, sizeof err)) == 1) {
        bad += write_back(&b, data, from, ftell(f));
        bbv_free(&b);
        from = ftell(f);
    }
    fclose(f);
    if (r < 0 && !err[0]) {
        fprintf(stderr, "fuzz_bbv: bbv_read returned -1 without a message\n");
        bad++;
    }
    return bad;
}
