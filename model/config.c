/*
 * config.c -- the configuration key table, file and override parsing, range and combination
 * checks. Defaults are the GTX480 (Fermi GF100) as in GPGPU-Sim's public gtx480 configuration
 * and Table 3 of 000_0da6b8b480bd0740.txt / Table I of 004_23e173f444f46134.txt.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"

#define OFF(f) offsetof(struct gpu_config, f)

static const struct conf_key keys[] = {
    { "name", CK_STR, OFF(name), 0, 0, "", "Configuration name, shown in reports." },
    { "num_sms", CK_U32, OFF(num_sms), 1, 1024, "SMs",
      "Streaming multiprocessors (GTX480: 15)." },
    { "max_threads_per_sm", CK_U32, OFF(max_threads_per_sm), 32, 65536, "threads",
      "Resident threads per SM (GTX480: 1536)." },
    { "max_warps_per_sm", CK_U32, OFF(max_warps_per_sm), 1, 2048, "warps",
      "Resident warps per SM (GTX480: 48); must equal max_threads_per_sm / 32." },
    { "max_ctas_per_sm", CK_U32, OFF(max_ctas_per_sm), 1, 256, "CTAs",
      "Resident CTAs (thread blocks) per SM (GTX480: 8)." },
    { "regs_per_sm", CK_U32, OFF(regs_per_sm), 1024, 1u << 24, "registers",
      "32-bit registers in an SM's register file (GTX480: 32768)." },
    { "shared_per_sm", CK_U32, OFF(shared_per_sm), 0, 1u << 24, "bytes",
      "Shared memory per SM (GTX480: 48 KB in the 48/16 KB split)." },
    { "max_threads_per_cta", CK_U32, OFF(max_threads_per_cta), 32, 65536, "threads",
      "Largest CTA a launch may ask for (Fermi: 1024)." },
    { "max_shared_per_cta", CK_U32, OFF(max_shared_per_cta), 0, 1u << 24, "bytes",
      "Largest static + dynamic shared memory of one CTA (Fermi: 48 KB)." },
    { "max_regs_per_thread", CK_U32, OFF(max_regs_per_thread), 16, 255, "registers",
      "Register limit per thread (Fermi: 63); a kernel needing more is an impossible launch." },
    { "reg_alloc_unit", CK_U32, OFF(reg_alloc_unit), 1, 4096, "registers",
      "Registers are allocated per warp in multiples of this (Fermi: 64 per warp)." },
    { "simt_stack_max", CK_U32, OFF(simt_stack_max), 4, 4096, "entries",
      "Functional reconvergence stack entries per warp; exceeding it stops the run." },
    { "dram_bytes", CK_U64, OFF(dram_bytes), 1u << 20, 1ull << 40, "bytes",
      "Device memory capacity (GTX480: 1536 MB)." },
    { "local_bytes_per_thread", CK_U64, OFF(local_bytes_per_thread), 0, 512u * 1024, "bytes",
      "Largest local memory (stack frame) a kernel may use per thread (Fermi: 512 KB)." },
    { "max_warp_insns", CK_U64, OFF(max_warp_insns), 0, ~0ull, "warp instructions",
      "Watchdog: stop a launch that issues more warp instructions than this (0 = no limit)." },
};

void conf_defaults(struct gpu_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "gtx480");
    c->num_sms = 15;
    c->max_threads_per_sm = 1536;
    c->max_warps_per_sm = 48;
    c->max_ctas_per_sm = 8;
    c->regs_per_sm = 32768;
    c->shared_per_sm = 48 * 1024;
    c->max_threads_per_cta = 1024;
    c->max_shared_per_cta = 48 * 1024;
    c->max_regs_per_thread = 63;
    c->reg_alloc_unit = 64;
    c->simt_stack_max = 256;
    c->dram_bytes = 1536ull << 20;
    c->local_bytes_per_thread = 512 * 1024;
    c->max_warp_insns = 20000000000ull;
}

const struct conf_key *conf_keys(unsigned *count)
{
    *count = sizeof keys / sizeof keys[0];
    return keys;
}

static const struct conf_key *find_key(const char *name)
{
    unsigned i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* Parse an unsigned integer with optional K/M/G suffix. Returns 0 on success. */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno)
        return -1;
    if (*end == 'K' || *end == 'M' || *end == 'G') {
        unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 30;
        if (v > (~0ull >> shift))
            return -1;
        v <<= shift;
        end++;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int set_value(struct gpu_config *c, const struct conf_key *k, const char *val,
                     const char *where, char *err, size_t errlen)
{
    uint64_t v;
    char *base = (char *)c + k->offset;
    if (k->kind == CK_STR) {
        if (strlen(val) == 0 || strlen(val) >= sizeof c->name) {
            snprintf(err, errlen, "%s: key '%s': value must be 1 to %zu characters", where,
                     k->name, sizeof c->name - 1);
            return -1;
        }
        snprintf(base, sizeof c->name, "%s", val);
        return 0;
    }
    if (parse_u64(val, &v)) {
        snprintf(err, errlen, "%s: key '%s': '%s' is not a non-negative integer", where, k->name, val);
        return -1;
    }
    if (v < k->min || v > k->max) {
        snprintf(err, errlen, "%s: key '%s': %llu is out of range [%llu, %llu]", where, k->name,
                 (unsigned long long)v, (unsigned long long)k->min, (unsigned long long)k->max);
        return -1;
    }
    if (k->kind == CK_U32)
        *(uint32_t *)(void *)base = (uint32_t)v;
    else
        *(uint64_t *)(void *)base = v;
    return 0;
}

static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* Apply "key = value" text (already without comment). */
static int apply_line(struct gpu_config *c, char *line, const char *where, char *err, size_t errlen)
{
    char *eq = strchr(line, '='), *key, *val;
    const struct conf_key *k;
    if (!eq) {
        snprintf(err, errlen, "%s: expected 'key = value', got '%s'", where, trim(line));
        return -1;
    }
    *eq = 0;
    key = trim(line);
    val = trim(eq + 1);
    k = find_key(key);
    if (!k) {
        snprintf(err, errlen, "%s: unknown configuration key '%s' (see docs/config.md)", where, key);
        return -1;
    }
    return set_value(c, k, val, where, err, errlen);
}

int conf_set(struct gpu_config *c, const char *kv, const char *where, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(kv) >= sizeof buf) {
        snprintf(err, errlen, "%s: setting too long", where);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", kv);
    return apply_line(c, buf, where, err, errlen);
}

int conf_load_file(struct gpu_config *c, const char *path, char *err, size_t errlen)
{
    char line[1024], where[300];
    unsigned lineno = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read configuration: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#'), *t;
        lineno++;
        if (hash)
            *hash = 0;
        t = trim(line);
        if (!*t)
            continue;
        snprintf(where, sizeof where, "%s:%u", path, lineno);
        if (apply_line(c, t, where, err, errlen)) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

int conf_check(const struct gpu_config *c, char *err, size_t errlen)
{
    if (c->max_warps_per_sm * 32u != c->max_threads_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_warps_per_sm' (%u) must equal "
                 "max_threads_per_sm / 32 (%u)", c->max_warps_per_sm, c->max_threads_per_sm / 32);
        return -1;
    }
    if (c->max_threads_per_cta > c->max_threads_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_threads_per_cta' (%u) exceeds "
                 "max_threads_per_sm (%u)", c->max_threads_per_cta, c->max_threads_per_sm);
        return -1;
    }
    if (c->max_threads_per_cta % 32) {
        snprintf(err, errlen, "configuration: key 'max_threads_per_cta' (%u) must be a multiple of 32",
                 c->max_threads_per_cta);
        return -1;
    }
    if (c->max_shared_per_cta > c->shared_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_shared_per_cta' (%u) exceeds shared_per_sm (%u)",
                 c->max_shared_per_cta, c->shared_per_sm);
        return -1;
    }
    if ((uint64_t)c->max_regs_per_thread * 32 > c->regs_per_sm) {
        snprintf(err, errlen, "configuration: key 'max_regs_per_thread' (%u): one warp would need "
                 "more than regs_per_sm (%u)", c->max_regs_per_thread, c->regs_per_sm);
        return -1;
    }
    return 0;
}

