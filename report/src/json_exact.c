/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Exact integers in JSON number literals (see json_exact.h). Depends on
 * libc only.
 */
#include "json_exact.h"

#include <stdint.h>

#define EXACT_MAX 9007199254740992ull /* 2^53 */

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Digits of the literal (integer and fraction part, leading and trailing
 * zeros dropped) and the power of ten they are scaled by. */
struct dec {
    const char *d;          /* first significant digit in the literal */
    size_t nd;              /* significant digits (a '.' may sit among them) */
    long exp;               /* value = digits * 10^exp */
};

static int decompose(const char *s, size_t n, struct dec *out)
{
    size_t i = 0, first = SIZE_MAX, nsig = 0, nfrac = 0, sig_after_last = 0;
    long e = 0;
    int in_frac = 0;
    if (i < n && s[i] == '-')
        i++;
    for (; i < n && (is_digit(s[i]) || s[i] == '.'); i++) {
        if (s[i] == '.') {
            in_frac = 1;
            continue;
        }
        nfrac += in_frac;
        if (s[i] != '0' && first == SIZE_MAX)
            first = i;
        if (first != SIZE_MAX) {
            nsig++;
            sig_after_last = s[i] == '0' ? sig_after_last + 1 : 0; /* trailing zeros */
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int neg = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            neg = s[i++] == '-';
        for (; i < n && is_digit(s[i]); i++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        e = neg ? -e : e;
    }
    if (i != n)
        return -1;
    if (first == SIZE_MAX) {            /* all zeros: exactly 0 */
        *out = (struct dec){NULL, 0, 0};
        return 0;
    }
    *out = (struct dec){s + first, nsig - sig_after_last,
                        e - (long)nfrac + (long)sig_after_last};
    return 0;
}

int gm_json_literal_int(const char *s, size_t n, int64_t *out)
{
    struct dec d;
    if (decompose(s, n, &d))
        return 0;
    *out = 0;
    if (d.nd == 0)
        return 1;
    if (d.exp < 0 || (long)d.nd + d.exp > 16)
        return 0;               /* a fraction, or >= 10^16 > 2^53 */
    uint64_t v = 0;
    for (size_t i = 0, k = 0; k < d.nd; i++)
        if (d.d[i] != '.') {
            v = v * 10 + (uint64_t)(d.d[i] - '0');
            k++;
        }
    for (long k = 0; k < d.exp; k++)
        v *= 10;
    if (v > EXACT_MAX)
        return 0;
    *out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
    return 1;
}

int gm_json_literal_exact(const char *s, size_t n)
{
    int64_t v;
    return gm_json_literal_int(s, n, &v);
}
