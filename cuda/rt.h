/*
 * rt.h -- what the files of the CUDA runtime library (build/cuda/libcudart.so.13) share: the
 * one GPU of the process, the registered modules, kernels and variables, the error state and
 * the messages printed once.
 *
 * Not a hardware block: the host side of `gpusim exec` (docs/cuda.md). A program compiled by
 * nvcc with -cudart shared registers its fatbinaries, kernels and variables from constructors
 * before main (register.c); the GPU is made from the environment at the first call that needs
 * it (state.c), and every registered module is loaded on it then, in registration order.
 * Every exported call takes the library's lock, so a program's threads may call it; the last
 * error is the process's, not each thread's.
 *
 * Files: state.c (the GPU, the environment, errors, messages), register.c (the __cuda*
 * entry points nvcc's code calls, the tables), fatbin.c (the device code), memory.c, launch.c,
 * device.c (devices, properties, kernels' attributes, occupancy), stream.c (streams and
 * events), stats.c (per-launch statistics), error.c (names and texts), unsupported.c (the
 * calls the model does not support), printf.c (where device printf's output goes).
 */
#ifndef CUDA_RT_H
#define CUDA_RT_H
#include <stddef.h>
#include <stdint.h>
#include "cuda_api.h"
#include "cudart.h"
#include "gpu/gpusim.h"

/* One module: a registered fatbinary, or one GPUSIM_PTX file (wrapper NULL). */
struct rt_module {
    void *self;                  /* the handle __cudaRegisterFatBinary returns points here */
    const void *wrapper;         /* the fatbinary wrapper the program registered */
    unsigned index;              /* 1, 2, ... in registration order */
    const char *ptx_file;        /* GPUSIM_PTX: the file (else NULL) */
    struct gs_module *mod;       /* loaded on the GPU (NULL before, or when loading failed) */
    char *err;                   /* why loading failed (malloc'd), NULL otherwise */
    cudaError_t code;            /* what a launch of one of its kernels returns then */
};

/* One kernel the program registered: its host stub's address and its mangled name. */
struct rt_kernel {
    const void *host_fun;
    char *name;
    struct rt_module *m;         /* the module that registered it */
    int nparams;                 /* -1 until known (the module is loaded) */
    size_t *psize;               /* the PTX parameters' sizes */
    char *pretty;                /* the demangled name (stats.c), or NULL */
};

/* One __device__ or __constant__ variable: its host shadow's address and its name. */
struct rt_var {
    const void *host_var;
    char *name;
    struct rt_module *m;
    size_t size;
    int constant;
};

/* ---- state.c */
void rt_lock(void);
void rt_unlock(void);
/* The GPU, made at the first call (environment: docs/cuda.md), with every registered module
   loaded on it; NULL and *err (cudaErrorInitializationError when the configuration is bad,
   the sticky error after a kernel fault) when there is none to use. */
struct gs_gpu *rt_gpu(cudaError_t *err);
/* The GPU if it exists (no creation), for queries that need no device. */
struct gs_gpu *rt_gpu_if_made(void);
/* Record e as the last error (unless cudaSuccess), release the lock, return e: the end of
   every exported call (RT_RETURN). */
cudaError_t rt_done(cudaError_t e);
#define RT_CALL(expr) do { cudaError_t rt_e_; rt_lock(); rt_e_ = (expr); return rt_done(rt_e_); } while (0)
/* The last error (cudaGetLastError resets it unless it is sticky). */
cudaError_t rt_last_error(int reset);
/* A kernel fault: every later call that needs the GPU returns e (CUDA's sticky errors). */
void rt_set_sticky(cudaError_t e);
/* Print "gpusim: MESSAGE" on stderr the first time `key` is seen (NULL: the message itself). */
void rt_once(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The configuration (NULL before the GPU is made). */
const struct gpu_config *rt_config(void);
/* cudaDeviceReset: the GPU and its allocations go; the next call makes a new one. */
void rt_reset(void);
/* Simulated time: the cycles of every launch so far (stream.c's events read it). */
uint64_t rt_cycles(void);
void rt_add_cycles(uint64_t c);

/* ---- register.c */
struct rt_module *rt_module_at(unsigned i);        /* registration order, NULL past the end */
unsigned rt_nmodules(void);
struct rt_kernel *rt_kernel_of(const void *host_fun);
struct rt_var *rt_var_of(const void *host_var);
/* The loaded module holding kernel k (under GPUSIM_PTX: the first file that defines it): 0,
   or a CUDA error with the message printed once. */
cudaError_t rt_kernel_module(struct rt_kernel *k, struct gs_module **mod);
cudaError_t rt_var_addr(struct rt_var *v, uint64_t *addr, uint64_t *size);
/* Load every module on the GPU (state.c calls it once the GPU is made). */
void rt_load_modules(struct gs_gpu *gpu);
void rt_unload_modules(void);

/* ---- error.c */
/* The model's status as the CUDA error a call returns; msg (the model's message) decides a
   kernel fault's kind and a refused launch's. */
cudaError_t rt_error_of(int gs_status, const char *msg);
const char *rt_error_name(cudaError_t e);

/* ---- launch.c */
cudaError_t rt_launch(const void *host_fun, dim3 grid, dim3 block, void **args, size_t shmem,
                      cudaStream_t stream);

/* ---- stats.c */
/* Open the statistics files the environment names (once; later GPUs, after cudaDeviceReset,
   write to the same files): 0, or -1 with the message in err. */
int  rt_stats_open(const struct gs_gpu *gpu, char *err, size_t errlen);
/* One launch of k (its statistics are the GPU's last), with the call's result. */
void rt_stats_launch(struct gs_gpu *gpu, const struct rt_kernel *k, dim3 grid, dim3 block,
                     size_t shmem, cudaError_t result);
/* The total line and the JSON file's end (at exit). */
void rt_stats_close(void);

/* ---- printf.c */
/* Device printf's destination for gpu from GPUSIM_PRINTF (stdout unless set): 0, or -1 with
   the message in err. */
int  rt_printf_attach(struct gs_gpu *gpu, char *err, size_t errlen);
void rt_printf_close(void);            /* at exit */

/* ---- device.c */
/* The device number check of every call naming one: 0 is the only device. */
cudaError_t rt_check_device(int dev);

/* ---- unsupported.c: every call the model does not support, its name and its stub */
struct rt_unsupported {
    const char *name;
    cudaError_t (*fn)(void);
};
extern const struct rt_unsupported rt_unsupported_calls[];
extern const unsigned rt_unsupported_n;

#endif
