/*
 * page_out.c -- the architect's page written (page.h): the same tables as Markdown
 * (page.md) and HTML (page.html, self-contained: styles and the plots inline), a CSV of every
 * run (page.csv), the plots drawn by gnuplot (page-*.svg from the data files and scripts in DIR/plots), and
 * the summary table printed. No host time or date is written, so equal runs give equal bytes.
 * Every text in page.html is escaped (html_text): a configuration's name or path is text there,
 * never markup.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/infile.h"
#include "page.h"

extern char **environ;

enum fmt { F_MD, F_HTML };
#define MAXCOL 40
#define CELL 96

struct row { unsigned n; char c[MAXCOL][CELL]; };

static void cell(struct row *r, const char *fmt, double v)
{
    if (r->n < MAXCOL)
        snprintf(r->c[r->n++], CELL, fmt, v);
}

static void cells(struct row *r, const char *s)
{
    if (r->n < MAXCOL)
        snprintf(r->c[r->n++], CELL, "%s", s);
}

/* The first n bytes of s as HTML text: &, <, > and " escaped. */
static void html_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++)
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
}

/* s between <tag> and </tag>, escaped. */
static void html_elem(FILE *f, const char *tag, const char *s)
{
    fprintf(f, "<%s>", tag);
    html_text(f, s, strlen(s));
    fprintf(f, "</%s>", tag);
}

/* A row of a table; head: the header (and, in Markdown, its rule). */
static void t_row(FILE *f, enum fmt t, const struct row *r, int head)
{
    if (t == F_HTML) {
        fputs("<tr>", f);
        for (unsigned i = 0; i < r->n; i++)
            html_elem(f, head ? "th" : "td", r->c[i]);
        fputs("</tr>\n", f);
        return;
    }
    for (unsigned i = 0; i < r->n; i++)
        fprintf(f, "| %s ", r->c[i]);
    fputs("|\n", f);
    for (unsigned i = 0; head && i < r->n; i++)
        fputs(i + 1 < r->n ? "|---" : "|---|\n", f);
}

/* A table's start: its id (HTML) and its header row h. */
static void t_open(FILE *f, enum fmt t, const char *id, const struct row *h)
{
    if (t == F_HTML)
        fprintf(f, "<table id=\"%s\">\n", id);
    t_row(f, t, h, 1);
}

static void t_close(FILE *f, enum fmt t)
{
    fputs(t == F_HTML ? "</table>\n" : "\n", f);
}

static void heading(FILE *f, enum fmt t, const char *s)
{
    if (t == F_HTML) {
        html_elem(f, "h2", s);
        fputc('\n', f);
    } else
        fprintf(f, "\n## %s\n\n", s);
}

static void para(FILE *f, enum fmt t, const char *s)
{
    if (t == F_HTML) {
        html_elem(f, "p", s);
        fputc('\n', f);
    } else
        fprintf(f, "%s\n\n", s);
}

/* ------------------------------------------------------------------ tables */

static void summary(FILE *f, enum fmt t, const struct page *p)
{
    struct row h = {0};
    const char *cols[] = {"mechanism", "group", "ok / n/a / failed", "cycles", "warp IPC",
                          "speed-up"};
    for (unsigned i = 0; i < sizeof cols / sizeof *cols; i++)
        cells(&h, cols[i]);
    for (unsigned c = 0; c < NCAT; c++)
        if (c != CAT_APPS || p->r.napps)          /* the applications' column: with --apps */
            cells(&h, page_cat_names[c]);
    cells(&h, "storage B/SM");
    cells(&h, "area % SM");
    t_open(f, t, "summary", &h);
    for (unsigned m = 0; m < p->nm; m++) {
        struct row r = {0};
        uint64_t cyc, wi;
        char n[CELL];
        page_totals(p, m, &cyc, &wi);
        cells(&r, p->m[m]->name);
        cells(&r, p->m[m]->group);
        snprintf(n, sizeof n, "%u / %u / %u", p->ok[m], p->na[m], p->bad[m]);
        cells(&r, n);
        cell(&r, "%.0f", (double)cyc);
        cell(&r, "%.2f", rep_ratio(wi, cyc));
        for (unsigned i = 0; i <= NCAT; i++) {      /* overall first, then per category */
            double g = p->gm[m][i == 0 ? NCAT : i - 1];
            if (i - 1 == CAT_APPS && !p->r.napps)
                continue;
            if (g > 0)
                cell(&r, "%.3f", g);
            else
                cells(&r, "-");
        }
        cell(&r, "%.0f", p->bytes[m]);
        cell(&r, "%.3f", p->area[m]);
        t_row(f, t, &r, 0);
    }
    t_close(f, t);
}

