/*
 * fuzz_fatbin_one.c -- one fuzz input through the CUDA runtime library's fatbinary reader
 * (cuda/fatbin.c): the bytes as a program's .nv_fatbin section, its fatbinaries one after
 * another (each 8-byte aligned, as nvcc places them), each parsed and each PTX entry's text
 * taken out (zstd or LZ4 decompressed). A fatbinary that parses must lie within the input and
 * so must every entry's payload; the PTX order must hold every PTX entry, newest first; a text
 * must be NUL-terminated at its length. Every call must succeed or fail with a message.
 * Bounds: a text is at most FB_MAX_TEXT bytes (allocated, not touched, for a bogus size).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "../cuda/fatbin.h"

/* The image's entries inside [base, base + size) and the PTX order complete: 0, or 1. */
static int image_ok(const struct fb_image *img, const uint8_t *base, size_t size)
{
    unsigned order[FB_MAX_ENTRIES], n = fb_ptx_order(img, order, FB_MAX_ENTRIES), ptx = 0;
    if (img->size > size)
        return fprintf(stderr, "fuzz_fatbin: a fatbinary of %llu bytes in %zu\n",
                       (unsigned long long)img->size, size), 1;
    for (unsigned i = 0; i < img->nentries; i++) {
        const struct fb_entry *e = &img->e[i];
        ptx += e->kind == FB_KIND_PTX;
        if (e->payload < base || e->payload_size > img->size ||
            (size_t)(e->payload - base) > img->size - e->payload_size)
            return fprintf(stderr, "fuzz_fatbin: entry %u's payload outside the fatbinary\n", i), 1;
    }
    for (unsigned i = 1; i < n; i++)
        if (img->e[order[i - 1]].arch < img->e[order[i]].arch)
            return fprintf(stderr, "fuzz_fatbin: the PTX order is not newest first\n"), 1;
    if (n != ptx)
        return fprintf(stderr, "fuzz_fatbin: %u PTX entries, %u in the order\n", ptx, n), 1;
    return 0;
}

/* Every PTX entry's text: 0, or the number that went wrong. */
static int texts_ok(const struct fb_image *img)
{
    int bad = 0;
    for (unsigned i = 0; i < img->nentries; i++) {
        char err[512] = "", *text = NULL;
        size_t len = 0;
        if (img->e[i].kind != FB_KIND_PTX)
            continue;
        if (fb_entry_text(&img->e[i], &text, &len, err, sizeof err) == 0) {
            if (!text || text[len] != 0 || len > FB_MAX_TEXT)
                bad += fprintf(stderr, "fuzz_fatbin: entry %u's text not terminated\n", i) > 0;
        } else if (!err[0] || text) {
            bad += fprintf(stderr, "fuzz_fatbin: entry %u failed without a message\n", i) > 0;
        }
        free(text);
    }
    return bad;
}

int fuzz_fatbin_one(const uint8_t *data, size_t size)
{
    static struct fb_image img;
    size_t off = 0;
    int bad = 0;
    while (off + 16 <= size && !bad) {
        char err[512] = "";
        if (fb_parse(data + off, size - off, &img, err, sizeof err)) {
            if (!err[0])
                bad = fprintf(stderr, "fuzz_fatbin: fb_parse failed without a message\n") > 0;
            break;
        }
        bad = image_ok(&img, data + off, size - off) + texts_ok(&img);
        off += (img.size + 7) / 8 * 8;
    }
    return bad;
}
