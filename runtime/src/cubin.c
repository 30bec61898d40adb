/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finds __gm_sitetab__<modid> symbols in the device image CUPTI hands over
 * at module load: an ELF64 cubin, or a fatbin container of cubins (plain or
 * zstd-compressed entries). Every read is bounds-checked.
 * Pure C (glibc <elf.h>, libzstd): must not depend on CUDA, CUPTI or LLVM.
 */
#include "rt_core.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define GM_FATBIN_MAGIC 0xBA55ED50u
#define GM_FATBIN_KIND_ELF 2u

struct fatbin_header {     /* container header (16 bytes) */
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t fat_size;     /* bytes of entries after the header */
};

struct fatbin_entry {      /* per-image header, as fatbinary writes it */
    uint16_t kind, unknown1;
    uint32_t header_size;
    uint64_t size;          /* payload bytes (padded) */
    uint32_t compressed_size, unknown2;
    uint16_t minor, major;
    uint32_t arch;
    uint32_t obj_name_offset, obj_name_len;
    uint64_t flags;
    uint64_t zero;
    uint64_t uncompressed_size;
};

static void note(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

static int elf_check(const unsigned char *img, size_t size, char *err, size_t errlen)
{
    Elf64_Ehdr ehb;
    const Elf64_Ehdr *eh = &ehb;
    if (size < sizeof ehb || memcmp(img, ELFMAG, SELFMAG) != 0) {
        note(err, errlen, "not an ELF image");
        return -1;
    }
    memcpy(&ehb, img, sizeof ehb);
    if (img[EI_CLASS] != ELFCLASS64 || img[EI_DATA] != ELFDATA2LSB) {
        note(err, errlen, "ELF image is not 64-bit little endian");
        return -1;
    }
    if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_bounds(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size)) {
        note(err, errlen, "ELF section headers out of bounds (truncated image?)");
        return -1;
    }
    return 0;
}

/* Hand one symbol's bytes to sink; returns 1 if handed over, 0 if skipped. */
static int elf_emit(const unsigned char *img, size_t size, const Elf64_Shdr *sh, uint16_t shnum,
                    const Elf64_Sym *sym, const char *name, gm_sitetab_sink sink, void *ctx,
                    char *err, size_t errlen)
{
    if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= shnum) {
        note(err, errlen, "%s: symbol has no section", name);
        return 0;
    }
    const Elf64_Shdr *s = &sh[sym->st_shndx];
    if (s->sh_type == SHT_NOBITS) {
        note(err, errlen, "%s: in an uninitialised section", name);
        return 0;
    }
    uint64_t rel = sym->st_value;
    if (s->sh_addr && rel >= s->sh_addr) rel -= s->sh_addr;
    if (!in_bounds(rel, sym->st_size, s->sh_size) ||
        !in_bounds(s->sh_offset + rel, sym->st_size, size)) {
        note(err, errlen, "%s: data out of bounds of its section", name);
        return 0;
    }
    sink(ctx, name, img + s->sh_offset + rel, sym->st_size);
    return 1;
}

static int elf_scan_symtab(const unsigned char *img, size_t size, const Elf64_Shdr *sh,
                           uint16_t shnum, const Elf64_Shdr *st, gm_sitetab_sink sink,
                           void *ctx, char *err, size_t errlen)
{
    if (st->sh_link >= shnum) return 0;
    const Elf64_Shdr *strs = &sh[st->sh_link];
    if (!in_bounds(st->sh_offset, st->sh_size, size) ||
        !in_bounds(strs->sh_offset, strs->sh_size, size) || strs->sh_size == 0) {
        note(err, errlen, "ELF symbol table out of bounds");
        return 0;
    }
    const char *names = (const char *)img + strs->sh_offset;
    size_t nsyms = st->sh_size / sizeof(Elf64_Sym);
    size_t plen = strlen(GM_SITETAB_SYM_PREFIX);
    int found = 0;
    for (size_t i = 0; i < nsyms; i++) {
        Elf64_Sym sym;
        memcpy(&sym, img + st->sh_offset + i * sizeof sym, sizeof sym);
        if (sym.st_name >= strs->sh_size) continue;
        const char *name = names + sym.st_name;
        if (!memchr(name, '\0', strs->sh_size - sym.st_name)) continue;
        if (strncmp(name, GM_SITETAB_SYM_PREFIX, plen) != 0) continue;
        found += elf_emit(img, size, sh, shnum, &sym, name, sink, ctx, err, errlen);
    }
    return found;
}