/* Speed-up per kernel (rows) and mechanism (columns, base left out). */
static void per_kernel(FILE *f, enum fmt t, const struct page *p)
{
    struct row h = {0};
    cells(&h, "kernel");
    cells(&h, "category");
    cells(&h, "base cycles");
    for (unsigned m = 1; m < p->nm; m++)
        cells(&h, p->m[m]->name);
    t_open(f, t, "kernels", &h);
    for (unsigned k = 0; k < page_rows(p); k++) {
        struct row r = {0};
        cells(&r, page_row_name(p, k));
        cells(&r, page_cat_names[p->cat[k]]);
        cell(&r, "%.0f", (double)page_res(p, k, 0)->st.cycles);
        for (unsigned m = 1; m < p->nm; m++) {
            int rc = page_res(p, k, m)->rc;
            if (page_speedup(p, k, m) > 0)
                cell(&r, "%.2f", page_speedup(p, k, m));
            else
                cells(&r, mech_result_word(rc));
        }
        t_row(f, t, &r, 0);
    }
    t_close(f, t);
}

/* Each application's kernels with most cycles under base (cli/app.h: r->app's lines). */
static void app_kernels(FILE *f, enum fmt t, const struct page *p)
{
    struct row h = {0};
    cells(&h, "application");
    cells(&h, "base cycles");
    cells(&h, "kernels with most cycles (share of base's)");
    t_open(f, t, "applications", &h);
    for (unsigned k = p->r.n; k < page_rows(p); k++) {
        const struct result *x = page_res(p, k, 0);
        struct row r = {0};
        char top[CELL] = "";
        const char *s = x->app;
        while ((s = strstr(s, "\nkernel ")) != NULL) {
            unsigned long long c;
            int at = 0;
            s++;
            if (sscanf(s, "kernel %llu %n", &c, &at) == 1 && at)
                snprintf(top + strlen(top), sizeof top - strlen(top), "%s%.*s %.0f%%",
                         top[0] ? "; " : "", (int)strcspn(s + at, "\n"), s + at,
                         100.0 * rep_ratio(c, x->st.cycles));
        }
        cells(&r, page_row_name(p, k));
        cell(&r, "%.0f", (double)x->st.cycles);
        cells(&r, x->rc ? mech_result_word(x->rc) : top);
        t_row(f, t, &r, 0);
    }
    t_close(f, t);
}

/* Scheduler cycles by outcome under each mechanism, in % of base's over the same kernels. */
static void stalls(FILE *f, enum fmt t, const struct page *p)
{
    struct row h = {0};
    cells(&h, "mechanism");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        cells(&h, gs_stall_names[c]);
    cells(&h, "all");
    t_open(f, t, "stalls", &h);
    for (unsigned m = 0; m < p->nm; m++) {
        struct row r = {0};
        uint64_t b = page_sched_base(p, m);
        cells(&r, p->m[m]->name);
        for (unsigned c = 0; c <= GS_STALL_KINDS; c++)
            cell(&r, "%.1f", 100.0 * rep_ratio(page_sched(p, m, c), b));
        t_row(f, t, &r, 0);
    }
    t_close(f, t);
}

static void mech_list(FILE *f, enum fmt t, const struct page *p)
{
    struct row h = {0};
    cells(&h, "mechanism");
    cells(&h, "what");
    cells(&h, "--set");
    t_open(f, t, "mechanisms", &h);
    for (unsigned m = 0; m < p->nm; m++) {
        struct row r = {0};
        char sets[CELL] = "";
        for (unsigned i = 0; i < MECH_MAX_SETS && p->m[m]->set[i]; i++)
            snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s", i ? " " : "",
                     p->m[m]->set[i]);
        cells(&r, p->m[m]->name);
        if (r.n < MAXCOL)
            snprintf(r.c[r.n++], CELL, "%.*s", CELL - 1, p->m[m]->what);
        cells(&r, p->m[m]->regroup ? "(a regrouping: profile, order, redirect)" : sets);
        t_row(f, t, &r, 0);
    }
    t_close(f, t);
}

