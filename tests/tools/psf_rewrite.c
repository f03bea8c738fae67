/*
 * psf_rewrite.c - test driver for agent/classfile/instrument.c: rewrites one class
 * file with block probes and appends its block table to a TSV file, so the
 * JVM-level test (tests/integration/instrument_jvm.sh) can run the result
 * under `java -Xverify:all` and turn probe hits back into bytecode counts.
 *
 *   psf-rewrite [-p PROBE_CLASS] [-i FIRST_ID] [-b BRANCH_METHOD] [-e ENTRY_METHOD] [-a ARRAY_METHOD]
 *               [-c COPY_METHOD] [-m MADE_METHOD] [-k CALL_METHOD -r RETURN_METHOD] [-n NEW_METHOD]
 *               [-K] [-f FOLD_METHOD] IN.class OUT.class BLOCKS.tsv
 *   psf-rewrite [-p PROBE_CLASS] [-i FIRST_ID] -A boot|jdk|program IN.class OUT.class BLOCKS.tsv
 *   psf-rewrite [-A boot|jdk|program] -s < LIST
 *   psf-rewrite -B METHODS BLOCKS.tsv < OUTCOMES
 *
 * BLOCKS.tsv gets one line per block of every instrumented method:
 *   id <TAB> Class.method(desc) <TAB> start <TAB> bytecodes <TAB> end kind <TAB> op=count,... <TAB> last
 * (last: the offset of its last instruction, a conditional branch for end
 * kind "cond"). -b puts branch probes in too, -e entry probes, -a array
 * probes (sites from 0 in each class), -c copy probes, -m made probes,
 * -k and -r call and return probes, -n new probes, -K the fast engine's
 * constants and -f its folded branches (with -b), the branch sites seeded
 * as the agent seeds them (bp_seed of the method's name) (instrument.h).
 * -A puts in the probes the fast engine puts into a class of the boot
 * loader, another class of the JDK's or a class of the program's
 * (ins_fast_options: the other probe flags are not read), each method as
 * one that is neither measured nor a root.
 * with the method named as the profile names it (binary class name with
 * dots). stdout: "next_id N done D skipped S"; each method left
 * uninstrumented is named on stderr with the reason. Exit 0 on success
 * (methods may be skipped), 1 when the rewriter refused the class, 2 on a
 * usage or I/O error.
 *
 * With -s (survey), it rewrites every class file named on stdin, one path
 * a line, writes nothing, names each class it refused and each method it
 * skipped, and ends with one line of totals (docs/fast-engine.md, "The
 * rewriter", surveys the JDK image with it).
 *
 * With -B, it replays branch outcomes (block id * 2 + taken, one a line, as
 * tests/fixtures/probe/psf/Probe.java logs them; a folded outcome as
 * FOLDED | INS_FOLD_PACK value on one line and the id of the block it led
 * to on the next) through the step engine's simulated predictor
 * (common/branchpred.h), keeping only branches of the methods listed in
 * METHODS (one name a line), and prints
 * "conditional C taken T mispredicted M": what the step engine's profile
 * says for the same outcomes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "branchpred.h"
#include "bytecode.h"
#include "classfile.h"
#include "instrument.h"

/* The binary name of the class being rewritten, for seed_of. */
static char class_binary[1024];

/* The rewriter's branch_seed: bp_seed of "pkg.Class.name(desc)", the name
 * the agent gives the method (ASCII names: the fixtures' and the JDK's). */
