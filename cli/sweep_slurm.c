/*
 * sweep_slurm.c -- gpusim sweep --slurm (docs/sweeps.md "On a Slurm cluster"): an array job
 * with one task a point and a merge job that waits for it, written as DIR/sweep.sbatch and
 * DIR/merge.sbatch and submitted with sbatch. The merge runs after the array whatever its
 * tasks' exit status (afterany), so it is the merge that names a point that failed or is
 * missing. --slurm-opt lines become #SBATCH lines of both scripts (partition, time limit,
 * account), one line each: an option holding a newline or another control character is
 * refused; --jobs N throttles the array to N tasks at a time; --dry-run writes the scripts
 * and prints the commands without submitting.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sweep.h"

/* s single-quoted for sh. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* The #SBATCH lines both scripts share: the log, the working directory, the user's options. */
static void sbatch_common(FILE *f, const struct sw_run *r, const char *name, const char *log)
{
    fprintf(f, "#SBATCH --job-name=%s\n#SBATCH --output=%s/logs/%s\n#SBATCH --chdir=%s\n", name,
            r->dir, log, r->cwd);
    for (int i = 0; i < r->nslurm_opts; i++)
        fprintf(f, "#SBATCH %s\n", r->slurm_opts[i]);
}

/* The command line every task runs: gpusim sweep DIR/sweep.spec ARG... --out DIR. */
static void gpusim_line(FILE *f, const struct sw_run *r, const char *args)
{
    fprintf(f, "exec ");
    sh_quote(f, r->exe);
    fprintf(f, " sweep ");
    sh_quote(f, r->spec);
    fprintf(f, " %s --out ", args);
    sh_quote(f, r->dir);
    if (r->cache) {
        fprintf(f, " --cache ");
        sh_quote(f, r->cache);
    }
    fprintf(f, "\n");
}

static int write_script(const struct sw_run *r, const char *path, int array)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fprintf(stderr, "gpusim sweep: cannot write %s: %s\n", path, strerror(errno)), -1;
    fprintf(f, "#!/bin/sh\n# Written by gpusim sweep --slurm: %s of the %lu points of %s.\n",
            array ? "one array task for each" : "the merge", r->npoints, r->spec);
    if (array) {
        fprintf(f, "#SBATCH --array=0-%lu", r->npoints - 1);
        if (r->jobs)
            fprintf(f, "%%%d", r->jobs);          /* at most N tasks at a time */
        fputc('\n', f);
        sbatch_common(f, r, "gpusim-sweep", "point-%a.out");
        gpusim_line(f, r, "--point \"$SLURM_ARRAY_TASK_ID\"");
    } else {
        sbatch_common(f, r, "gpusim-sweep-merge", "merge.out");
        gpusim_line(f, r, "--merge");
    }
    return fclose(f) ? -1 : 0;
}

/* sbatch --parsable [dependency] SCRIPT: the job id into id, 0; or -1 after sbatch's error. */
static int sbatch(const char *dep, const char *script, char *id, size_t n)
{
    const char *argv[] = {"sbatch", "--parsable", dep ? dep : script, dep ? script : NULL, NULL};
    int fd[2], st;
    ssize_t got = 0, k;
    pid_t pid;
    if (pipe(fd))
        return -1;
    fflush(stdout);
    if ((pid = fork()) == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execvp("sbatch", (char *const *)argv);
        fprintf(stderr, "gpusim sweep: cannot run sbatch: %s (--slurm needs Slurm's client, "
                "Debian package slurm-client, on a machine of the cluster)\n", strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    while (pid > 0 && (size_t)got < n - 1 && (k = read(fd[0], id + got, n - 1 - got)) > 0)
        got += k;
    close(fd[0]);
    id[got] = 0;
    id[strspn(id, "0123456789")] = 0;          /* "123" or "123;cluster" */
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || !id[0])
        return fprintf(stderr, "gpusim sweep: sbatch %s failed\n", script), -1;
    return 0;
}

/* The first control character of t (a newline, a tab, ...), or 0. */
static int control_char(const char *t)
{
    for (const unsigned char *c = (const unsigned char *)t; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return *c;
    return 0;
}

int sw_sbatch_path_ok(const char *what, const char *p)
{
    if (!p[strcspn(p, " %")] && !control_char(p))
        return 1;
    fprintf(stderr, "gpusim sweep: --slurm: the %s '%s' holds white space, a control character "
            "or a '%%', which #SBATCH lines cannot carry; use another directory\n", what, p);
    return 0;
}

int sw_slurm_opt_ok(const char *opt)
{
    int c = control_char(opt);
    if (*opt && !c)
        return 1;
    if (!*opt)
        fprintf(stderr, "gpusim sweep: --slurm-opt: an empty option (it would be an empty "
                "#SBATCH line)\n");
    else
        fprintf(stderr, "gpusim sweep: --slurm-opt: a control character (byte 0x%02x) in the "
                "option; each --slurm-opt is one #SBATCH line, a newline would start another "
                "line of the script\n", c);
    return 0;
}

int sw_slurm(const struct sw_run *r)
{
    char array[PATH_MAX], merge[PATH_MAX], id[64], mid[64], dep[96];
    snprintf(array, sizeof array, "%.3000s/sweep.sbatch", r->dir);
    snprintf(merge, sizeof merge, "%.3000s/merge.sbatch", r->dir);
    if (!sw_sbatch_path_ok("output directory", r->dir) ||
        !sw_sbatch_path_ok("working directory", r->cwd))
        return 2;
    for (int i = 0; i < r->nslurm_opts; i++)    /* checked on the command line too */
        if (!sw_slurm_opt_ok(r->slurm_opts[i]))
            return 2;
    if (write_script(r, array, 1) || write_script(r, merge, 0))
        return 2;
    if (r->dry_run) {
        printf("gpusim sweep: wrote %s and %s (%lu points); to submit:\n  jobid=$(sbatch "
               "--parsable %s)\n  sbatch --parsable --dependency=afterany:$jobid %s\n", array,
               merge, r->npoints, array, merge);
        return 0;
    }
    if (sbatch(NULL, array, id, sizeof id))
        return 2;
    snprintf(dep, sizeof dep, "--dependency=afterany:%s", id);
    if (sbatch(dep, merge, mid, sizeof mid))
        return fprintf(stderr, "gpusim sweep: the array job %s is queued without its merge; "
                       "after it: sbatch %s\n", id, merge), 2;
    printf("gpusim sweep: %lu points as Slurm array job %s, merge job %s after it\n  logs: "
           "%s/logs/point-I.out, %s/logs/merge.out\n  results: %s/results.csv when the merge "
           "job ends\n", r->npoints, id, mid, r->dir, r->dir, r->dir);
    return 0;
}
