/*
 * outcmp.h - the program's output judged against the expected output
 * (get_score.sh --expect-output, through psf-score --compare-output).
 *
 * Byte for byte by default: the output is right when its bytes are the
 * expected file's bytes, NUL bytes, carriage returns and a missing last
 * newline included. With ignore_trailing_space, white space (space, tab,
 * CR, VT, FF) at the end of every line and blank lines at the end of the
 * output do not count, nor does the newline after the last line.
 *
 * When they differ, the message names the first line that differs (1-based,
 * lines end at '\n'), both sides quoted with unprintable bytes escaped and
 * cut after OUTCMP_QUOTE_MAX bytes:
 *   line 3: expected 'SORTED', got 'NOT SORTED'
 *   line 5: expected 'done', got the end of the output
 *   line 2: expected the end of the output, got 'extra'
 *   line 1: expected 'ok' and a newline, got 'ok' at the end of the output without one
 */
#ifndef PSF_OUTCMP_H
#define PSF_OUTCMP_H

#include <stddef.h>

#define OUTCMP_QUOTE_MAX 80   /* bytes of a line shown in the message */
#define OUTCMP_MSG_MAX 800    /* room for any message (both lines escaped: 4 bytes each) */

/* 1 when got is the expected output (under the rule above), else 0 with the
 * first difference in msg (n bytes; OUTCMP_MSG_MAX suffice). */
int outcmp_equal(const unsigned char *expected, size_t elen, const unsigned char *got, size_t glen,
                 int ignore_trailing_space, char *msg, size_t n);

#endif