static uint32_t seed_of(void *ctx, cp_str name, cp_str desc)
{
    (void)ctx;
    char full[8192];
    snprintf(full, sizeof full, "%s.%.*s%.*s", class_binary, (int)name.len, name.ptr, (int)desc.len, desc.ptr);
    return bp_seed(full);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = malloc(cap);
    while (p != NULL) {
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *q = realloc(p, cap * 2);
        if (q == NULL) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return p;
}

static const char *end_name(int k)
{
    static const char *const names[] = {"fall", "cond", "goto", "switch", "return", "throw", "jsr", "ret"};
    return k >= 0 && k < 8 ? names[k] : "?";
}

/* tests/fixtures/probe/psf/Probe.java: a folded outcome's marker */
#define FOLDED 0x40000000ul

/* -B: replay branch outcomes through the predictor. */
static int replay(const char *methods_path, const char *tsv_path)
{
    FILE *mf = fopen(methods_path, "r"), *tf = fopen(tsv_path, "r");
    if (mf == NULL || tf == NULL) {
        perror(mf == NULL ? methods_path : tsv_path);
        return 2;
    }
    char line[8192], *methods[256];
    int nmethods = 0;
    while (nmethods < 256 && fgets(line, sizeof line, mf) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        methods[nmethods++] = strdup(line);
    }
    fclose(mf);
    /* site per block id, for the blocks of the listed methods that end in a
     * conditional branch; 0 = not one of them */
    size_t cap = 1u << 22;
    uint32_t *site = calloc(cap, sizeof *site);
    uint8_t *wanted = calloc(cap, 1), *in_methods = calloc(cap, 1);
    if (site == NULL || wanted == NULL || in_methods == NULL)
        return 2;
    while (fgets(line, sizeof line, tf) != NULL) {
        char *f[7];
        int n = 0;
        for (char *tok = strtok(line, "\t\n"); tok != NULL && n < 7; tok = strtok(NULL, "\t\n"))
            f[n++] = tok;
        if (n < 7)
            continue;
        unsigned long id = strtoul(f[0], NULL, 10);
        for (int k = 0; k < nmethods && id < cap; k++)
            if (strcmp(methods[k], f[1]) == 0) {
                in_methods[id] = 1;
                if (strcmp(f[4], "cond") == 0) {
                    site[id] = bp_site(bp_seed(f[1]), (uint32_t)strtoul(f[6], NULL, 10));
                    wanted[id] = 1;
                }
            }
    }
    fclose(tf);
    branchpred *bp = malloc(sizeof *bp);
    if (bp == NULL)
        return 2;
    bp_init(bp);
    unsigned long long cond = 0, taken = 0, missed = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        unsigned long v = strtoul(line, NULL, 10), id = v / 2;
        if (v & FOLDED) {   /* the outcome, then the block it led to */
            unsigned long to = fgets(line, sizeof line, stdin) != NULL ? strtoul(line, NULL, 10) : cap;
            if (to >= cap || !in_methods[to])
                continue;
            int t = (int)(v >> 14 & 1);
            cond++;
            taken += (unsigned)t;
            missed += (unsigned)bp_branch(bp, (uint32_t)(v & 0x3fff), t);
            continue;
        }
        if (id >= cap || !wanted[id])
            continue;
        cond++;
        taken += v & 1;
        missed += (unsigned)bp_branch(bp, site[id], (int)(v & 1));
    }
    printf("conditional %llu taken %llu mispredicted %llu\n", cond, taken, missed);
    for (int k = 0; k < nmethods; k++)
        free(methods[k]);
    free(site);
    free(wanted);
    free(in_methods);
    free(bp);
    return 0;
}

/* -s: rewrite every class named on stdin; print what was skipped and the
 * totals. 0 when every class was rewritten, 1 otherwise. */
static int survey(const ins_options *opt)
{
    char path[4096];
    unsigned long classes = 0, failed = 0, methods = 0, done = 0, large = 0, refused = 0, blocks = 0;
    unsigned long long old_bytes = 0, new_bytes = 0;
    while (fgets(path, sizeof path, stdin) != NULL) {
        path[strcspn(path, "\n")] = '\0';
        size_t len = 0;
        uint8_t *in = slurp(path, &len);
        if (in == NULL) {
            perror(path);
            return 2;
        }
        ins_result r;
        char err[256];
        classes++;
        if (ins_rewrite(in, len, opt, &r, err, sizeof err)) {
            failed++;
            printf("refused class %s: %s\n", path, err);
            free(in);
            continue;
        }
        for (uint32_t k = 0; k < r.nmethods; k++) {
            const ins_method *m = &r.methods[k];
            if (m->status == INS_METHOD_NO_CODE)
                continue;
            methods++;
            if (m->status == INS_METHOD_DONE) {
                done++;
                blocks += m->blocks.nblocks;
                old_bytes += m->old_len;
                new_bytes += m->new_len;
                continue;
            }
            if (m->status == INS_METHOD_TOO_LARGE)
                large++;
            else
                refused++;
            printf("skipped %s %.*s%.*s: %s\n", path, (int)m->name.len, m->name.ptr, (int)m->desc.len,
                   m->desc.ptr, m->why);
        }
        ins_free(&r);
        free(in);
    }
    printf("classes %lu refused %lu methods %lu instrumented %lu too_large %lu refused_methods %lu "
           "blocks %lu code_bytes %llu -> %llu\n", classes, failed, methods, done, large, refused, blocks,
           old_bytes, new_bytes);
    return failed || large || refused ? 1 : 0;
}

/* With -A: every method is neither the measured method nor a root (the fast engine's calls_of, 0). */
static int no_calls(void *ctx, cp_str name, cp_str desc)
{
    (void)ctx;
    (void)name;
    (void)desc;
    return 0;
}

