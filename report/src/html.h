/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the parts of the HTML report beyond the summary tables: the
 * source view (write_html_source.c), the drill-down (write_html_drill.c),
 * the page's style and script (write_html_js.c, from report.js). Depends on
 * the report headers and libc only.
 */
#ifndef GM_REPORT_HTML_H
#define GM_REPORT_HTML_H

#include <stdio.h>
#include "derived.h"
#include "gm_drill.h"

/* Bounds of the source text embedded in one page. */
#define GM_SRC_FILE_MAX (1u << 20)      /* bytes of one file */
#define GM_SRC_TOTAL_MAX (4u << 20)     /* bytes of all files */
#define GM_SRC_FILES_MAX 64             /* files with text */

struct gm_srcview;
/* Collects every source line the report (and the drill-down's sites) has
 * something for, and reads the files' text within the bounds above. NULL
 * when out of memory. */
struct gm_srcview *gm_srcview_build(const struct gm_report *r, const struct gm_derived *d);
void gm_srcview_free(struct gm_srcview *v);
/* Anchor name ("L3-10") of file:line in the view into buf, or NULL. */
const char *gm_srcview_anchor(const struct gm_srcview *v, const char *file, uint32_t line,
                              char *buf, size_t len);
/* A table cell "file:line", a link to the line in the source view. */
void gm_html_loc_cell(FILE *f, const struct gm_srcview *v, const char *file, uint32_t line);
/* The kernels table's last cell: the kernel's worst line (most excess
 * sectors + bank conflicts, else most memory warps), linked, and a link to
 * its drill-down when the trace has one of its launches. */
void gm_html_kernel_cells(FILE *f, const struct gm_derived *d, const struct gm_report_kernel *k);
/* The source view section. */
void gm_srcview_write(const struct gm_srcview *v, FILE *f);

/* The drill-down section (data as JSON, drawn by the script); a note
 * saying how to get one when d is NULL. */
void gm_drill_write_html(const struct gm_report *r, const struct gm_drill *d,
                         const struct gm_srcview *v, FILE *f);

/* The page's stylesheet rules and script (report.js). */
extern const char gm_html_css[];
extern const char gm_html_js[];

#endif
