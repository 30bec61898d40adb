/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the JSON reader's parts. json_read.c reads each part of a
 * report (the head, and one element of each top-level array, already parsed
 * into a small tree, json_parse.h) into the model; json_doc.c walks the document
 * and calls them. `p` is the element's path ("kernels[3]"); errors go to
 * the context. Depends on the report model and json_util.h.
 */
#ifndef GM_REPORT_JSON_READ_H
#define GM_REPORT_JSON_READ_H

#include "gm_report.h"
#include "json_util.h"

/* schema and version; then the program object. */
void gm_jr_header(struct gm_jctx *c, const struct gm_jv *root);
void gm_jr_program(struct gm_jctx *c, const struct gm_jv *root, struct gm_report *r);

typedef void (*gm_jr_elem_fn)(struct gm_jctx *c, const struct gm_jv *el, const char *p,
                              struct gm_report *r);
void gm_jr_device(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_module(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_kernel(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_launch(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_alloc(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_event(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_unobserved(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
void gm_jr_note(struct gm_jctx *c, const struct gm_jv *el, const char *p, struct gm_report *r);
/* After the events: allocation ids unique, every use names one. */
void gm_jr_alloc_refs(struct gm_jctx *c, struct gm_report *r);

/* The whole document from `in` (json_doc.c): the report, or NULL and one
 * line in err. */
struct gm_report *gm_jr_document(struct gm_jin *in, char *err, size_t errlen);

#endif
