/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: simple inline SVG plots and HTML escaping for the HTML report
 * (no external assets, no scripts). Depends on libc only.
 */
#ifndef GM_REPORT_SVG_H
#define GM_REPORT_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes s with &, <, >, " escaped. */
void gm_html_esc(FILE *f, const char *s);
/* Horizontal bar chart, one bar per label (values >= 0). */
void gm_svg_bars(FILE *f, const char *title, const char *const *labels, const double *vals,
                 size_t n, const char *unit);
/* Step plot of y over x (x increasing), e.g. live bytes over the timeline. */
void gm_svg_steps(FILE *f, const char *title, const double *x, const double *y, size_t n,
                  const char *xlabel, const char *ylabel);

/* 32 x 32 heat map, cells[row * 32 + col], log-scaled colour; row r is
 * labelled r + 1 on the y axis (ylabel), column c c + 1 (xlabel). */
void gm_svg_heatmap32(FILE *f, const char *title, const uint64_t *cells,
                      const char *xlabel, const char *ylabel);

#endif