static int elf_scan(const unsigned char *img, size_t size, gm_sitetab_sink sink, void *ctx,
                    char *err, size_t errlen)
{
    if (elf_check(img, size, err, errlen) != 0) return -1;
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    /* copy: the image need not be 8-byte aligned */
    Elf64_Shdr *sh = malloc((eh.e_shnum ? eh.e_shnum : 1) * sizeof(Elf64_Shdr));
    if (!sh) {
        note(err, errlen, "out of memory");
        return -1;
    }
    memcpy(sh, img + eh.e_shoff, (size_t)eh.e_shnum * sizeof(Elf64_Shdr));
    int found = 0;
    for (uint16_t i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB)
            found += elf_scan_symtab(img, size, sh, eh.e_shnum, &sh[i], sink, ctx, err, errlen);
    free(sh);
    return found;
}

/* zstd-compressed entries (CUDA 12.8+ fatbinary --compress-mode): inflate
 * and scan. Other compressed formats are reported, not guessed at. */
static int fatbin_zstd(const unsigned char *payload, const struct fatbin_entry *e,
                       gm_sitetab_sink sink, void *ctx, char *err, size_t errlen)
{
    uint64_t csize = e->compressed_size ? e->compressed_size : e->size;
    unsigned long long out = ZSTD_getFrameContentSize(payload, csize);
    if (out == ZSTD_CONTENTSIZE_ERROR || out == ZSTD_CONTENTSIZE_UNKNOWN)
        out = e->uncompressed_size;
    if (out == 0 || out > (1ull << 32)) {
        note(err, errlen, "fatbin entry for sm_%u: bad zstd frame", e->arch);
        return -2;
    }
    void *buf = malloc(out);
    if (!buf) {
        note(err, errlen, "out of memory inflating a fatbin entry");
        return -2;
    }
    size_t got = ZSTD_decompress(buf, out, payload, csize);
    int r;
    if (ZSTD_isError(got)) {
        note(err, errlen, "fatbin entry for sm_%u: zstd: %s", e->arch, ZSTD_getErrorName(got));
        r = -2;
    } else {
        r = elf_scan(buf, got, sink, ctx, err, errlen);
    }
    free(buf);
    return r;
}

static int fatbin_entry(const unsigned char *p, const struct fatbin_entry *e,
                        gm_sitetab_sink sink, void *ctx, char *err, size_t errlen)
{
    const unsigned char *payload = p + e->header_size;
    uint64_t len = e->size;
    static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    if (e->kind != GM_FATBIN_KIND_ELF) return 0; /* PTX: no site tables to read */
    if (len >= 4 && memcmp(payload, zstd_magic, 4) == 0)
        return fatbin_zstd(payload, e, sink, ctx, err, errlen);
    if (len < SELFMAG || memcmp(payload, ELFMAG, SELFMAG) != 0) {
        note(err, errlen, "fatbin entry for sm_%u is compressed in an unsupported format"
             " (flags 0x%llx); rebuild with fatbinary -compress-mode=none or zstd",
             e->arch, (unsigned long long)e->flags);
        return -2;
    }
    return elf_scan(payload, len, sink, ctx, err, errlen);
}

static int fatbin_scan(const unsigned char *img, size_t size, gm_sitetab_sink sink, void *ctx,
                       char *err, size_t errlen)
{
    struct fatbin_header fh;
    memcpy(&fh, img, sizeof fh);
    uint64_t end = (uint64_t)fh.header_size + fh.fat_size;
    if (fh.header_size < sizeof fh || end > size) {
        note(err, errlen, "fatbin truncated (%zu bytes, header says %llu)", size,
             (unsigned long long)end);
        return -1;
    }
    int found = 0, unreadable = 0;
    for (uint64_t off = fh.header_size; off + sizeof(struct fatbin_entry) <= end;) {
        struct fatbin_entry e;
        memcpy(&e, img + off, sizeof e);
        if (e.header_size < sizeof e || !in_bounds(off, (uint64_t)e.header_size + e.size, end)) {
            note(err, errlen, "fatbin entry at offset %llu out of bounds",
                 (unsigned long long)off);
            return found ? found : -1;
        }
        int r = fatbin_entry(img + off, &e, sink, ctx, err, errlen);
        if (r > 0) found += r;
        else if (r < 0) unreadable++;
        off += e.header_size + e.size;
    }
    return (found == 0 && unreadable) ? -1 : found;
}

int gm_cubin_scan(const void *img, size_t size, gm_sitetab_sink sink, void *ctx,
                  char *err, size_t errlen)
{
    const unsigned char *p = img;
    if (err && errlen) err[0] = '\0';
    if (!p || size < 16) {
        note(err, errlen, "device image too small (%zu bytes)", size);
        return -1;
    }
    uint32_t magic;
    memcpy(&magic, p, sizeof magic);
    if (magic == GM_FATBIN_MAGIC) return fatbin_scan(p, size, sink, ctx, err, errlen);
    if (memcmp(p, ELFMAG, SELFMAG) == 0) return elf_scan(p, size, sink, ctx, err, errlen);
    note(err, errlen, "device image is neither an ELF cubin nor a fatbin (magic 0x%08x)", magic);
    return -1;
}