int main(int argc, char **argv)
{
    ins_options opt = {.probe_class = "psf/Probe", .probe_method = "block", .branch_seed = seed_of};
    int c, do_survey = 0, do_replay = 0;
    const char *agent = NULL;
    while ((c = getopt(argc, argv, "p:i:b:e:a:c:m:k:r:n:f:A:KsB")) != -1) {
        if (c == 'A')
            agent = optarg;
        else if (c == 'K')
            opt.consts = 1;
        else if (c == 'f')
            opt.fold_method = optarg;
        else if (c == 'p')
            opt.probe_class = optarg;
        else if (c == 'b')
            opt.branch_method = optarg;
        else if (c == 'e')
            opt.entry_method = optarg;
        else if (c == 'a')
            opt.array_method = optarg;
        else if (c == 'c')
            opt.copy_method = optarg;
        else if (c == 'm')
            opt.made_method = optarg;
        else if (c == 'k')
            opt.call_method = optarg;
        else if (c == 'r')
            opt.return_method = optarg;
        else if (c == 'n')
            opt.new_method = optarg;
        else if (c == 'B')
            do_replay = 1;
        else if (c == 'i')
            opt.first_id = (uint32_t)strtoul(optarg, NULL, 10);
        else if (c == 's')
            do_survey = 1;
        else
            return 2;
    }
    if (agent != NULL) {
        int boot = strcmp(agent, "boot") == 0, program = strcmp(agent, "program") == 0;
        if (!boot && !program && strcmp(agent, "jdk") != 0) {
            fprintf(stderr, "psf-rewrite: -A takes boot, jdk or program, not '%s'\n", agent);
            return 2;
        }
        uint32_t first_id = opt.first_id;
        ins_fast_options(&opt, opt.probe_class, program, boot);
        opt.first_id = first_id;
        opt.calls_filter = no_calls;
        opt.branch_seed = seed_of;
    }
    if (do_survey)
        return survey(&opt);
    if (do_replay) {
        if (argc - optind != 2)
            return 2;
        return replay(argv[optind], argv[optind + 1]);
    }
    if (argc - optind != 3) {
        fprintf(stderr, "usage: psf-rewrite [-p PROBE_CLASS] [-i FIRST_ID] [-b BRANCH_METHOD] [-e ENTRY_METHOD] [-a ARRAY_METHOD]\n"
                        "                   [-c COPY_METHOD] [-m MADE_METHOD] [-k CALL_METHOD -r RETURN_METHOD] [-n NEW_METHOD]\n"
                        "                   [-K] [-f FOLD_METHOD] IN.class OUT.class BLOCKS.tsv\n"
                        "       psf-rewrite [-p PROBE_CLASS] [-i FIRST_ID] -A boot|jdk|program IN.class OUT.class BLOCKS.tsv\n"
                        "       psf-rewrite [-A boot|jdk|program] -s < LIST_OF_CLASS_FILES\n"
                        "       psf-rewrite -B METHODS BLOCKS.tsv < BRANCH_OUTCOMES\n");
        return 2;
    }
    const char *inp = argv[optind], *outp = argv[optind + 1], *tsvp = argv[optind + 2];
    size_t len = 0;
    uint8_t *in = slurp(inp, &len);
    if (in == NULL) {
        perror(inp);
        return 2;
    }
    ins_result r;
    char err[256];
    classfile cf;
    if (cf_parse(&cf, in, len, err, sizeof err) == 0) {
        snprintf(class_binary, sizeof class_binary, "%.*s", (int)cf.this_name.len, cf.this_name.ptr);
        for (char *q = class_binary; *q; q++)
            if (*q == '/')
                *q = '.';
        cf_free(&cf);
    }
    if (ins_rewrite(in, len, &opt, &r, err, sizeof err)) {
        fprintf(stderr, "psf-rewrite: %s: %s\n", inp, err);
        free(in);
        return 1;
    }
    FILE *out = fopen(outp, "wb");
    FILE *tsv = fopen(tsvp, "a");
    if (out == NULL || tsv == NULL || fwrite(r.bytes, 1, r.len, out) != r.len) {
        perror(out == NULL ? outp : tsvp);
        return 2;
    }
    char cls[1024];
    snprintf(cls, sizeof cls, "%.*s", (int)r.class_name.len, r.class_name.ptr);
    for (char *q = cls; *q; q++)
        if (*q == '/')
            *q = '.';
    for (uint32_t k = 0; k < r.nmethods; k++) {
        const ins_method *m = &r.methods[k];
        if (m->status == INS_METHOD_TOO_LARGE || m->status == INS_METHOD_REFUSED)
            fprintf(stderr, "psf-rewrite: %s.%.*s%.*s not instrumented: %s\n", cls, (int)m->name.len,
                    m->name.ptr, (int)m->desc.len, m->desc.ptr, m->why);
        if (m->status != INS_METHOD_DONE)
            continue;
        for (uint32_t b = 0; b < m->blocks.nblocks; b++) {
            const blk_block *bl = &m->blocks.blocks[b];
            fprintf(tsv, "%u\t%s.%.*s%.*s\t%u\t%u\t%s\t", m->first_id + b, cls, (int)m->name.len,
                    m->name.ptr, (int)m->desc.len, m->desc.ptr, bl->start, bl->ninsns, end_name(bl->end_kind));
            for (uint32_t h = 0; h < bl->hist_count; h++) {
                const blk_opcount *oc = &m->blocks.hist[bl->hist_first + h];
                fprintf(tsv, "%s%s=%u", h ? "," : "", bc_mnemonic(oc->op), oc->count);
            }
            fprintf(tsv, "\t%u\n", bl->last);
        }
    }
    int bad = fclose(out) != 0;
    bad |= fclose(tsv) != 0;
    printf("next_id %u done %u skipped %u\n", r.next_id, r.ndone, r.nskipped);
    ins_free(&r);
    free(in);
    return bad ? 2 : 0;
}
