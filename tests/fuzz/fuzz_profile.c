/*
 * fuzz_profile.c - libFuzzer target for the profile reader
 * (scorer/profile_read.c through scorer/xmlload.c and libxml2).
 *
 * The input is the profile's bytes, given to profile_load_memory (the same
 * path profile_load_file takes after reading the file). On success the
 * loaded struct is walked and checked against what profile_read.h promises;
 * on failure the message must be "NAME..." with status ST_BAD_INPUT and the
 * profile empty. Seeds: tests/fuzz/corpus/profile/ (hand-written fixtures
 * and real agent output); dictionary: tests/fuzz/profile.dict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile_read.h"
#include "xml_quiet.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.profile.xml"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char warm[] = "<psf-profile version=\"2\"/>";
    profile p;
    psf_err err;

    (void)argc;
    (void)argv;
    fuzz_xml_quiet();
    /* Compile the cached schema once, so the first input is not charged with
     * memory that lives until exit. */
    (void)profile_load_memory(&p, NAME, (const unsigned char *)warm, sizeof warm - 1, &err);
    return 0;
}

static void need(int ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    profile p;
    psf_err err;

    memset(&err, 0, sizeof err);
    if (profile_load_memory(&p, NAME, data, size, &err) != 0) {
        /* Bad input is never an internal error. */
        need(err.status == ST_BAD_INPUT);
        need(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        need(strncmp(err.msg, NAME, strlen(NAME)) == 0);
        need(p.path == NULL && p.n_inv == 0 && p.n_methods == 0 && p.inv == NULL);
        return 0;
    }

    /* Touch every string the struct owns, so ASan sees a bad pointer. */
    need(p.path && strcmp(p.path, NAME) == 0);
    need(p.status_word != NULL);
    need(p.n_inv <= p.cap_inv && p.n_methods <= p.cap_methods &&
         p.n_candidates <= p.cap_candidates);
    size_t total = strlen(p.status_word);
    if (p.message) total += strlen(p.message);
    if (p.spec) total += strlen(p.spec);
    if (p.cls) total += strlen(p.cls);
    if (p.name) total += strlen(p.name);
    if (p.descriptor) total += strlen(p.descriptor);
    if (p.jvm_version) total += strlen(p.jvm_version);
    if (p.jvm_vendor) total += strlen(p.jvm_vendor);
    if (p.jvm_flags) total += strlen(p.jvm_flags);
    for (size_t i = 0; i < p.n_candidates; i++)
        if (p.candidates[i]) total += strlen(p.candidates[i]);
    for (size_t i = 0; i < p.n_inv; i++) {
        if (p.inv[i].thread) total += strlen(p.inv[i].thread);
        if (p.inv[i].end) total += strlen(p.inv[i].end);
    }
    for (int b = 0; b < N_BUCKETS; b++) {
        need(p.n_deps[b] <= p.cap_deps[b]);
        for (size_t i = 0; i < p.n_deps[b]; i++) {
            need(p.deps[b][i].kind <= DEP_NEW);
            if (p.deps[b][i].key) total += strlen(p.deps[b][i].key);
        }
    }
    for (size_t i = 0; i < p.n_methods; i++) {
        need(p.methods[i].n_ops <= p.methods[i].cap_ops);
        if (p.methods[i].name) total += strlen(p.methods[i].name);
        for (size_t k = 0; k < p.methods[i].n_ops; k++)
            total += p.methods[i].ops[k].op;
    }
    /* status ok promises the totals agree (profile_read.h). */
    if (p.status == ST_OK) {
        need(p.descriptor != NULL && p.n_inv > 0 && p.invocations == p.n_inv);
        uint64_t w = 0;
        for (unsigned op = 0; op < 256; op++)
            w += p.opcodes[BUCKET_WORK][op];
        need(w == p.work);
    }
    char *m = profile_method(&p);
    need(m != NULL);
    total += strlen(m);
    free(m);
    profile_free(&p);
    /* Keep `total` alive so the reads above are not optimised away. */
    __asm__ volatile("" : : "r"(total));
    return 0;
}