/* Runs that failed or do not apply, with the first line of why. */
static void problems(FILE *f, enum fmt t, const struct page *p)
{
    for (unsigned k = 0; k < page_rows(p); k++)
        for (unsigned m = 0; m < p->nm; m++) {
            const struct result *x = page_res(p, k, m);
            const char *msg = result_msg(x);
            char head[256];
            if (!x->rc)
                continue;
            snprintf(head, sizeof head, "%s under %s: %s: ", page_row_name(p, k), p->m[m]->name,
                     mech_result_word(x->rc));
            if (t == F_HTML) {
                fputs("<li>", f);
                html_text(f, head, sizeof head);
                html_text(f, msg, strcspn(msg, "\n"));
                fputs("</li>\n", f);
            } else
                fprintf(f, "- %s%.*s\n", head, (int)strcspn(msg, "\n<>&"), msg);
        }
}

/* ------------------------------------------------------------------ plots */

static void plot_path(const struct page *p, const char *name, const char *ext, char *buf,
                      size_t n)
{
    if (!strcmp(ext, "svg"))
        snprintf(buf, n, "%s/page-%s.svg", p->dir, name);
    else
        snprintf(buf, n, "%s/plots/%s.%s", p->dir, name, ext);
}

/* Run gnuplot on DIR/plots/name.gp; 0, or -1 with a message. */
static int gnuplot(const struct page *p, const char *name)
{
    char gp[1200];
    char *argv[] = {"gnuplot", gp, NULL};
    pid_t pid;
    int st;
    plot_path(p, name, "gp", gp, sizeof gp);
    if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ)) {
        fprintf(stderr, "gpusim report page: cannot run gnuplot (make deps installs Debian's "
                "gnuplot-nox)\n");
        return -1;
    }
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "gpusim report page: gnuplot failed on %s\n", gp);
        return -1;
    }
    return 0;
}

/* s as a gnuplot single-quoted string (a quote doubled). */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        fputs(*s == '\'' ? "''" : (char[2]){*s, 0}, f);
    fputc('\'', f);
}

/* The script's common head: SVG out, no enhanced text (names have underscores). */
static FILE *plot_open(const struct page *p, const char *name, const char *title, FILE **dat)
{
    char path[1200];
    FILE *f;
    plot_path(p, name, "dat", path, sizeof path);
    *dat = fopen(path, "w");
    plot_path(p, name, "gp", path, sizeof path);
    f = fopen(path, "w");
    if (!f || !*dat) {
        if (f)
            fclose(f);
        if (*dat)
            fclose(*dat);
        fprintf(stderr, "gpusim report page: cannot write %s\n", path);
        return NULL;
    }
    plot_path(p, name, "svg", path, sizeof path);
    fprintf(f, "set terminal svg size 900,400 font 'sans,11' noenhanced background '#ffffff'\n"
            "set output ");
    gp_str(f, path);
    fputs("\nset title ", f);
    gp_str(f, title);
    fputs("\nset grid ytics\nset key outside right\ndat = ", f);
    plot_path(p, name, "dat", path, sizeof path);
    gp_str(f, path);
    fputc('\n', f);
    return f;
}

static int plot_close(const struct page *p, const char *name, FILE *gp, FILE *dat)
{
    int bad = fclose(dat) | fclose(gp);
    return bad ? -1 : gnuplot(p, name);
}

/* Speed-up against area: one point per mechanism. */
/* Mechanisms with a mean speed-up: the cost plot's points (none: no plot, gnuplot refuses an
   empty one). */
static unsigned cost_points(const struct page *p)
{
    unsigned n = 0;
    for (unsigned m = 0; m < p->nm; m++)
        n += p->gm[m][NCAT] > 0;
    return n;
}