static void key_value(const struct gpu_config *c, const struct conf_key *k, char *buf, size_t n)
{
    const char *base = (const char *)c + k->offset;
    if (k->kind == CK_STR)
        snprintf(buf, n, "%s", base);
    else if (k->kind == CK_U32)
        snprintf(buf, n, "%u", *(const uint32_t *)(const void *)base);
    else
        snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)(const void *)base);
}

void conf_write(const struct gpu_config *c, void *fp)
{
    unsigned i;
    char v[80];
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        key_value(c, &keys[i], v, sizeof v);
        fprintf((FILE *)fp, "%s = %s\n", keys[i].name, v);
    }
}

void conf_write_doc(void *fp)
{
    FILE *f = fp;
    struct gpu_config d;
    unsigned i;
    char v[80];
    conf_defaults(&d);
    fprintf(f, "# Configuration keys\n\n"
            "Generated by `build/gpusim config --doc` from the key table in model/config.c; a test\n"
            "checks that this page matches it.\n\n"
            "Files are `key = value` lines; `#` starts a comment. Integers take an optional binary\n"
            "suffix K, M or G. `--set KEY=VALUE` overrides one key after the file is read. An unknown\n"
            "key, a malformed or out-of-range value, or an impossible combination stops the run with a\n"
            "message naming the key (and FILE:LINE).\n\n"
            "| key | default (gtx480) | range | unit | meaning |\n|---|---|---|---|---|\n");
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct conf_key *k = &keys[i];
        char range[64] = "text";
        key_value(&d, k, v, sizeof v);
        if (k->kind != CK_STR)
            snprintf(range, sizeof range, "%llu .. %llu", (unsigned long long)k->min,
                     (unsigned long long)k->max);
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->name, v, range, k->unit, k->doc);
    }
}
