/*
 * fatbin.c -- reading nvcc's fatbinary: the wrapper, the entries, the PTX text (fatbin.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lz4.h>
#include <zstd.h>
#include "fatbin.h"

#define NO_COMPRESS "recompile with nvcc -no-compress (or --compress-mode=none), which stores " \
                    "the PTX as plain text"

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int fb_wrapper(const void *wrapper, const void **data, char *err, size_t errlen)
{
    const uint8_t *w = wrapper;
    uint32_t magic;
    *data = NULL;
    if (!w) {
        snprintf(err, errlen, "fatbinary wrapper: null pointer");
        return -1;
    }
    magic = rd32(w);
    if (magic != FB_WRAPPER_MAGIC) {
        snprintf(err, errlen, "fatbinary wrapper: magic 0x%08x, not 0x%08x (not a program "
                 "compiled by nvcc?)", magic, FB_WRAPPER_MAGIC);
        return -1;
    }
    memcpy(data, w + 8, sizeof *data);
    if (!*data) {
        snprintf(err, errlen, "fatbinary wrapper: no fatbinary (null data pointer)");
        return -1;
    }
    return 0;
}

/* One entry header at off (left bytes from there to the end of the fatbinary). */
static int parse_entry(const uint8_t *base, uint64_t off, uint64_t left, struct fb_entry *e,
                       char *err, size_t errlen)
{
    const uint8_t *h = base + off;
    uint32_t hsize;
    if (left < 16) {
        snprintf(err, errlen, "fatbinary: entry at offset %llu: %llu bytes left, an entry header "
                 "needs %u (truncated)", (unsigned long long)off, (unsigned long long)left,
                 FB_ENTRY_MIN);
        return -1;
    }
    hsize = rd32(h + 4);
    e->payload_size = rd64(h + 8);
    if (hsize < FB_ENTRY_MIN || hsize > left) {
        snprintf(err, errlen, "fatbinary: entry at offset %llu: header size %u (%u to the %llu "
                 "bytes left)", (unsigned long long)off, hsize, FB_ENTRY_MIN,
                 (unsigned long long)left);
        return -1;
    }
    if (e->payload_size > left - hsize) {
        snprintf(err, errlen, "fatbinary: entry at offset %llu: payload of %llu bytes, only %llu "
                 "left (truncated or corrupt)", (unsigned long long)off,
                 (unsigned long long)e->payload_size, (unsigned long long)(left - hsize));
        return -1;
    }
    e->kind = rd16(h);
    e->compressed_size = rd32(h + 16);
    e->arch = rd32(h + 28);
    e->flags = rd64(h + 40);
    e->size = rd64(h + 56);
    e->offset = off;
    e->payload = h + hsize;
    return 0;
}

int fb_parse(const void *data, size_t avail, struct fb_image *img, char *err, size_t errlen)
{
    const uint8_t *p = data;
    uint64_t body, hsize, off;
    memset(img, 0, sizeof *img);
    if (!p || avail < 16) {
        snprintf(err, errlen, "fatbinary: %s", p ? "shorter than its 16-byte header" : "null pointer");
        return -1;
    }
    if (rd32(p) != FB_MAGIC) {
        snprintf(err, errlen, "fatbinary: magic 0x%08x, not 0x%08x", rd32(p), FB_MAGIC);
        return -1;
    }
    hsize = rd16(p + 6);
    body = rd64(p + 8);
    if (rd16(p + 4) != 1 || hsize < 16 || hsize > FB_MAX_BYTES || body > FB_MAX_BYTES ||
        hsize + body > avail) {
        snprintf(err, errlen, "fatbinary: version %u, header %llu bytes, %llu bytes of entries: "
                 "%s", rd16(p + 4), (unsigned long long)hsize, (unsigned long long)body,
                 rd16(p + 4) != 1 ? "only version 1 is known" :
                 hsize < 16 ? "the header has 16 bytes at least" :
                 "more than the bytes there are");
        return -1;
    }
    img->size = hsize + body;
    for (off = hsize; off < img->size; ) {
        struct fb_entry *e = &img->e[img->nentries];
        if (img->nentries == FB_MAX_ENTRIES) {
            snprintf(err, errlen, "fatbinary: more than %u entries", FB_MAX_ENTRIES);
            return -1;
        }
        if (parse_entry(p, off, img->size - off, e, err, errlen))
            return -1;
        img->nentries++;
        off = (uint64_t)(e->payload - p) + e->payload_size;
    }
    return 0;
}

unsigned fb_ptx_order(const struct fb_image *img, unsigned *order, unsigned max)
{
    unsigned n = 0, i, j;
    for (i = 0; i < img->nentries && n < max; i++) {
        if (img->e[i].kind != FB_KIND_PTX)
            continue;
        for (j = n; j > 0 && img->e[order[j - 1]].arch <= img->e[i].arch; j--)
            order[j] = order[j - 1];
        order[j] = i;
        n++;
    }
    return n;
}

