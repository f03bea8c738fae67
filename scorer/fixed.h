/*
 * fixed.h - exact decimal prices and the integer arithmetic of a score.
 *
 * A price is held in micro-units (millionths of the table's unit) as a
 * uint64_t. A score is the sum of count x price in unsigned 128-bit integers,
 * overflow-checked, rounded once at the very end to whole units, half up.
 * No floating point is used anywhere, so the same inputs give the same
 * integer on every machine.
 */
#ifndef PSF_FIXED_H
#define PSF_FIXED_H

#include <stddef.h>
#include <stdint.h>

__extension__ typedef unsigned __int128 psf_u128;

typedef uint64_t psf_micro;                    /* a price in millionths of a unit */

#define PSF_MICRO_PER_UNIT  1000000u           /* 6 decimal places */
#define PSF_COST_MAX_UNITS  1000000000u        /* 10^9: anything above is absurd */
#define PSF_U128_MAX        (~(psf_u128)0)

/*
 * Parse a price: one or more digits, optionally '.' and one or more digits,
 * nothing else (no sign, exponent, whitespace, "NaN"). At most 6 decimal
 * places count; further digits are accepted only if they are zeros. The value
 * must not exceed PSF_COST_MAX_UNITS. On success stores micro-units and
 * returns 0; otherwise returns -1 and sets *why to a static phrase
 * ("is negative", "has more than 6 decimal places", ...).
 */
int fixed_parse_price(const char *text, psf_micro *out, const char **why);

/* Parse an unsigned 64-bit decimal count: digits only, at most 20, value
 * <= UINT64_MAX. Returns 0 or -1. */
int fixed_parse_u64(const char *text, uint64_t *out);

/* *acc += count * price. Returns -1 and leaves *acc unchanged when the sum
 * would not fit in 128 bits. (The product itself always fits.) */
int fixed_mul_add(psf_u128 *acc, uint64_t count, psf_micro price);

/* *acc += v, overflow-checked like fixed_mul_add. */
int fixed_add(psf_u128 *acc, psf_u128 v);

/* Round micro-units to whole units, half up (x.5 goes up). Returns -1 when
 * the result does not fit in uint64_t. */
int fixed_round(psf_u128 micro, uint64_t *units);

/* Write v as a decimal integer into buf (at least 40 bytes). */
void fixed_format_u128(psf_u128 v, char *buf, size_t cap);

/* Write micro-units as a decimal number with no trailing zeros ("3",
 * "0.25", "1000000.000001") into buf (at least 48 bytes). */
void fixed_format_micro(psf_u128 micro, char *buf, size_t cap);

/* part / total in tenths of a percent (0..1000), rounded half up, computed
 * from the integers only; 0 when total is 0. Requires part <= total. */
unsigned fixed_share_permille(psf_u128 part, psf_u128 total);

#endif
