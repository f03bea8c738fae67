/*
 * fuzz_costs.c - libFuzzer target for the cost-table loader
 * (scorer/costs.c through scorer/xmlload.c and libxml2).
 *
 * The input is a cost table's bytes, given to costs_load_memory (what
 * costs_load_file does after reading the file). On success the table is
 * checked against what costs.h promises: lists sorted by key with no
 * duplicates, every key found by costs_find, prices within the limit, every
 * calibration attribute present when calibrated. On failure the
 * error must be ST_BAD_INPUT naming the input and the table empty.
 * Seeds: tests/fuzz/corpus/costs/; dictionary: tests/fuzz/costs.dict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "costs.h"
#include "xml_quiet.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.costs.xml"
#define PRICE_MAX ((psf_micro)PSF_COST_MAX_UNITS * PSF_MICRO_PER_UNIT)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char warm[] = "<costs unit=\"bytecodes\"><default cost=\"1\"/></costs>";
    cost_table t;
    psf_err err;

    (void)argc;
    (void)argv;
    fuzz_xml_quiet();
    /* Compile the cached schema once (it lives until exit). */
    if (costs_load_memory(&t, NAME, (const unsigned char *)warm, sizeof warm - 1, &err) == 0)
        costs_free(&t);
    return 0;
}

static void need(int ok)
{
    if (!ok)
        abort();
}

static void check_list(const cost_list *l)
{
    need(l->n <= l->cap);
    for (size_t i = 0; i < l->n; i++) {
        const cost_entry *e = &l->v[i];
        need(e->key != NULL && e->key[0] != '\0');
        need(e->cost <= PRICE_MAX && e->per_element <= PRICE_MAX);
        if (i > 0)
            need(strcmp(l->v[i - 1].key, e->key) < 0);
        need(costs_find(l, e->key) == e);
    }
    need(costs_find(l, "\x01 not a key") == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cost_table t;
    psf_err err;

    memset(&err, 0, sizeof err);
    if (costs_load_memory(&t, NAME, data, size, &err) != 0) {
        need(err.status == ST_BAD_INPUT);
        need(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        need(strncmp(err.msg, NAME, strlen(NAME)) == 0);
        need(t.path == NULL && t.unit == NULL && t.arrays.v == NULL &&
             t.news.v == NULL && t.invokes.v == NULL);
        costs_free(&t);     /* must be harmless on an emptied table */
        return 0;
    }

    need(t.path && strcmp(t.path, NAME) == 0);
    need(strlen(t.sha256) == 64);
    need(t.unit && (strcmp(t.unit, "bytecodes") == 0 || strcmp(t.unit, "cycles") == 0));
    need(!t.builtin);
    need(t.default_cost <= PRICE_MAX);
    for (unsigned op = 0; op < 256; op++)
        need(t.has_opcode[op] ? t.opcode[op] <= PRICE_MAX : t.opcode[op] == 0);
    /* A calibrated table carries every calibration attribute (an
     * uncalibrated one may carry them too: docs/cost-table.md). */
    if (t.calibrated)
        need(strcmp(t.unit, "cycles") == 0 && t.cpu_model && t.jdk_version &&
             t.jvm_flags && t.date && t.fit_r2 && t.tsc_hz != 0);
    check_list(&t.arrays);
    check_list(&t.news);
    check_list(&t.invokes);
    costs_free(&t);
    return 0;
}
