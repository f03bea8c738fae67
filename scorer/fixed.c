/*
 * fixed.c - exact decimal prices and score arithmetic (see fixed.h).
 */
#include "fixed.h"

#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A phrase for text that is not digits[.digits], most specific first. */
static const char *why_not_decimal(const char *text)
{
    const char *p;

    if (*text == '\0')
        return "is empty";
    if (*text == '-')
        return "is negative";
    if (*text == '+')
        return "has a sign";
    for (p = text; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            return "contains whitespace";
    for (p = text; *p; p++) {
        char c = (char)(*p | 0x20);
        if (c == 'n' || c == 'i')       /* nan, inf, infinity */
            return "is not a number";
    }
    for (p = text; *p; p++)
        if (*p == 'e' || *p == 'E')
            return "uses an exponent";
    return "is not a decimal number like 12 or 0.25";
}

int fixed_parse_price(const char *text, psf_micro *out, const char **why)
{
    const char *p = text;
    const char *int_start, *int_end, *frac_start = NULL, *frac_end = NULL;
    uint64_t units = 0, micro = 0;

    int_start = p;
    while (is_digit(*p))
        p++;
    int_end = p;
    if (*p == '.') {
        frac_start = ++p;
        while (is_digit(*p))
            p++;
        frac_end = p;
    }
    if (int_end == int_start || *p != '\0' || (frac_start && frac_end == frac_start)) {
        *why = why_not_decimal(text);
        return -1;
    }

    /* Integer part: skip leading zeros, then at most 10 digits can matter. */
    while (int_start < int_end - 1 && *int_start == '0')
        int_start++;
    if (int_end - int_start > 10) {
        *why = "is larger than 1000000000";
        return -1;
    }
    for (p = int_start; p < int_end; p++)
        units = units * 10 + (uint64_t)(*p - '0');

    if (frac_start) {
        /* Trailing zeros carry no value; what remains must fit 6 places. */
        while (frac_end > frac_start && frac_end[-1] == '0')
            frac_end--;
        if (frac_end - frac_start > 6) {
            *why = "has more than 6 decimal places";
            return -1;
        }
        int places = 0;
        for (p = frac_start; p < frac_end; p++, places++)
            micro = micro * 10 + (uint64_t)(*p - '0');
        for (; places < 6; places++)
            micro *= 10;
    }

    if (units > PSF_COST_MAX_UNITS || (units == PSF_COST_MAX_UNITS && micro > 0)) {
        *why = "is larger than 1000000000";
        return -1;
    }
    *out = units * PSF_MICRO_PER_UNIT + micro;
    return 0;
}

int fixed_parse_u64(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = text;

    if (!is_digit(*p))
        return -1;
    for (; is_digit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (*p != '\0')
        return -1;
    *out = v;
    return 0;
}

int fixed_add(psf_u128 *acc, psf_u128 v)
{
    if (*acc > PSF_U128_MAX - v)
        return -1;
    *acc += v;
    return 0;
}

int fixed_mul_add(psf_u128 *acc, uint64_t count, psf_micro price)
{
    /* (2^64-1)^2 < 2^128: the product cannot overflow, only the sum can. */
    return fixed_add(acc, (psf_u128)count * price);
}

int fixed_round(psf_u128 micro, uint64_t *units)
{
    psf_u128 q = micro / PSF_MICRO_PER_UNIT;
    psf_u128 r = micro % PSF_MICRO_PER_UNIT;

    if (r >= PSF_MICRO_PER_UNIT / 2)
        q++;            /* cannot wrap: q <= (2^128-1)/10^6 */
    if (q > UINT64_MAX)
        return -1;
    *units = (uint64_t)q;
    return 0;
}

void fixed_format_u128(psf_u128 v, char *buf, size_t cap)
{
    char tmp[48];
    size_t n = 0;

    do {
        tmp[n++] = (char)('0' + (unsigned)(v % 10));
        v /= 10;
    } while (v);
    size_t i = 0;
    for (; i < n && i + 1 < cap; i++)
        buf[i] = tmp[n - 1 - i];
    if (cap)
        buf[i] = '\0';
}

void fixed_format_micro(psf_u128 micro, char *buf, size_t cap)
{
    char frac[8];
    unsigned f = (unsigned)(micro % PSF_MICRO_PER_UNIT);
    int n;

    fixed_format_u128(micro / PSF_MICRO_PER_UNIT, buf, cap);
    if (f == 0)
        return;
    for (n = 6; n > 0; n--, f /= 10)
        frac[n] = (char)('0' + f % 10);
    frac[0] = '.';
    n = 7;
    while (frac[n - 1] == '0')
        n--;
    frac[n] = '\0';
    size_t len = strlen(buf);
    if (len + (size_t)n < cap)
        memcpy(buf + len, frac, (size_t)n + 1);
}

unsigned fixed_share_permille(psf_u128 part, psf_u128 total)
{
    if (total == 0)
        return 0;
    /* Scale both down until part * 2000 cannot overflow; the ratio keeps
     * far more precision than one decimal of a percent needs. */
    while (total > PSF_U128_MAX / 2000) {
        part >>= 1;
        total >>= 1;
    }
    return (unsigned)((part * 2000 / total + 1) / 2);
}
