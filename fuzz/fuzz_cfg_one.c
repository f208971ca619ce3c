/*
 * fuzz_cfg_one.c -- one fuzz input through the configuration parser, both ways a user gives one:
 *   1. as a configuration file (conf_load_text: what conf_load_file does with a file's bytes),
 *      then the combination checks (conf_check) and the load-time check of every block
 *      (blk_conf_check: each instance on every SM and the memory system, naming the keys behind
 *      a failure, as gs_init does); a configuration that passes must also
 *      survive its own text: conf_write's output must load, check and write back unchanged;
 *   2. as --set lines (the first FZ_SETS lines, each one override) through gs_init, which
 *      applies them over the defaults, checks the result and sets the GPU up.
 * Bounds: none needed -- the parser is linear in its input, gs_init allocates only what the
 * configuration sizes (the fuzzer's -rss_limit_mb catches a configuration that asks for too
 * much) and nothing is run. Every call must succeed or fail with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_one.h"
#include "base/config.h"
#include "gpu/blocks.h"
#include "gpu/gpusim.h"

#define FZ_SETS 64                /* --set lines given to gs_init at most */

static int report(const char *what, int rc, const char *err)
{
    if (rc == 0 || (rc == -1 && err[0]))
        return 0;
    fprintf(stderr, "fuzz_cfg: %s returned %d with message \"%s\"\n", what, rc, err);
    return 1;
}

/* Every block's configuration derived from c, checked as a launch checks it. */
static char *written(const struct gpu_config *c, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    conf_write(c, f);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A configuration that checked must read back from its own text as itself. */
static int round_trip(const struct gpu_config *c)
{
    struct gpu_config d;
    size_t n1, n2 = 0;
    char *t1 = written(c, &n1), *t2 = NULL, err[512] = "";
    int bad;
    conf_defaults(&d);
    bad = !t1 || conf_load_text(&d, t1, n1, "written", err, sizeof err) ||
          conf_check(&d, err, sizeof err) || !(t2 = written(&d, &n2)) || n1 != n2 ||
          memcmp(t1, t2, n1) != 0;
    if (bad)
        fprintf(stderr, "fuzz_cfg: the configuration does not read back as itself: %s\n--- "
                "written\n%s--- read back\n%s", err, t1 ? t1 : "", t2 ? t2 : "");
    free(t1);
    free(t2);
    return bad;
}

static int as_file(const uint8_t *data, size_t size)
{
    struct gpu_config c;
    char err[512] = "";
    int rc;
    conf_defaults(&c);
    rc = conf_load_text(&c, (const char *)data, size, "fuzz.cfg", err, sizeof err);
    if (rc)
        return report("conf_load_text", rc, err);
    rc = conf_check(&c, err, sizeof err);
    if (rc)
        return report("conf_check", rc, err);
    rc = blk_conf_check(&c, NULL, err, sizeof err);
    if (rc)
        return report("blk_conf_check", rc, err);
    return round_trip(&c);
}

/* The first FZ_SETS lines as --set overrides through gs_init. */
static int as_sets(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *p, *sets[FZ_SETS], err[512] = "";
    struct gs_gpu *g = NULL;
    int n = 0, rc;
    if (!text)
        return 1;
    memcpy(text, data, size);
    text[size] = 0;
    for (p = text; n < FZ_SETS && *p; ) {
        sets[n++] = p;
        p += strcspn(p, "\n");
        if (*p)
            *p++ = 0;
    }
    rc = gs_init(&g, NULL, (const char *const *)sets, n, err, sizeof err);
    free(text);
    gs_destroy(g);
    if (rc == GS_OK || (rc > 0 && rc < GS_ERR_COUNT && err[0]))
        return 0;
    fprintf(stderr, "fuzz_cfg: gs_init returned %d (%s) with message \"%s\"\n", rc,
            gs_status_name(rc), err);
    return 1;
}

int fuzz_cfg_one(const uint8_t *data, size_t size)
{
    return as_file(data, size) + as_sets(data, size);
}
