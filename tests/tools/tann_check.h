/*
 * tann_check.h - the one oracle of relocated type annotations on code, for
 * the rewriter's unit test (tests/unit/test_instrument.c) and its fuzzer
 * (tests/fuzz/fuzz_instrument.c). It checks a rewritten attribute against
 * the original on its own reading of JVMS 4.7.20, not the rewriter's walk.
 */
#ifndef PSF_TANN_CHECK_H
#define PSF_TANN_CHECK_H

#include "classfile.h"
#include "instrument.h"

#include <stdint.h>

/*
 * A Runtime(In)visibleTypeAnnotations attribute of method o's Code, its
 * bytes ob[0..len), and of the rewritten method m, nb[0..len) (the same
 * size): 0 when nb is ob but the offsets, each local variable range
 * starting where the code for its original start begins (its probes) and
 * ending where the code for its original end begins (the code's end for
 * the code's end), each instruction offset on the same instruction past
 * its probes; -1 otherwise, or when ob cannot be walked. *offsets (if not
 * NULL) is how many offsets it checked: 2 per range, 1 per instruction.
 */
int tann_check(const uint8_t *ob, const uint8_t *nb, uint32_t len, const ins_method *im, const cf_method *o,
               const cf_method *m, uint32_t *offsets);

#endif