static int plot_cost(const struct page *p)
{
    FILE *dat, *gp;
    if (!cost_points(p))
        return 0;
    if (!(gp = plot_open(p, "cost", "Speed-up (geometric mean) against area", &dat)))
        return -1;
    for (unsigned m = 0; m < p->nm; m++)
        if (p->gm[m][NCAT] > 0)
            fprintf(dat, "%s %.4f %.4f\n", p->m[m]->name, p->area[m], p->gm[m][NCAT]);
    fprintf(gp, "set xlabel 'area added, %% of a GF100 SM at 40 nm'\nset ylabel 'speed-up over "
            "base'\nset key off\nset offsets graph 0.05, graph 0.15, graph 0.05, graph 0.05\n"
            "plot dat using 2:3 with points pt 7 ps 1.2, dat using 2:3:1 with labels left "
            "offset 0.8,0.4 font 'sans,9'\n");
    return plot_close(p, "cost", gp, dat);
}

/* Per-kernel speed-ups of one group's mechanisms, clustered bars. */
static int plot_group(const struct page *p, const char *group, int *drawn)
{
    char name[64], title[128];
    unsigned ms[MAXM], n = 0;
    FILE *dat, *gp;
    for (unsigned m = 1; m < p->nm; m++)
        if (!strcmp(p->m[m]->group, group))
            ms[n++] = m;
    *drawn = n > 0;
    if (!n)
        return 0;
    snprintf(name, sizeof name, "kernels-%s", group);
    snprintf(title, sizeof title, "Speed-up over base per kernel: %s", group);
    if (!(gp = plot_open(p, name, title, &dat)))
        return -1;
    for (unsigned k = 0; k < page_rows(p); k++) {
        fprintf(dat, "%s", page_row_name(p, k));
        for (unsigned i = 0; i < n; i++)
            fprintf(dat, " %.4f", page_speedup(p, k, ms[i]));
        fputc('\n', dat);
    }
    fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 noborder\nset xtics rotate by -45 font 'sans,9'\n"
            "set ylabel 'speed-up (0: n/a or failed)'\nset yrange [0:*]\n"
            "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\nplot ");
    for (unsigned i = 0; i < n; i++)
        fprintf(gp, "%sdat using %u:xtic(1) title '%s'", i ? ", " : "", i + 2,
                p->m[ms[i]]->name);     /* mechanism names: letters, digits, _ */
    fputc('\n', gp);
    return plot_close(p, name, gp, dat);
}

/* Scheduler cycles by outcome per mechanism, stacked, in % of base's. */
static int plot_stalls(const struct page *p)
{
    FILE *dat, *gp = plot_open(p, "stalls", "Scheduler cycles by outcome, in % of the "
                               "baseline's", &dat);
    if (!gp)
        return -1;
    for (unsigned m = 0; m < p->nm; m++) {
        uint64_t b = page_sched_base(p, m);
        fprintf(dat, "%s", p->m[m]->name);
        for (unsigned c = 0; c < GS_STALL_KINDS; c++)
            fprintf(dat, " %.3f", 100.0 * rep_ratio(page_sched(p, m, c), b));
        fputc('\n', dat);
    }
    fprintf(gp, "set style data histograms\nset style histogram rowstacked\n"
            "set style fill solid 0.8 noborder\nset boxwidth 0.7\nset xtics rotate by -45\n"
            "set ylabel '%% of base scheduler cycles'\nset yrange [0:*]\nplot ");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(gp, "%sdat using %u%s title '%s'", c ? ", " : "", c + 2, c ? "" : ":xtic(1)",
                gs_stall_names[c]);
    fputc('\n', gp);
    return plot_close(p, "stalls", gp, dat);
}

static const char *const groups[] = {"baseline", "VTW", "VT", "DWS", "regrouping"};
#define NGROUPS (sizeof groups / sizeof *groups)

static int plots(const struct page *p, int *drawn)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/plots", p->dir);
    mkdir(dir, 0777);
    if (plot_cost(p) || plot_stalls(p))
        return -1;
    for (unsigned g = 0; g < NGROUPS; g++)
        if (plot_group(p, groups[g], &drawn[g]))
            return -1;
    return 0;
}

/* ------------------------------------------------------------------ documents */

static const char *size_name(const struct page *p)
{
    return p->r.o->size == BENCH_DEFAULT ? "default" : "test";
}

