/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inline SVG bar charts and step plots, and HTML escaping, for the HTML
 * report. Depends on libc only.
 */
#include "svg.h"

#include <math.h>
#include <string.h>

void gm_html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Label truncated to n characters, with an ellipsis. */
static void short_label(FILE *f, const char *s, size_t n)
{
    char buf[128];
    size_t len = strlen(s ? s : "");
    if (len <= n || n + 4 > sizeof buf) {
        gm_html_esc(f, s);
        return;
    }
    memcpy(buf, s, n);
    strcpy(buf + n, "...");
    gm_html_esc(f, buf);
}

void gm_svg_bars(FILE *f, const char *title, const char *const *labels, const double *vals,
                 size_t n, const char *unit)
{
    const int lw = 260, bw = 420, rh = 18, top = 24;
    double max = 0;
    for (size_t i = 0; i < n; i++)
        max = vals[i] > max ? vals[i] : max;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", lw + bw + 110, top + n * rh + 8);
    fprintf(f, "<text x=\"0\" y=\"14\" font-weight=\"bold\">");
    gm_html_esc(f, title);
    fprintf(f, "</text>\n");
    for (size_t i = 0; i < n; i++) {
        double w = max > 0 ? vals[i] / max * bw : 0;
        size_t y = top + i * rh;
        fprintf(f, "<text x=\"%d\" y=\"%zu\" text-anchor=\"end\">", lw - 6, y + 12);
        short_label(f, labels[i], 40);
        fprintf(f, "</text><rect x=\"%d\" y=\"%zu\" width=\"%.1f\" height=\"%d\" fill=\"#4a7ab5\"/>"
                   "<text x=\"%.1f\" y=\"%zu\">%.4g %s</text>\n",
                lw, y + 2, w, rh - 4, lw + w + 4, y + 12, vals[i], unit ? unit : "");
    }
    fprintf(f, "</svg>\n");
}

/* The points of a step plot that fall in one printed column (x to 0.1):
 * up to four are printed as they are; more (a timeline of millions of
 * events on 630 pixels) as the first, the lowest, the highest and the
 * last, in their order, which draws the same line. */
struct pt { double x, y; size_t k; };
struct column {
    long long key;
    size_t n;
    struct pt p[4], lo, hi, last;
};

static void put_pt(FILE *f, const struct pt *p) { fprintf(f, "%.1f,%.1f ", p->x, p->y); }

static void column_put(FILE *f, struct column *c)
{
    if (c->n <= 4) {
        for (size_t i = 0; i < c->n; i++)
            put_pt(f, &c->p[i]);
    } else {
        const struct pt *a = c->lo.k < c->hi.k ? &c->lo : &c->hi;
        const struct pt *b = a == &c->lo ? &c->hi : &c->lo;
        put_pt(f, &c->p[0]);
        if (a->k != c->p[0].k)
            put_pt(f, a);
        if (b->k != a->k && b->k != c->last.k)
            put_pt(f, b);
        put_pt(f, &c->last);
    }
    c->n = 0;
}

static void column_add(FILE *f, struct column *c, double x, double y)
{
    long long key = llround(x * 10);
    if (c->n && key != c->key)
        column_put(f, c);
    struct pt p = {x, y, c->last.k + 1};
    if (!c->n) {
        c->key = key;
        c->lo = c->hi = p;
    }
    if (c->n < 4)
        c->p[c->n] = p;
    if (y < c->lo.y)
        c->lo = p;
    if (y > c->hi.y)
        c->hi = p;
    c->last = p;
    c->n++;
}

void gm_svg_steps(FILE *f, const char *title, const double *x, const double *y, size_t n,
                  const char *xlabel, const char *ylabel)
{
    const int W = 700, H = 220, L = 70, B = 30, T = 24;
    double xmin = n ? x[0] : 0, xmax = n ? x[n - 1] : 1, ymax = 0;
    for (size_t i = 0; i < n; i++)
        ymax = y[i] > ymax ? y[i] : ymax;
    if (xmax <= xmin)
        xmax = xmin + 1;
    if (ymax <= 0)
        ymax = 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"0\" y=\"14\" "
               "font-weight=\"bold\">", W + 20, H + T + B);
    gm_html_esc(f, title);
    fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#999\"/>\n<polyline fill=\"none\" stroke=\"#b5524a\" points=\"",
            L, T, W - L, H);
    struct column c = {0};
    double py = T + H;
    for (size_t i = 0; i < n; i++) {
        double px = L + (x[i] - xmin) / (xmax - xmin) * (W - L);
        column_add(f, &c, px, py);
        py = T + H - y[i] / ymax * H;
        column_add(f, &c, px, py);
    }
    column_put(f, &c);
    fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.4g</text>"
               "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
            L - 4, T + 10, ymax, L - 4, T + H);
    fprintf(f, "<text x=\"%d\" y=\"%d\">", L, T + H + 20);
    gm_html_esc(f, xlabel);
    fprintf(f, " (%.0f .. %.0f)</text><text x=\"4\" y=\"%d\">", xmin, xmax, T + H / 2);
    gm_html_esc(f, ylabel);
    fprintf(f, "</text>\n</svg>\n");
}

void gm_svg_heatmap32(FILE *f, const char *title, const uint64_t *cells,
                      const char *xlabel, const char *ylabel)
{
    const int C = 9, L = 40, T = 24;
    uint64_t max = 0;
    for (int i = 0; i < 1024; i++)
        max = cells[i] > max ? cells[i] : max;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"0\" y=\"14\" "
               "font-weight=\"bold\">", L + 32 * C + 20, T + 32 * C + 30);
    gm_html_esc(f, title);
    fputs("</text>\n", f);
    for (int r = 0; r < 32; r++)
        for (int c = 0; c < 32; c++) {
            uint64_t v = cells[r * 32 + c];
            if (!v)
                continue;
            /* log scale: 1 -> light, max -> dark */
            double t = max > 1 ? log((double)v) / log((double)max) : 1;
            int shade = 230 - (int)(t * 200);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                       "fill=\"rgb(%d,%d,255)\"><title>%d, %d: %llu</title></rect>\n",
                    L + c * C, T + (31 - r) * C, C, C, shade, shade, r + 1, c + 1,
                    (unsigned long long)v);
        }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#999\"/>\n", L, T, 32 * C, 32 * C);
    fprintf(f, "<text x=\"%d\" y=\"%d\">", L, T + 32 * C + 16);
    gm_html_esc(f, xlabel);
    fprintf(f, " (1..32)</text><text x=\"0\" y=\"%d\">", T + 10);
    gm_html_esc(f, ylabel);
    fputs("</text>\n</svg>\n", f);
}
