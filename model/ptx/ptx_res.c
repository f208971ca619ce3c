/*
 * ptx_res.c -- the compiler's resource usage per kernel: parsing `ptxas -v`, running ptxas,
 * and the record file next to a PTX (see ptx_res.h; docs/ptx.md "Register counts").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptx_res.h"
#include "ptx.h"
#include "base/infile.h"

/* The oldest --gpu-name the CUDA 13 ptxas accepts; PTX written for an older target (sm_20 from
   an old nvcc) is compiled for this one instead (PTX is forward compatible). */
#define RES_FALLBACK_TARGET "sm_75"

uint64_t ptx_res_hash(const char *text, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)text[i]) * 0x100000001b3ull;
    return h;
}

static struct ptx_res_kernel *res_get(struct ptx_res *r, const char *name, size_t n)
{
    uint32_t i;
    if (n >= sizeof r->k[0].name)
        n = sizeof r->k[0].name - 1;
    for (i = 0; i < r->nkernels; i++)
        if (strlen(r->k[i].name) == n && !strncmp(r->k[i].name, name, n))
            return &r->k[i];
    if (r->nkernels == PTX_RES_MAX_KERNELS)
        return NULL;
    memcpy(r->k[i].name, name, n);
    r->k[i].name[n] = 0;
    r->nkernels++;
    return &r->k[i];
}

/* The text between the first pair of single quotes of s (its length in *n), or NULL. */
static const char *quoted(const char *s, size_t *n)
{
    const char *a = strchr(s, '\''), *b = a ? strchr(a + 1, '\'') : NULL;
    if (!a || !b)
        return NULL;
    *n = (size_t)(b - a - 1);
    return a + 1;
}

