/*
 * fatbin.h -- the device code nvcc embeds in a program, as the CUDA runtime library reads it:
 * the wrapper __cudaRegisterFatBinary receives, the fatbinary it points to, and the text of
 * its PTX entries (decompressed when nvcc compressed them).
 *
 * Not a hardware block: the host-side reader behind cuda/register.c. Layout (little-endian,
 * observed in nvcc 13 output; docs/cuda.md "The fatbinary"):
 *   wrapper    u32 magic 0x466243b1, u32 version, const void *data, void *filename
 *   fatbinary  u32 magic 0xBA55ED50, u16 version 1, u16 header size (16), u64 size of the
 *              entries that follow the header
 *   entry      u16 kind (1 PTX, 2 ELF), u16, u32 entry header size (>= 64), u64 payload
 *              size; at +16 u32 compressed size (0: none), at +28 u32 architecture (75 for
 *              sm_75 / compute_75), at +40 u64 flags (0x2000 LZ4, 0x8000 zstd), at +56 u64
 *              uncompressed size; the payload follows the entry header.
 * Every size is checked against the bytes the caller says are readable: a truncated or
 * oversized fatbinary is an error naming the offset, never a read past the end.
 */
#ifndef CUDA_FATBIN_H
#define CUDA_FATBIN_H
#include <stddef.h>
#include <stdint.h>

#define FB_WRAPPER_MAGIC 0x466243b1u
#define FB_MAGIC         0xBA55ED50u
#define FB_KIND_PTX      1
#define FB_KIND_ELF      2
#define FB_FLAG_LZ4      0x2000ull
#define FB_FLAG_ZSTD     0x8000ull
#define FB_MAX_ENTRIES   256
#define FB_MAX_BYTES     (1ull << 30)     /* a fatbinary: at most 1 GiB */
#define FB_MAX_TEXT      (256ull << 20)   /* an entry's text: at most 256 MiB (PTX_FILE_MAX) */
#define FB_ENTRY_MIN     64               /* the smallest entry header holding every field read */

struct fb_entry {
    uint16_t kind;                /* FB_KIND_PTX, FB_KIND_ELF or another (skipped) */
    uint32_t arch;                /* the architecture number: 75 for compute_75 */
    uint64_t flags;
    uint64_t offset;              /* of the entry header from the fatbinary's start */
    const uint8_t *payload;       /* the payload as stored */
    uint64_t payload_size;
    uint64_t compressed_size;     /* the compressed bytes at payload (0: as payload_size) */
    uint64_t size;                /* the uncompressed size the header records (0: none) */
};

struct fb_image {
    uint64_t size;                /* header + entries, bytes */
    unsigned nentries;
    struct fb_entry e[FB_MAX_ENTRIES];
};

/* The fatbinary a wrapper points to: 0 and *data, or -1 with a message (bad magic, null). */
int fb_wrapper(const void *wrapper, const void **data, char *err, size_t errlen);

/* Read the fatbinary at data, of which avail bytes may be read (SIZE_MAX: trust the header,
   up to FB_MAX_BYTES). 0, or -1 with a message naming what is wrong and where. */
int fb_parse(const void *data, size_t avail, struct fb_image *img, char *err, size_t errlen);

/* The PTX entries, newest architecture first (a tie: the later entry first), their indices
   into order[0 .. max); the count. */
unsigned fb_ptx_order(const struct fb_image *img, unsigned *order, unsigned max);

/* Entry e's text, decompressed (zstd, LZ4) when its flags say so, with trailing NUL bytes
   dropped: *text malloc'd (NUL-terminated), *len its length. 0, or -1 with a message; a form
   this reader cannot decompress names the nvcc options that avoid compression. */
int fb_entry_text(const struct fb_entry *e, char **text, size_t *len, char *err, size_t errlen);

/* "compute_75" for an entry's architecture, into buf. */
const char *fb_arch_name(const struct fb_entry *e, char *buf, size_t n);

#endif