/* What the page is, before the tables. */
static void intro(FILE *f, enum fmt t, const struct page *p)
{
    char s[1800], apps[200] = "", kernels[64] = "";
    if (p->r.napps)
        snprintf(apps, sizeof apps, " and %u applications (their own command lines; each "
                 "checked by its exit status and by its output being base's)", p->r.napps);
    if (p->r.n || !p->r.napps)
        snprintf(kernels, sizeof kernels, "%u kernels at the %s size", p->r.n, size_name(p));
    snprintf(s, sizeof s, "Configuration %s (%s), %s%s, %u mechanisms; "
             "every %srun's results were checked against the kernel's C reference. Speed-up: "
             "base cycles over the mechanism's (base: the configuration as given); geometric "
             "means over the kernels a mechanism applies to, overall and per divergence "
             "category of docs/bench.md (000 Table 1's sets). Storage and area: what the "
             "mechanism's configuration adds to one SM's blocks (cost estimator, "
             "docs/cost-model.md; area in %% of a GF100 SM at 40 nm). A regrouping adds no "
             "storage on chip: its cost is its extra load, inside its cycles.",
             page_res(p, 0, 0)->cfg_name, p->r.o->config ? p->r.o->config : "built-in gtx480",
             kernels, p->r.napps ? apps + (p->r.n ? 0 : 5) : "", p->nm,
             p->r.napps ? "kernel " : "");
    para(f, t, s);
}

static void image(FILE *f, enum fmt t, const struct page *p, const char *name)
{
    char path[1200], err[512], *svg, *start;
    if (t == F_MD) {
        fprintf(f, "\n![%s](page-%s.svg)\n\n", name, name);
        return;
    }
    plot_path(p, name, "svg", path, sizeof path);
    svg = infile_read(path, "plot", 64u << 20, NULL, err, sizeof err);   /* gnuplot's SVG */
    if (svg && (start = strstr(svg, "<svg")))
        fprintf(f, "<figure class=\"plot\" id=\"plot-%s\">%s</figure>\n", name, start);
    free(svg);
}

static void doc(FILE *f, enum fmt t, const struct page *p, const int *drawn)
{
    char name[64];
    intro(f, t, p);
    heading(f, t, "Every mechanism: speed-up and cost");
    summary(f, t, p);
    if (cost_points(p))
        image(f, t, p, "cost");
    heading(f, t, p->r.napps ? "Speed-up per kernel and application" : "Speed-up per kernel");
    per_kernel(f, t, p);
    if (p->r.napps) {
        heading(f, t, "The applications' kernels");
        para(f, t, "An application's cycles, instructions and stalls are summed over its "
             "launches; its result is its exit status and its output (stdout, stderr, exit "
             "status; the applications file's ignored lines aside), which must be base's under "
             "every mechanism (docs/apps.md).");
        app_kernels(f, t, p);
    }
    for (unsigned g = 0; g < NGROUPS; g++)
        if (drawn[g]) {
            snprintf(name, sizeof name, "kernels-%s", groups[g]);
            image(f, t, p, name);
        }
    heading(f, t, "Where the scheduler cycles go");
    para(f, t, "Scheduler cycles by outcome (the kinds of docs/timing.md), summed over the "
         "kernels each mechanism ran correctly, in % of base's cycles over the same kernels: "
         "the column 'all' is the mechanism's scheduler cycles against base's.");
    stalls(f, t, p);
    image(f, t, p, "stalls");
    heading(f, t, "The mechanisms");
    mech_list(f, t, p);
    heading(f, t, "Runs that did not apply or failed");
    fputs(t == F_HTML ? "<ul>\n" : "\n", f);
    problems(f, t, p);
    fputs(t == F_HTML ? "</ul>\n" : "", f);
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>gpusim: mechanisms, speed-up and cost</title>\n<style>\n"
    "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em}\n"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.85em}\n"
    "th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}\n"
    "th{background:#eee}td:first-child,th:first-child{text-align:left}\n"
    "figure.plot svg{max-width:100%;height:auto}\n</style></head><body>\n"
    "<h1>Mechanisms: speed-up and cost</h1>\n";

/* Each plot's rendered size, written into the page by the browser (a check that the plots
   were drawn: tests/test_cli.c test_report_page_in_chromium reads it from Chromium's rendered
   page). */