static uint32_t number_before(const char *line, const char *word)
{
    const char *p = strstr(line, word);
    if (!p)
        return 0;
    while (p > line && p[-1] == ' ')
        p--;
    while (p > line && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return (uint32_t)strtoul(p, NULL, 10);
}

/* One line of ptxas -v.  cur is the entry function the lines belong to ("Compiling entry
   function 'k'"), props the function of the last "Function properties for k". */
static void ptxas_line(struct ptx_res *r, const char *line, struct ptx_res_kernel **cur,
                       struct ptx_res_kernel **props)
{
    const char *name;
    size_t n;
    if (strstr(line, "Compiling entry function") && (name = quoted(line, &n))) {
        *cur = res_get(r, name, n);
        const char *t = strstr(line, "for '");
        if (t && (name = quoted(t + 3, &n)) && n < sizeof r->target) {
            memcpy(r->target, name, n);
            r->target[n] = 0;
        }
    } else if ((name = strstr(line, "Function properties for "))) {
        name += strlen("Function properties for ");
        n = strcspn(name, " \r\n");
        *props = NULL;
        for (uint32_t i = 0; i < r->nkernels; i++)
            if (strlen(r->k[i].name) == n && !strncmp(r->k[i].name, name, n))
                *props = &r->k[i];
    } else if (strstr(line, "bytes stack frame") && *props) {
        (*props)->stack = number_before(line, "bytes stack frame");
        (*props)->spill_stores = number_before(line, "bytes spill stores");
        (*props)->spill_loads = number_before(line, "bytes spill loads");
        *props = NULL;
    } else if (strstr(line, "Used ") && strstr(line, " registers") && *cur) {
        (*cur)->regs = number_before(line, "registers");
        (*cur)->shared = number_before(line, "bytes smem");
    }
}

int ptx_res_from_ptxas(const char *out, struct ptx_res *r, char *err, size_t errlen)
{
    struct ptx_res_kernel *cur = NULL, *props = NULL;
    char line[512];
    memset(r, 0, sizeof *r);
    while (*out) {
        size_t n = strcspn(out, "\n");
        size_t m = n < sizeof line - 1 ? n : sizeof line - 1;
        memcpy(line, out, m);
        line[m] = 0;
        ptxas_line(r, line, &cur, &props);
        out += n + (out[n] == '\n');
    }
    if (!r->nkernels)
        return ptx_errf(err, errlen, "no entry function in the ptxas output");
    return 0;
}

/* Run argv, its stdout and stderr into buf (NUL-terminated, truncated to len - 1).  The exit
   status, or 127 when the program could not be started. */
static int run_capture(char *const argv[], char *buf, size_t len)
{
    int fd[2], status = 0;
    size_t got = 0;
    pid_t pid;
    if (pipe(fd))
        return 127;
    if ((pid = fork()) < 0) {
        close(fd[0]); close(fd[1]);
        return 127;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]); close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    for (;;) {
        char tmp[4096];
        ssize_t k = read(fd[0], tmp, sizeof tmp);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        size_t keep = got + (size_t)k < len ? (size_t)k : len - 1 - got;
        memcpy(buf + got, tmp, keep);
        got += keep;
    }
    close(fd[0]);
    buf[got] = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The ptxas to run, i = 0, 1: $GPUSIM_PTXAS alone when set, else ptxas from PATH, then the
   CUDA toolkit's default place. */
static const char *ptxas_path(unsigned i)
{
    const char *env = getenv("GPUSIM_PTXAS");
    if (env && env[0])
        return i ? NULL : env;
    return i ? "/usr/local/cuda/bin/ptxas" : "ptxas";
}

static int ptxas_once(const char *path, const char *target, char *out, size_t outlen)
{
    int rc = 127;
    for (unsigned i = 0; i < 2 && rc == 127 && ptxas_path(i); i++) {
        char *argv[] = { (char *)ptxas_path(i), "-v", "--gpu-name", (char *)target, "-o",
                         "/dev/null", (char *)path, NULL };
        rc = run_capture(argv, out, outlen);
    }
    return rc;
}

static void ptxas_version(struct ptx_res *r)
{
    char out[1024], *last = NULL, *p;
    int rc = 127;
    for (unsigned i = 0; i < 2 && rc == 127 && ptxas_path(i); i++) {
        char *argv[] = { (char *)ptxas_path(i), "--version", NULL };
        rc = run_capture(argv, out, sizeof out);
    }
    if (rc)
        return;
    for (p = strtok(out, "\n"); p; p = strtok(NULL, "\n"))
        if (!last || strstr(p, "release"))     /* "Cuda compilation tools, release X, VX.Y.Z" */
            last = p;
    if (last)
        snprintf(r->tool, sizeof r->tool, "%s", last);
}

int ptx_res_ptxas_version(char *buf, size_t n)
{
    struct ptx_res *r = calloc(1, sizeof *r);
    int rc = 1;
    if (r) {
        ptxas_version(r);
        if (r->tool[0]) {
            snprintf(buf, n, "%s", r->tool);
            rc = 0;
        }
    }
    free(r);
    return rc;
}

/* The first line of ptxas output that says what went wrong. */
static void first_error(const char *out, char *msg, size_t len)
{
    const char *p = strstr(out, "error");
    if (!p)
        p = strstr(out, "fatal");
    if (!p)
        p = out;
    while (p > out && p[-1] != '\n')
        p--;
    snprintf(msg, len, "%.*s", (int)strcspn(p, "\n"), p);
}

static int run_ptxas_out(const char *path, const char *target, struct ptx_res *r, char *out,
                         size_t outlen, char *err, size_t errlen)
{
    char msg[200];
    int rc = ptxas_once(path, target, out, outlen);
    if (rc == 127)
        return 1;
    if (rc && strstr(out, "nsupported gpu architecture") && strcmp(target, RES_FALLBACK_TARGET))
        rc = ptxas_once(path, RES_FALLBACK_TARGET, out, outlen);
    if (rc) {
        first_error(out, msg, sizeof msg);
        return ptx_errf(err, errlen, "ptxas failed on %s (exit %d): %s", path, rc, msg);
    }
    if (ptx_res_from_ptxas(out, r, msg, sizeof msg))
        return ptx_errf(err, errlen, "ptxas on %s: %s", path, msg);
    ptxas_version(r);
    return 0;
}

int ptx_res_run_ptxas(const char *path, const char *target, struct ptx_res *r, char *err,
                      size_t errlen)
{
    enum { OUT = 1 << 16 };
    char msg[256], *out = malloc(OUT);
    int rc;
    if (!out)
        return ptx_errf(err, errlen, "out of host memory");
    rc = run_ptxas_out(path, target, r, out, OUT, msg, sizeof msg);
    free(out);
    if (rc > 0)
        return 1;
    return rc ? ptx_errf(err, errlen, "%s", msg) : 0;
}

int ptx_res_run_ptxas_text(const char *text, size_t len, const char *target, struct ptx_res *r,
                           char *err, size_t errlen)
{
    char tmp[] = "/tmp/gpusim-ptxas-XXXXXX";
    int fd = mkstemp(tmp), rc, ok;
    if (fd < 0)
        return ptx_errf(err, errlen, "cannot write a temporary file for ptxas");
    ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    rc = ok ? ptx_res_run_ptxas(tmp, target, r, err, errlen)
            : ptx_errf(err, errlen, "cannot write a temporary file for ptxas");
    unlink(tmp);
    return rc;
}

void ptx_res_write(const struct ptx_res *r, const char *ptx_name, FILE *f)
{
    fprintf(f, "# Resource usage of %s as ptxas compiles it, written by `make ptx` (gpusim res);\n"
            "# gpusim sizes registers per thread from it (docs/ptx.md). Do not edit by hand:\n"
            "# a record whose ptx_fnv1a differs from the PTX's is stale and not used.\n",
            ptx_name);
    fprintf(f, "tool      %s\ntarget    %s\nptx_fnv1a %016llx\n", r->tool[0] ? r->tool : "ptxas",
            r->target[0] ? r->target : "?", (unsigned long long)r->ptx_hash);
    fprintf(f, "#         name regs smem_bytes stack_bytes spill_store_bytes spill_load_bytes%s\n",
            r->nkernels && r->k[0].text_hash ? " text_fnv1a" : "");
    for (uint32_t i = 0; i < r->nkernels; i++) {
        fprintf(f, "kernel    %s %u %u %u %u %u", r->k[i].name, r->k[i].regs, r->k[i].shared,
                r->k[i].stack, r->k[i].spill_stores, r->k[i].spill_loads);
        if (r->k[i].text_hash)
            fprintf(f, " %016llx", (unsigned long long)r->k[i].text_hash);
        fprintf(f, "\n");
    }
}

/* The blank-separated words of line (cut in place) into w[0 .. max); their count, or max + 1
   when there are more. */
static unsigned words(char *line, char **w, unsigned max)
{
    unsigned n = 0;
    char *p = line;
    for (;;) {
        p += strspn(p, " \t\r");
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        w[n++] = p;
        p += strcspn(p, " \t\r");
        if (*p)
            *p++ = 0;
    }
}

/* A decimal count of 0 .. UINT32_MAX, digits only (no sign, no overflow): 0, or -1. */
static int count_of(const char *s, uint32_t *v)
{
    uint64_t x = 0;
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
        return -1;
    for (; *s; s++)
        x = x * 10 + (uint64_t)(*s - '0');
    if (x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

/* A hash: 1 to 16 hex digits. 0, or -1. */
static int hash_of(const char *s, uint64_t *h)
{
    size_t n = strlen(s);
    if (n == 0 || n > 16 || strspn(s, "0123456789abcdefABCDEF") != n)
        return -1;
    *h = strtoull(s, NULL, 16);
    return 0;
}

/* "kernel NAME REGS SMEM STACK SPILL_ST SPILL_LD [TEXT_FNV1A]", its words after the key. */
static int kernel_line(struct ptx_res *r, char **w, unsigned n, const char *path, unsigned ln,
                       char *err, size_t errlen)
{
    static const char *const what[5] = { "registers", "shared memory bytes", "stack bytes",
                                          "spill store bytes", "spill load bytes" };
    struct ptx_res_kernel *k;
    uint32_t v[5];
    uint64_t h = 0;
    if (n < 6 || n > 7)
        return ptx_errf(err, errlen, "%s:%u: a kernel line is 'kernel NAME REGS SMEM STACK "
                        "SPILL_ST SPILL_LD [TEXT_FNV1A]' (%s%u words after 'kernel')", path, ln,
                        n > 8 ? "at least " : "", n);
    if (strlen(w[0]) >= sizeof r->k[0].name)
        return ptx_errf(err, errlen, "%s:%u: kernel name of %zu characters (at most %zu)", path,
                        ln, strlen(w[0]), sizeof r->k[0].name - 1);
    for (unsigned i = 0; i < 5; i++)
        if (count_of(w[1 + i], &v[i]))
            return ptx_errf(err, errlen, "%s:%u: kernel %s: %s '%s' is not a count (0 to "
                            "4294967295)", path, ln, w[0], what[i], w[1 + i]);
    if (v[0] == 0 || v[0] > PTX_RES_MAX_REGS)
        return ptx_errf(err, errlen, "%s:%u: kernel %s: %u registers per thread (ptxas "
                        "allocates 1 to %u)", path, ln, w[0], v[0], PTX_RES_MAX_REGS);
    if (n == 7 && hash_of(w[6], &h))
        return ptx_errf(err, errlen, "%s:%u: kernel %s: text hash '%s' is not 1 to 16 hex "
                        "digits", path, ln, w[0], w[6]);
    if (ptx_res_find(r, w[0]))
        return ptx_errf(err, errlen, "%s:%u: kernel %s recorded twice", path, ln, w[0]);
    if (!(k = res_get(r, w[0], strlen(w[0]))))
        return ptx_errf(err, errlen, "%s:%u: more than %d kernels", path, ln, PTX_RES_MAX_KERNELS);
    k->regs = v[0]; k->shared = v[1]; k->stack = v[2]; k->spill_stores = v[3];
    k->spill_loads = v[4];
    k->text_hash = h;
    return 0;
}

static int read_line(struct ptx_res *r, char *line, const char *path, unsigned ln, char *err,
                     size_t errlen)
{
    char *w[9], *t = line + strspn(line, " \t\r");
    unsigned n;
    if (*t == '#' || *t == 0)
        return 0;
    if (!strncmp(t, "tool", 4) && (!t[4] || t[4] == ' ' || t[4] == '\t' || t[4] == '\r')) {
        const char *v = t + 4 + strspn(t + 4, " \t");     /* the rest of the line, as is */
        snprintf(r->tool, sizeof r->tool, "%.*s", (int)strcspn(v, "\r"), v);
        return 0;
    }
    n = words(t, w, 9);
    if (!strcmp(w[0], "target") && n == 2 && strlen(w[1]) < sizeof r->target)
        snprintf(r->target, sizeof r->target, "%s", w[1]);
    else if (!strcmp(w[0], "target"))
        return ptx_errf(err, errlen, "%s:%u: 'target NAME' (one word of at most %zu "
                        "characters)", path, ln, sizeof r->target - 1);
    else if (!strcmp(w[0], "ptx_fnv1a") && (n != 2 || hash_of(w[1], &r->ptx_hash)))
        return ptx_errf(err, errlen, "%s:%u: 'ptx_fnv1a HASH' (1 to 16 hex digits)", path, ln);
    else if (!strcmp(w[0], "kernel"))
        return kernel_line(r, w + 1, n - 1, path, ln, err, errlen);
    else if (strcmp(w[0], "ptx_fnv1a"))
        return ptx_errf(err, errlen, "%s:%u: expected 'tool', 'target', 'ptx_fnv1a' or 'kernel NAME "
                    "REGS SMEM STACK SPILL_ST SPILL_LD'", path, ln);
    return 0;
}

int ptx_res_parse(char *buf, size_t len, const char *path, struct ptx_res *r, char *err,
                  size_t errlen)
{
    unsigned ln = 0, nul = infile_nul(buf, len);
    char *p = buf, *line;
    memset(r, 0, sizeof *r);
    if (nul)
        return ptx_errf(err, errlen, "%s:%u: a NUL byte (a record is text)", path, nul);
    while ((line = infile_line(&p)) != NULL)
        if (read_line(r, line, path, ++ln, err, errlen))
            return -1;
    if (!r->ptx_hash || !r->nkernels)
        return ptx_errf(err, errlen, "%s: a record needs a ptx_fnv1a line and at least one kernel "
                    "line", path);
    return 0;
}

int ptx_res_read(const char *path, struct ptx_res *r, char *err, size_t errlen)
{
    size_t len = 0;
    char *buf;
    int rc;
    memset(r, 0, sizeof *r);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return 1;
    if (!(buf = infile_read(path, "register record", PTX_RES_FILE_MAX, &len, err, errlen)))
        return -1;
    rc = ptx_res_parse(buf, len, path, r, err, errlen);
    free(buf);
    return rc;
}

void ptx_res_path_ext(const char *ptx_path, const char *ext, char *out, size_t outlen)
{
    size_t n = strlen(ptx_path);
    if (n >= 4 && !strcmp(ptx_path + n - 4, ".ptx"))
        n -= 4;
    snprintf(out, outlen, "%.*s%s", (int)n, ptx_path, ext);
}

void ptx_res_path(const char *ptx_path, char *out, size_t outlen)
{
    ptx_res_path_ext(ptx_path, ".res", out, outlen);
}

const struct ptx_res_kernel *ptx_res_find(const struct ptx_res *r, const char *kernel)
{
    for (uint32_t i = 0; r && i < r->nkernels; i++)
        if (!strcmp(r->k[i].name, kernel))
            return &r->k[i];
    return NULL;
}
