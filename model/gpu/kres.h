/*
 * kres.h -- registers per thread of a kernel launch: which source decides them, and the
 * limits the kernel's own directives put on them.  Not a hardware block: the host's view of
 * what the compiler allocated, which decides residency (cta.c) in both models.
 *
 * Order (docs/ptx.md "Register counts"):
 *   1. regs_per_thread = N in the configuration: N for every kernel ("override");
 *   2. the compiler's count: the record next to the PTX ("recorded", kernel.res) or ptxas run
 *      at load ("ptxas"), as regs_source allows; for PTX text (a CUDA program's), a record
 *      carrying its hash in the record directory, or ptxas's answer kept in the user's cache
 *      directory (ptx_res_cache.c) or ptxas run at load;
 *   3. the model's liveness estimate of the linked kernel ("estimate"), lowered to .maxnreg and
 *      to what .minnctapersm CTAs of .maxntid/.reqntid threads leave per thread (the compiler
 *      obeys both itself, so 2 needs neither).
 * A count above max_regs_per_thread (ptxas for a newer target than the configuration's, or a
 * large estimate) is lowered to max_regs_per_thread and flagged as capped: a compile for the
 * configured GPU would have spilled, and spill traffic is not modelled.
 */
#ifndef KRES_H
#define KRES_H
#include <stddef.h>
#include <stdint.h>

enum kres_src { KRES_ESTIMATE = 0, KRES_RECORDED, KRES_PTXAS, KRES_OVERRIDE, KRES_COUNT };

struct gpu_config;
struct ptx_func;
struct ptx_res_kernel;

struct kres {
    uint32_t regs;             /* registers per thread used for residency */
    uint32_t estimate;         /* the liveness estimate, for comparison */
    uint32_t compiler;         /* the compiler's count (0: none) */
    uint8_t  src;              /* enum kres_src */
    uint8_t  capped;           /* the count exceeded max_regs_per_thread */
};

/* rk: the compiler's counts for this kernel or NULL; rk_src KRES_RECORDED or KRES_PTXAS. */
void kres_choose(const struct gpu_config *c, const struct ptx_func *fn, uint32_t estimate,
                 const struct ptx_res_kernel *rk, enum kres_src rk_src, struct kres *out);
/* The most registers per thread that let `ctas` CTAs of `threads` threads share an SM
   (allocation granularity applied), 0 if none fits. */
uint32_t kres_regs_for(const struct gpu_config *c, uint32_t threads, uint32_t ctas);
const char *kres_src_name(unsigned src);

/* The compiler's counts for a module, as regs_source allows. A PTX file (ptx_path): the
   record next to it, else ptxas on it. PTX text (ptx_path NULL; `text`, len bytes): a record
   in res_dir (may be NULL) carrying the text's hash, else ptxas's answer from the cache
   (ptx_res_cache_get: same text, same ptxas version), else ptxas on the text through a
   temporary file, its answer then cached. 0 with *res (caller frees) and *src set, or *res
   NULL and the reason in note; -1 with err for a malformed record next to a file. rec
   (reclen bytes): the path of the record found in res_dir for PTX text, "" otherwise. */
struct ptx_module;
struct ptx_res;
int kres_load(const struct gpu_config *c, const struct ptx_module *mod, const char *ptx_path,
              const char *text, size_t len, const char *res_dir, struct ptx_res **res,
              uint8_t *src, char *note, size_t notelen, char *rec, size_t reclen,
              char *err, size_t errlen);

/* Where the record of a module's VTW transforms is: FILE.vtw.res next to the PTX file
   ptx_path; for PTX text (ptx_path NULL) whose counts came from a record FILE.res in the
   record directory (rec), FILE.vtw.res beside it (a CUDA program's APP.N.vtw.res:
   tools/cuda_res.sh); else "" (none). */
void kres_vtw_path(const char *ptx_path, const char *rec, char *out, size_t outlen);

/* VTW: registers per thread of `kernel` transformed into `form` ("hw" | "sw"): the entry
   KERNEL.FORM of the record `path` (kres_vtw_path; NULL or "": none) when it was compiled
   (ptxas on vtwx_ptxas_text) from exactly `text` and the record's ptx_hash is the module's;
   else the original's count plus `grow` (the liveness estimate's growth); an override stays.
   Capped at max_regs_per_thread. The note says which and why. */
uint32_t kres_vtw(const struct gpu_config *c, const struct kres *orig, const char *path,
                  const char *kernel, const char *form, uint64_t ptx_hash, const char *text,
                  int32_t grow, char *note, size_t notelen);

/* Reference redirection: the same from entry KERNEL.FORM (redir_form_name) of the record
   FILE.redir.res, compiled from redir_ptxas_text. */
uint32_t kres_redir(const struct gpu_config *c, const struct kres *orig, const char *ptx_path,
                    const char *kernel, const char *form, uint64_t ptx_hash, const char *text,
                    int32_t grow, char *note, size_t notelen);

#endif
