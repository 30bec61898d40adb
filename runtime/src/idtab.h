/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A table of fixed-size entries keyed by a nonzero 32-bit id, the first
 * member of each entry (0 marks an empty slot): open addressing with
 * linear probing, backward-shift deletion (no tombstones), doubled when
 * half full. Entries live in the table (no allocation per entry); a
 * pointer to one stays valid until the next add or delete. Not
 * synchronized. Pure C17: no CUDA, unit-tested anywhere
 * (runtime/tests/test_idtab.c).
 */
#ifndef GM_IDTAB_H
#define GM_IDTAB_H

#include <stddef.h>
#include <stdint.h>

struct gm_idtab {
    unsigned char *slots;       /* 2^bits entries of esz bytes */
    size_t esz;                 /* entry size; the entry starts with its uint32_t id */
    uint32_t bits;              /* 0: no slots yet */
    uint32_t used;
};

#define GM_IDTAB_INIT(type) {NULL, sizeof(type), 0, 0}

/* The entry under id, or NULL. */
void *gm_idtab_find(const struct gm_idtab *t, uint32_t id);
/* Copies e, whose id is nonzero and not in t, into the table: its slot,
 * or NULL when out of memory (t unchanged). */
void *gm_idtab_add(struct gm_idtab *t, const void *e);
/* Removes the entry e points at (from find or add); the slot it leaves
 * is zeroed. */
void gm_idtab_del(struct gm_idtab *t, void *e);
void gm_idtab_free(struct gm_idtab *t);
/* The slot where the probe for id starts (for tests). */
uint32_t gm_idtab_home(const struct gm_idtab *t, uint32_t id);

#endif