static const char html_tail[] =
    "<script>\nfor (const s of document.querySelectorAll('figure.plot svg')) {\n"
    "  const b = s.getBoundingClientRect();\n"
    "  s.parentNode.dataset.rendered = Math.round(b.width) + 'x' + Math.round(b.height);\n}\n"
    "</script>\n</body></html>\n";

/* fclose(f) of the file at path: 0, or -1 with a message. */
static int closed(FILE *f, const char *path)
{
    int bad = ferror(f), e = errno;
    if (fclose(f) == 0 && !bad)
        return 0;
    fprintf(stderr, "gpusim report page: cannot write %s: %s\n", path, strerror(bad ? e : errno));
    return -1;
}

static int write_file(const struct page *p, const char *name, enum fmt t, const int *drawn)
{
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", p->dir, name);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "gpusim report page: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (t == F_HTML)
        fputs(html_head, f);
    else
        fputs("# Mechanisms: speed-up and cost\n\nWritten by `gpusim report page` "
              "(cli/report_page.c); do not edit.\n\n", f);
    doc(f, t, p, drawn);
    if (t == F_HTML)
        fputs(html_tail, f);
    return closed(f, path);
}

static int write_csv(const struct page *p)
{
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/page.csv", p->dir);
    if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "gpusim report page: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "kernel,category,mechanism,group,result,cycles,warp_insns,speedup");
    for (unsigned c = 0; c < GS_STALL_KINDS; c++)
        fprintf(f, ",sched_%s", gs_stall_names[c]);
    fprintf(f, ",storage_bytes_per_sm,area_pct_sm\n");
    for (unsigned k = 0; k < page_rows(p); k++)
        for (unsigned m = 0; m < p->nm; m++) {
            const struct result *x = page_res(p, k, m);
            fprintf(f, "%s,%s,%s,%s,%s,%llu,%llu,%.4f", page_row_name(p, k),
                    page_cat_names[p->cat[k]], p->m[m]->name, p->m[m]->group,
                    mech_result_word(x->rc), (unsigned long long)x->st.cycles,
                    (unsigned long long)x->st.warp_insns, page_speedup(p, k, m));
            for (unsigned c = 0; c < GS_STALL_KINDS; c++)
                fprintf(f, ",%llu", (unsigned long long)x->st.t.sched_cycles[c]);
            fprintf(f, ",%.0f,%.4f\n", p->bytes[m], p->area[m]);
        }
    return closed(f, path);
}

int page_out_ready(const char *dir)
{
    char probe[1200];
    struct stat st;
    int fd;
    if (mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "gpusim report page: --out %s: cannot make the directory: %s\n", dir,
                strerror(errno));
        return -1;
    }
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpusim report page: --out %s: not a directory\n", dir);
        return -1;
    }
    snprintf(probe, sizeof probe, "%s/.page-write-check.%ld", dir, (long)getpid());
    if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0) {
        fprintf(stderr, "gpusim report page: --out %s: cannot write in the directory: %s\n", dir,
                strerror(errno));
        return -1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

int page_write(const struct page *p)
{
    int drawn[NGROUPS] = {0};
    if (mkdir(p->dir, 0777) && access(p->dir, W_OK)) {
        fprintf(stderr, "gpusim report page: cannot make the directory %s\n", p->dir);
        return -1;
    }
    if (plots(p, drawn) || write_csv(p) || write_file(p, "page.md", F_MD, drawn) ||
        write_file(p, "page.html", F_HTML, drawn))
        return -1;
    return 0;
}

void page_print_summary(const struct page *p)
{
    printf("\n%-15s %-10s %8s %14s %6s %8s %10s %9s\n", "mechanism", "group", "kernels",
           "cycles", "IPC", "speed-up", "bytes/SM", "area %SM");
    for (unsigned m = 0; m < p->nm; m++) {
        uint64_t cyc, wi;
        page_totals(p, m, &cyc, &wi);
        printf("%-15s %-10s %8u %14llu %6.2f %8.3f %10.0f %9.3f\n", p->m[m]->name,
               p->m[m]->group, p->ok[m], (unsigned long long)cyc, rep_ratio(wi, cyc),
               p->gm[m][NCAT], p->bytes[m], p->area[m]);
    }
}
