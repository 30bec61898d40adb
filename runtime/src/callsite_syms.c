/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Is a return address inside CUDA's own host code although it lies in the
 * user's module? The CUDA runtime is usually linked statically
 * (libcudart_static.a): its functions then sit in the program itself, so
 * skipping frames by module name is not enough. Per module, read once from
 * the ELF file's symbol tables (.symtab, else .dynsym): the address ranges
 * of functions named cuda[A-Z]*, __cuda[A-Z]*, cu[A-Z]* (runtime and driver
 * API, not a user's cudart_check),
 * libcudart_static_* (the static runtime's internal functions) and
 * compiler-made kernel launch stubs (*__device_stub__*); C++ names are
 * judged by the function's own name (cudaMalloc<float>, not the return
 * type of "cudaError_t alloc<float>(...)"). Stripped modules
 * have no ranges: their frames count as the user's. Depends on libc and
 * <elf.h> only; called when a return address is first seen, never per event.
 */
#include "rt.h"

#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct range { uintptr_t lo, hi; };
struct module { uintptr_t base; int fixed; size_t n; struct range *r; };

#define MAX_MODULES 256
static struct module g_mods[MAX_MODULES];
static size_t g_nmods;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* The function's own name in a symbol name: the first identifier of a
 * mangled one (_Z10cudaMallocIfE...), or in a demangled one the last name
 * before the parameters, without template arguments or a return type
 * ("cudaError cudaMalloc<float>(float**, unsigned long)": cudaMalloc). */
static void first_ident(const char *s, const char **id, size_t *len)
{
    if (s[0] == '_' && s[1] == 'Z') {
        s += 2;
        while (*s == 'L' || *s == 'N' || *s == 'K') s++;
        if (isdigit((unsigned char)*s)) {
            size_t n = strtoul(s, (char **)&s, 10);
            if (strnlen(s, n) == n) {
                *id = s, *len = n;
                return;
            }
        }
    }
    size_t end = 0;
    for (int depth = 0; s[end] && !(s[end] == '(' && depth == 0); end++)
        depth += (s[end] == '<') - (s[end] == '>');
    if (end && s[end - 1] == '>') /* template arguments of the function */
        for (int depth = 0; end > 0;) {
            char c = s[--end];
            depth += (c == '>') - (c == '<');
            if (depth == 0) break;
        }
    size_t start = end;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != ':') start--;
    *id = s + start, *len = end - start;
}

int gm_callsite_cuda_name(const char *name)
{
    if (strstr(name, "__device_stub__")) return 1;
    const char *id;
    size_t n;
    first_ident(name, &id, &n);
    if (n >= 7 && !strncmp(id, "__", 2)) id += 2, n -= 2;
    if (n >= 5 && !strncmp(id, "cuda", 4) && isupper((unsigned char)id[4])) return 1;
    if (n >= 3 && id[0] == 'c' && id[1] == 'u' && isupper((unsigned char)id[2])) return 1;
    return n >= 17 && !strncmp(id, "libcudart_static_", 17);
}

static int by_lo(const void *a, const void *b)
{
    uintptr_t x = ((const struct range *)a)->lo, y = ((const struct range *)b)->lo;
    return x < y ? -1 : x > y;
}

/* Ranges from one symbol table section; 0 or -1 (out of memory). */
static int scan_symtab(const unsigned char *img, size_t size, const Elf64_Shdr *sh,
                       uint16_t shnum, const Elf64_Shdr *s, struct module *m, size_t *cap)
{
    if (s->sh_link >= shnum || s->sh_entsize != sizeof(Elf64_Sym) ||
        s->sh_offset > size || s->sh_size > size - s->sh_offset)
        return 0;
    const Elf64_Shdr *str = &sh[s->sh_link];
    if (str->sh_offset > size || str->sh_size > size - str->sh_offset) return 0;
    const char *strs = (const char *)img + str->sh_offset;
    size_t nsym = s->sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < nsym; i++) {
        Elf64_Sym sym;
        memcpy(&sym, img + s->sh_offset + i * sizeof sym, sizeof sym);
        if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size || sym.st_name >= str->sh_size)
            continue;
        const char *nm = strs + sym.st_name;
        if (!memchr(nm, '\0', str->sh_size - sym.st_name) || !gm_callsite_cuda_name(nm)) continue;
        if (m->n == *cap) {
            size_t nc = *cap ? *cap * 2 : 256;
            struct range *r = realloc(m->r, nc * sizeof *r);
            if (!r) return -1;
            m->r = r, *cap = nc;
        }
        m->r[m->n++] = (struct range){sym.st_value, sym.st_value + sym.st_size};
    }
    return 0;
}

/* Fills m from the ELF file at path; a file that cannot be read leaves it empty. */
static void load(const char *path, struct module *m)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
        close(fd);
        return;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *img = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED) return;
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (!memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
        eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shoff < size &&
        eh.e_shnum <= (size - eh.e_shoff) / sizeof(Elf64_Shdr)) {
        const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(img + eh.e_shoff);
        m->fixed = eh.e_type == ET_EXEC;
        size_t cap = 0;
        int have_symtab = 0;
        for (uint16_t i = 0; i < eh.e_shnum; i++) have_symtab |= sh[i].sh_type == SHT_SYMTAB;
        for (uint16_t i = 0; i < eh.e_shnum; i++)
            if (sh[i].sh_type == (have_symtab ? SHT_SYMTAB : SHT_DYNSYM) &&
                scan_symtab(img, size, sh, eh.e_shnum, &sh[i], m, &cap) != 0)
                break;
        if (m->n) qsort(m->r, m->n, sizeof *m->r, by_lo);
    }
    munmap((void *)img, size);
}

static int in_ranges(const struct module *m, uintptr_t a)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* first range with lo > a */
        size_t mid = lo + (hi - lo) / 2;
        if (m->r[mid].lo <= a) lo = mid + 1;
        else hi = mid;
    }
    /* symbols may overlap (aliases): check a few before */
    for (size_t i = lo; i > 0 && lo - i < 4; i--)
        if (a < m->r[i - 1].hi) return 1;
    return 0;
}

int gm_callsite_in_cuda_code(const char *path, uintptr_t base, uintptr_t pc)
{
    pthread_mutex_lock(&g_lock);
    struct module *m = NULL;
    for (size_t i = 0; i < g_nmods && !m; i++)
        if (g_mods[i].base == base) m = &g_mods[i];
    if (!m && g_nmods < MAX_MODULES) {
        m = &g_mods[g_nmods++];
        m->base = base;
        load(path, m);
    }
    /* pc is a return address: the call is the byte before it */
    int in = m && m->n && in_ranges(m, pc - 1 - (m->fixed ? 0 : base));
    pthread_mutex_unlock(&g_lock);
    return in;
}
