/*
 * host_priv.h -- what the files of the host API (gpusim.h) share: the GPU, module and kernel
 * objects behind the API's opaque handles, and the helpers more than one of them calls.
 * host.c: configuration, memory, modules, launches, statistics; host_redir.c: gs_redirect
 * and a launch's redirected variant (001's reference redirection); host_cuda.c: what the
 * CUDA runtime library (cuda/) asks of a GPU and its modules. Not hardware: host-side glue.
 */
#ifndef HOST_PRIV_H
#define HOST_PRIV_H
#include <stdio.h>
#include "ptx/flow.h"
#include "ptx/ptx.h"
#include "ptx/ptx_res.h"
#include "ptx/redir.h"
#include "ptx/vtwx.h"
#include "base/config.h"
#include "func/devprintf.h"
#include "func/gmem.h"
#include "gpusim.h"
#include "kres.h"
#include "record.h"
#include "sm/sm.h"

#define GS_MAX_MODULES 64

struct gs_kernel {                    /* a linked kernel, cached per module */
    int linked;
    struct ptx_prog prog;
    struct flow flow;
    struct kres kres;                 /* its registers per thread and where they came from */
    const struct ptx_func *fn;        /* its declaration (performance directives) */
    uint8_t  vtw;                     /* enum conf_vtw: the program is VTW's transform */
    uint8_t  vtw_hidden;              /* parameters a transform appended (VTW's, redirection's) */
    int64_t  redir_off;               /* a redirected variant: __rg_map's offset */
    uint8_t  redirected;              /* the program is a redirected variant */
    struct gs_kernel *redir[REDIR_NFORMS];  /* this kernel under reference redirection, per
                                         form (redir_form), made at its first launch */
    char rd_note[700];                /* a redirected variant: where its registers came from */
    uint32_t regs_orig;               /* registers per thread of the kernel before it */
    struct vtwx_info vx;
    char vtw_note[1200];              /* where the transform's registers came from */
};

struct gs_module {
    struct ptx_module mod;
    struct gs_kernel *kernels;        /* one slot per function of the module */
    struct ptx_res *res;              /* the compiler's counts, or NULL */
    uint8_t res_src;                  /* KRES_RECORDED or KRES_PTXAS when res is set */
    char res_note[640];               /* where the counts came from, or why there are none */
    char path[512];                   /* the PTX file ("" when loaded as text) */
    char rec[768];                    /* loaded as text: the record in the record directory
                                         its counts came from ("" none) */
};

struct gs_gpu {
    struct gpu_config conf;
    struct gmem *gmem;
    struct gs_module *modules[GS_MAX_MODULES];
    unsigned nmodules;
    struct gs_stats last, total;
    char regs_note[2048];             /* registers of the last launch: source and detail */
    int last_launch_status;
    struct sm_rec rec;
    struct l2copy *copied;            /* lines copies left in L2 since the last launch, or NULL
                                         (l2_copy_install off or functional model) */
    struct msys *ms;                  /* the timing model's memory system, kept (gpu.c) */
    char rec_path[512];
    FILE *bbv_out;                    /* gs_bbv: where launches write their BBVs (NULL: off) */
    const uint32_t *const *rd_perm;   /* gs_redirect: per launch D[] or NULL; rd_n of them */
    const uint64_t *rd_len;
    unsigned rd_n, rd_next;           /* launches given; the next launch's index */
    int bbv_csv;
    unsigned bbv_n;                   /* launches written */
    char *err;                        /* gs_last_error's text: ERR_ROOM bytes or more, grown to
                                         hold a longer message (the deadlock dump) whole */
    size_t errcap;
    char res_dir[512];                /* gs_set_res_dir: records for PTX text ("" none) */
    struct ex_printf pf;              /* device printf: a launch's output, and where it goes
                                         (gs_set_printf; stdout unless set) */
    gs_launch_fn *on_launch;          /* gs_on_launch: called after each launch that ran */
    void *on_launch_arg;
};

#define ERR_ROOM 1024                 /* what the model's calls may write a message into */

/* The last error: status and message (printf-style) into g->err; returns status. */
int host_seterr(struct gs_gpu *g, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Kernel `name` of m, linked (and analysed) at its first use: GS_OK, or an error with its
   message. */
int host_get_kernel(struct gs_gpu *g, struct gs_module *m, const char *name,
                    struct gs_kernel **out);
/* Link function i of m into k (the transform under vtw != off). */
int host_link_kernel(struct gs_gpu *g, struct gs_module *m, uint32_t i, struct gs_kernel *k);
void host_kernel_free(struct gs_kernel *k);
/* m is one of g's modules (a module of another GPU is never read). */
int host_module_of(const struct gs_gpu *g, const struct gs_module *m);
/* host_redir.c: gs_redirect's part of a launch -- the variant to run and D[] in device memory
   (*map 0: this launch runs unchanged). */
int host_redir_launch(struct gs_gpu *g, struct gs_module *m, struct gs_kernel **k,
                      struct gs_dim3 grid, struct gs_dim3 block, uint32_t dyn, uint64_t *map);

#endif