const char *fb_arch_name(const struct fb_entry *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%u", e->kind == FB_KIND_PTX ? "compute" : "sm", e->arch);
    return buf;
}

/* zstd: the frame's own content size when the header records none. */
static int unzstd(const struct fb_entry *e, uint64_t csize, char *out, uint64_t size,
                  char *err, size_t errlen)
{
    size_t r = ZSTD_decompress(out, size, e->payload, csize);
    if (ZSTD_isError(r) || r != size) {
        snprintf(err, errlen, "zstd: %s", ZSTD_isError(r) ? ZSTD_getErrorName(r) :
                 "the text is shorter than the header says");
        return -1;
    }
    return 0;
}

static int unlz4(const struct fb_entry *e, uint64_t csize, char *out, uint64_t size,
                 char *err, size_t errlen)
{
    int r;
    if (csize > (uint64_t)LZ4_MAX_INPUT_SIZE || size > (uint64_t)LZ4_MAX_INPUT_SIZE * 2) {
        snprintf(err, errlen, "lz4: %llu bytes, more than LZ4 takes", (unsigned long long)csize);
        return -1;
    }
    r = LZ4_decompress_safe((const char *)e->payload, out, (int)csize, (int)size);
    if (r < 0 || (uint64_t)r != size) {
        snprintf(err, errlen, "lz4: %s", r < 0 ? "corrupt block" :
                 "the text is shorter than the header says");
        return -1;
    }
    return 0;
}

/* The uncompressed size: the header's, or (zstd) the frame's own. 0 when unknown. */
static uint64_t text_size(const struct fb_entry *e, uint64_t csize)
{
    if (e->size || !(e->flags & FB_FLAG_ZSTD))
        return e->size;
    unsigned long long n = ZSTD_getFrameContentSize(e->payload, csize);
    return n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN ? 0 : n;
}

/* Decompress e into a malloc'd buffer of *size bytes (+1 for the NUL). */
static int decompress(const struct fb_entry *e, char **out, uint64_t *size, char *err,
                      size_t errlen)
{
    char why[256], an[32];
    uint64_t csize = e->compressed_size && e->compressed_size <= e->payload_size ?
                     e->compressed_size : e->payload_size;
    int rc;
    *size = text_size(e, csize);
    if (!*size || *size > FB_MAX_TEXT) {
        snprintf(err, errlen, "the %s PTX is compressed and its size (%llu bytes) is unknown "
                 "or too large: " NO_COMPRESS, fb_arch_name(e, an, sizeof an),
                 (unsigned long long)*size);
        return -1;
    }
    if (!(*out = malloc(*size + 1))) {
        snprintf(err, errlen, "out of host memory for %llu bytes of PTX", (unsigned long long)*size);
        return -1;
    }
    rc = e->flags & FB_FLAG_ZSTD ? unzstd(e, csize, *out, *size, why, sizeof why)
                                 : unlz4(e, csize, *out, *size, why, sizeof why);
    if (rc) {
        free(*out);
        *out = NULL;
        snprintf(err, errlen, "the %s PTX cannot be decompressed (%s): " NO_COMPRESS,
                 fb_arch_name(e, an, sizeof an), why);
    }
    return rc;
}

int fb_entry_text(const struct fb_entry *e, char **text, size_t *len, char *err, size_t errlen)
{
    uint64_t n;
    char an[32];
    *text = NULL;
    *len = 0;
    if ((e->flags & FB_FLAG_ZSTD) && (e->flags & FB_FLAG_LZ4)) {
        snprintf(err, errlen, "the %s PTX is marked compressed twice (flags 0x%llx), a form this "
                 "reader does not know: " NO_COMPRESS, fb_arch_name(e, an, sizeof an),
                 (unsigned long long)e->flags);
        return -1;
    }
    if (e->flags & (FB_FLAG_ZSTD | FB_FLAG_LZ4)) {
        if (decompress(e, text, &n, err, errlen))
            return -1;
    } else {
        n = e->payload_size;
        if (n > FB_MAX_TEXT) {
            snprintf(err, errlen, "the %s PTX has %llu bytes, more than the %llu a text may have",
                     fb_arch_name(e, an, sizeof an), (unsigned long long)n,
                     (unsigned long long)FB_MAX_TEXT);
            return -1;
        }
        if (!(*text = malloc(n + 1))) {
            snprintf(err, errlen, "out of host memory for %llu bytes of PTX", (unsigned long long)n);
            return -1;
        }
        memcpy(*text, e->payload, n);
    }
    while (n && (*text)[n - 1] == 0)       /* the payload is padded with NUL bytes */
        n--;
    (*text)[n] = 0;
    *len = n;
    return 0;
}
