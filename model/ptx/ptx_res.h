/*
 * ptx_res.h -- what the compiler (ptxas) allocates per kernel: registers, static shared memory,
 * stack frame and spills.  Not a hardware block: the front end's record of the resource usage
 * that decides residency (registers and shared memory per CTA, docs/ptx.md "Register counts").
 *
 * Three ways in:
 *   - a record file next to the PTX (bench/NAME/kernel.res, written by `make ptx` through
 *     `gpusim res`), read by ptx_res_read;
 *   - ptxas run on the PTX at load (ptx_res_run_ptxas), when it is installed;
 *   - the text ptxas prints with -v (ptx_res_from_ptxas), which both of the above come from.
 * A record carries the 64-bit FNV-1a hash of the PTX text it was made from, so a record left
 * behind by an edited PTX is recognised as stale and not used.
 */
#ifndef PTX_RES_H
#define PTX_RES_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PTX_RES_MAX_KERNELS 64
#define PTX_RES_MAX_REGS    255           /* ptxas allocates at most 255 registers per thread */
#define PTX_RES_FILE_MAX    (1u << 20)    /* a record file: at most 1 MiB */

struct ptx_res_kernel {
    char     name[128];
    uint32_t regs;            /* registers per thread ("Used N registers") */
    uint32_t shared;          /* bytes of static shared memory ("N bytes smem") */
    uint32_t stack;           /* bytes of stack frame per thread (local memory) */
    uint32_t spill_stores;    /* bytes of spill stores / loads per thread */
    uint32_t spill_loads;
    uint64_t text_hash;       /* FNV-1a of the text ptxas compiled when it is not the record's
                                 PTX (VTW's transforms, FILE.vtw.res); 0 otherwise */
};

struct ptx_res {
    char     target[32];      /* the --gpu-name ptxas compiled for, e.g. "sm_75" */
    char     tool[96];        /* ptxas version line, for the record's header */
    uint64_t ptx_hash;        /* FNV-1a of the PTX text the counts belong to */
    uint32_t nkernels;
    struct ptx_res_kernel k[PTX_RES_MAX_KERNELS];
};

uint64_t ptx_res_hash(const char *text, size_t len);

/* Parse `ptxas -v` output (its stderr) into r (entry functions only).  0, or -1 with a
   message when no entry function was found in it. */
int ptx_res_from_ptxas(const char *out, struct ptx_res *r, char *err, size_t errlen);

/* Run ptxas -v on the PTX file for `target` (retrying once for the oldest target the
   installed ptxas supports when it rejects `target`).  The ptxas run is $GPUSIM_PTXAS when
   set, else ptxas on PATH, else /usr/local/cuda/bin/ptxas.  0; 1 when no ptxas could be
   started; -1 with a message when it ran and failed. */
int ptx_res_run_ptxas(const char *ptx_path, const char *target, struct ptx_res *r,
                      char *err, size_t errlen);

/* The version line of the ptxas ptx_res_run_ptxas runs ("Cuda compilation tools, release
   ..."), into buf: 0, or 1 when none could be started (the result cache keys on it). */
int ptx_res_ptxas_version(char *buf, size_t n);

/* ptxas -v on PTX text (through a temporary file), as ptx_res_run_ptxas. */
int ptx_res_run_ptxas_text(const char *text, size_t len, const char *target, struct ptx_res *r,
                           char *err, size_t errlen);

/* The record file: write, and read back.  ptx_res_read returns 0, 1 when the file does not
   exist, or -1 with "FILE:LINE: message" for a malformed record and "FILE: cannot read ..."
   for one that is not a regular file of at most PTX_RES_FILE_MAX bytes (model/base/infile.h:
   a FIFO or a device is refused at once). Lines may be of any length. A kernel line's five
   counts are decimal, 0 to 2^32 - 1, its registers 1 to PTX_RES_MAX_REGS; a kernel recorded
   twice, a word too many and a target or name too long for the record are refused. */
void ptx_res_write(const struct ptx_res *r, const char *ptx_name, FILE *f);
int  ptx_res_read(const char *path, struct ptx_res *r, char *err, size_t errlen);
/* The same from the len bytes of buf (NUL-terminated after them; its lines are cut in
   place), path naming it in the messages: what ptx_res_read does with a file's bytes. */
int  ptx_res_parse(char *buf, size_t len, const char *path, struct ptx_res *r, char *err,
                   size_t errlen);

/* The record path of a PTX path: ".ptx" replaced by ".res" (appended when absent); with ext,
   by ext instead (".vtw.res", ".redir.res": the records of a transform's text). */
void ptx_res_path(const char *ptx_path, char *out, size_t outlen);
void ptx_res_path_ext(const char *ptx_path, const char *ext, char *out, size_t outlen);

const struct ptx_res_kernel *ptx_res_find(const struct ptx_res *r, const char *kernel);

/* ptxas's answers for PTX text, kept between runs (ptx_res_cache.c). The directory:
   $GPUSIM_PTXAS_CACHE ("off": none), else $XDG_CACHE_HOME/gpusim/ptxas, else
   $HOME/.cache/gpusim/ptxas: 0 with it in buf, -1 when there is none. An entry is a record
   file DIR/PTXHASH-VERSIONHASH.res (the FNV-1a of the PTX text and of ptxas's version line).
   ptx_res_cache_get: 0 with *r and the entry's path, 1 when there is none for this text and
   this ptxas version (absent, unreadable or another's). ptx_res_cache_put writes *r
   (r->ptx_hash set, r->tool the version) whole or not at all: 0, or -1 when it cannot. */
int ptx_res_cache_dir(char *buf, size_t n);
int ptx_res_cache_get(uint64_t ptx_hash, const char *version, struct ptx_res *r, char *path,
                      size_t n);
int ptx_res_cache_put(const struct ptx_res *r, const char *version, char *path, size_t n);

/* The record (FILE.res, not FILE.vtw.res) in directory `dir` whose ptx_fnv1a is ptx_hash
   (the first such name in byte order): 0 with *r and its path, 1 when there is none (no
   directory, no such record; malformed records are passed over). */
int ptx_res_find_record(const char *dir, uint64_t ptx_hash, struct ptx_res *r, char *path,
                        size_t n);

#endif
