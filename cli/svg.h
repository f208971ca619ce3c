/*
 * svg.h -- grouped bar charts as SVG text for the reports (cli/svg.c). Deterministic: every
 * coordinate and value is written with a fixed %.2f, so the same figures give the same bytes.
 */
#ifndef SVG_H
#define SVG_H

#define SVG_MAX_SERIES 6

/* ngroups groups of nseries bars; bar s of group g has the value v[g * nseries + s]. */
struct svg_bars {
    const char *title, *ylabel;
    unsigned ngroups, nseries;
    const char *const *groups;             /* ngroups labels */
    const char *const *series;             /* nseries names (the legend), <= SVG_MAX_SERIES */
    const double *v;
    double ref;                            /* a dashed line at this value (0: none) */
};

/* Write the chart to path; 0, or -1 with a message. */
int svg_bars_write(const char *path, const struct svg_bars *c);

#endif
