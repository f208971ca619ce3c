/*
 * svg.c -- grouped bar charts as SVG text (svg.h): a y axis from 0 with five gridlines at a
 * round step, the groups' labels turned under the axis, a legend, an optional dashed
 * reference line (1.0 for normalised IPC), each bar's value in its tooltip.
 */
#include <math.h>
#include <stdio.h>
#include "svg.h"

#define SVG_H_PLOT 240.0     /* plot height */
#define SVG_TOP 40.0         /* title and legend above the plot */
#define SVG_LEFT 60.0        /* the y axis' labels */
#define SVG_BOTTOM 110.0     /* the groups' labels */
#define SVG_BAR 10.0         /* bar width */
#define SVG_GAP 12.0         /* between groups */

static const char *const colours[SVG_MAX_SERIES] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                                     "#76b7b2", "#b07aa1"};

/* The axis' top: five steps, the smallest step of m[i] x 10^k that reaches the largest value. */
static double axis_top(const struct svg_bars *c, double *step)
{
    static const double m[9] = {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0};
    double hi = c->ref;
    for (unsigned i = 0; i < c->ngroups * c->nseries; i++)
        hi = c->v[i] > hi ? c->v[i] : hi;
    if (hi <= 0)
        hi = 1;
    double p = pow(10.0, floor(log10(hi / 5.0)));
    for (unsigned e = 0; e < 2; e++, p *= 10)
        for (unsigned i = 0; i < 9; i++)
            if (m[i] * p * 5 >= hi) {
                *step = m[i] * p;
                return *step * 5;
            }
    *step = hi / 5;
    return hi;
}

static double ypos(double v, double top)
{
    return SVG_TOP + SVG_H_PLOT * (1.0 - (v < 0 ? 0 : v) / top);
}

static void axis(FILE *f, const struct svg_bars *c, double width, double top, double step)
{
    for (unsigned i = 0; i <= 5; i++) {
        double y = ypos(step * i, top);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n"
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%.2f</text>\n", SVG_LEFT, y,
                width - 10, y, SVG_LEFT - 4, y + 4, step * i);
    }
    fprintf(f, "<text transform=\"translate(14 %.2f) rotate(-90)\" text-anchor=\"middle\">%s"
            "</text>\n", SVG_TOP + SVG_H_PLOT / 2, c->ylabel);
    if (c->ref > 0)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\" "
                "stroke-dasharray=\"4 3\"/>\n", SVG_LEFT, ypos(c->ref, top), width - 10,
                ypos(c->ref, top));
}

static void bars(FILE *f, const struct svg_bars *c, double top)
{
    double gw = c->nseries * SVG_BAR + SVG_GAP;
    for (unsigned g = 0; g < c->ngroups; g++) {
        double x0 = SVG_LEFT + SVG_GAP / 2 + g * gw;
        for (unsigned s = 0; s < c->nseries; s++) {
            double v = c->v[g * c->nseries + s], y = ypos(v, top);
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
                    "<title>%s %s %.2f</title></rect>\n", x0 + s * SVG_BAR, y, SVG_BAR,
                    SVG_TOP + SVG_H_PLOT - y, colours[s % SVG_MAX_SERIES], c->groups[g],
                    c->series[s], v);
        }
        fprintf(f, "<text transform=\"translate(%.2f %.2f) rotate(-45)\" text-anchor=\"end\">%s"
                "</text>\n", x0 + c->nseries * SVG_BAR / 2, SVG_TOP + SVG_H_PLOT + 14,
                c->groups[g]);
    }
}

static void legend(FILE *f, const struct svg_bars *c)
{
    for (unsigned s = 0; s < c->nseries; s++) {
        double x = SVG_LEFT + 110.0 * s;
        fprintf(f, "<rect x=\"%.2f\" y=\"24.00\" width=\"10.00\" height=\"10.00\" fill=\"%s\"/>"
                "<text x=\"%.2f\" y=\"33.00\">%s</text>\n", x, colours[s % SVG_MAX_SERIES],
                x + 14, c->series[s]);
    }
}

int svg_bars_write(const char *path, const struct svg_bars *c)
{
    double step, top = axis_top(c, &step);
    double w = SVG_LEFT + c->ngroups * (c->nseries * SVG_BAR + SVG_GAP) + 10;
    FILE *f;
    if (w < SVG_LEFT + 110.0 * c->nseries)
        w = SVG_LEFT + 110.0 * c->nseries;
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return -1;
    }
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.2f\" height=\"%.2f\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
            "fill=\"white\"/>\n<text x=\"%.2f\" y=\"16.00\" font-size=\"13\">%s</text>\n", w,
            SVG_TOP + SVG_H_PLOT + SVG_BOTTOM, SVG_LEFT, c->title);
    axis(f, c, w, top, step);
    bars(f, c, top);
    legend(f, c);
    fprintf(f, "</svg>\n");
    return fclose(f) ? -1 : 0;
}
