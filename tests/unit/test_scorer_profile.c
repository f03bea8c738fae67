/*
 * test_scorer_profile.c - the profile reader (scorer/profile_read.c):
 * versions 7, 6 and 5 only (contexts in 7, lines in 6 and 7), the schema, and the consistency a
 * status-ok profile owes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bytecode.h"
#include "profile_format.h"
#include "profile_read.h"
#include "xmlload.h"

static const char OK_PROFILE[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                               /* 1 */
    "<psf-profile version=\"5\" status=\"ok\">\n"                                /* 2 */
    "  <target spec=\"A.f\" class=\"A\" name=\"f\" descriptor=\"()V\"/>\n"       /* 3 */
    "  <jvm version=\"17.0.15\" vendor=\"v\" flags=\"-Xint\"/>\n"                /* 4 */
    "  <summary invocations=\"1\" work=\"3\" overhead=\"1\"/>\n"                 /* 5 */
    "  <invocations>\n"                                                          /* 6 */
    "    <invocation index=\"1\" thread=\"main\" work=\"3\" overhead=\"1\" end=\"return\"/>\n" /* 7 */
    "  </invocations>\n"                                                         /* 8 */
    "  <opcodes bucket=\"work\">\n"                                              /* 9 */
    "    <opcode name=\"iconst_0\" count=\"1\"/>\n"                              /* 10 */
    "    <opcode name=\"nop\" count=\"1\"/>\n"                                   /* 11 */
    "    <opcode name=\"return\" count=\"1\"/>\n"                                /* 12 */
    "  </opcodes>\n"                                                             /* 13 */
    "  <opcodes bucket=\"overhead\">\n"                                          /* 14 */
    "    <opcode name=\"pop\" count=\"1\"/>\n"                                   /* 15 */
    "  </opcodes>\n"                                                             /* 16 */
    "  <dependencies bucket=\"work\">\n"                                         /* 17 */
    "    <array elem=\"int\" allocations=\"2\" elements=\"7\"/>\n"               /* 18 */
    "    <invoke method=\"B.g()V\" count=\"4\" native=\"true\"/>\n"              /* 19 */
    "  </dependencies>\n"                                                        /* 20 */
    "  <dependencies bucket=\"overhead\"/>\n"                                    /* 21 */
    "  <branches bucket=\"work\" conditional=\"0\" taken=\"0\" mispredicted=\"0\"/>"
    "<branches bucket=\"overhead\" conditional=\"0\" taken=\"0\" mispredicted=\"0\"/>"
    "<calls bucket=\"work\" entries=\"1\" close=\"0\" fence_native=\"396\" fence_alloc=\"0\"/>"
    "<calls bucket=\"overhead\" entries=\"0\" close=\"0\" fence_native=\"0\" fence_alloc=\"0\"/>\n" /* 22 */
    "  <methods>\n"                                                              /* 23 */
    "    <method name=\"A.f()V\" work=\"3\" overhead=\"1\">\n"                   /* 24 */
    "      <opcode name=\"iconst_0\" work=\"1\" overhead=\"0\"/>\n"              /* 25 */
    "      <opcode name=\"nop\" work=\"1\" overhead=\"0\"/>\n"                   /* 26 */
    "      <opcode name=\"pop\" work=\"0\" overhead=\"1\"/>\n"                   /* 27 */
    "      <opcode name=\"return\" work=\"1\" overhead=\"0\"/>\n"                /* 28 */
    "    </method>\n"
    "  </methods>\n"
    "</psf-profile>\n";

/* text with the first `from` replaced by `to`; caller frees. */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *s = malloc(n);
    assert_non_null(at);
    snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return s;
}

/* OK_PROFILE with the first `from` replaced by `to`; caller frees. */
static char *edit(const char *from, const char *to)
{
    return replace(OK_PROFILE, from, to);
}

static int load(profile *p, const char *xml, psf_err *e)
{
    memset(e, 0, sizeof *e);
    return profile_load_memory(p, "p.xml", (const unsigned char *)xml, strlen(xml), e);
}

/* Rejected with "p.xml:LINE:" (line > 0) or "p.xml:" (line 0) and `part`. */
static void rejected_xml(const char *xml, long line, const char *part)
{
    profile p;
    psf_err e;
    char prefix[32];

    assert_int_equal(load(&p, xml, &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    if (line > 0)
        snprintf(prefix, sizeof prefix, "p.xml:%ld:", line);
    else
        snprintf(prefix, sizeof prefix, "p.xml:");
    if (strncmp(e.msg, prefix, strlen(prefix)) != 0 || !strstr(e.msg, part))
        fail_msg("got \"%s\", want prefix \"%s\" and \"%s\"", e.msg, prefix, part);
    assert_null(p.path);
    profile_free(&p);
}

static void rejected(const char *from, const char *to, long line, const char *part)
{
    char *xml = edit(from, to);
    rejected_xml(xml, line, part);
    free(xml);
}

static void profile_load__ok_profile__every_section(void **state)
{
    profile p;
    psf_err e;
    char *m;
    (void)state;

    assert_int_equal(load(&p, OK_PROFILE, &e), 0);
    assert_int_equal(p.status, ST_OK);
    assert_string_equal(p.status_word, "ok");
    assert_null(p.message);
    m = profile_method(&p);
    assert_string_equal(m, "A.f()V");
    free(m);
    assert_string_equal(p.jvm_version, "17.0.15");
    assert_true(p.invocations == 1 && p.work == 3 && p.overhead == 1);
    assert_int_equal(p.n_inv, 1);
    assert_string_equal(p.inv[0].thread, "main");
    assert_string_equal(p.inv[0].end, "return");
    assert_true(p.opcodes[BUCKET_WORK][bc_opcode("nop")] == 1);
    assert_true(p.opcodes[BUCKET_OVERHEAD][bc_opcode("pop")] == 1);
    assert_int_equal(p.n_deps[BUCKET_WORK], 2);
    assert_int_equal(p.deps[BUCKET_WORK][0].kind, DEP_ARRAY);
    assert_true(p.deps[BUCKET_WORK][0].count == 2 && p.deps[BUCKET_WORK][0].elements == 7);
    assert_int_equal(p.deps[BUCKET_WORK][1].kind, DEP_INVOKE);
    assert_true(p.deps[BUCKET_WORK][1].native);
    assert_int_equal(p.n_deps[BUCKET_OVERHEAD], 0);
    assert_true(p.has_calls[BUCKET_WORK] && p.has_calls[BUCKET_OVERHEAD]);
    assert_true(p.calls[BUCKET_WORK][PROF_CALL_ENTRIES] == 1 && p.calls[BUCKET_WORK][PROF_CALL_CLOSE] == 0);
    assert_int_equal(p.n_methods, 1);
    assert_int_equal(p.methods[0].n_ops, 4);
    profile_free(&p);
}

static void profile_load__optional_agent_attributes__accepted(void **state)
{
    profile p;
    psf_err e;
    char *a = edit("flags=\"-Xint\"/>", "flags=\"-Xint\" info=\"interpreted mode, sharing\"/>");
    char *b = replace(a, "overhead=\"1\"/>\n  <invocations>", "overhead=\"1\" threads=\"2\"/>\n  <invocations>");
    char *c = replace(b, "count=\"4\" native=\"true\"/>", "count=\"4\" native=\"true\" elements=\"40\"/>");
    char *d = replace(c, "end=\"return\"", "end=\"exception\" exception=\"java.lang.IllegalStateException\"");
    (void)state;
    assert_int_equal(load(&p, d, &e), 0);
    assert_true(p.deps[BUCKET_WORK][1].elements == 40);
    profile_free(&p);
    free(a);
    free(b);
    free(c);
    free(d);
    rejected("end=\"return\"", "end=\"return\" x=\"1\"", 7, "does not match the schema");
}

/* An invocation's work counted on threads the method did not start: read,
 * summed over the invocations, 0 without the attribute, never above the
 * invocation's work. */
static void profile_load__unscheduled__read_summed_and_bounded(void **state)
{
    profile p;
    psf_err e;
    char *a = edit("end=\"return\"", "end=\"return\" unscheduled=\"2\"");
    (void)state;
    assert_int_equal(load(&p, a, &e), 0);
    assert_true(p.inv[0].unscheduled == 2);
    assert_true(profile_unscheduled(&p) == 2);
    profile_free(&p);
    free(a);
    assert_int_equal(load(&p, OK_PROFILE, &e), 0);
    assert_true(p.inv[0].unscheduled == 0 && profile_unscheduled(&p) == 0);
    profile_free(&p);
    rejected("end=\"return\"", "end=\"return\" unscheduled=\"4\"", 7, "unscheduled=\"4\" exceeds its work (3)");
}

/* OK_PROFILE with its work nop turned into an ldc that loaded `classes`
 * class constants; caller frees. */
static char *with_ldc(const char *classes)
{
    char attr[64];
    char *a = edit("<opcode name=\"nop\" count=\"1\"/>", "<opcode name=\"ldc\" count=\"1\"/>");
    char *b = replace(a, "<opcode name=\"nop\" work=\"1\"", "<opcode name=\"ldc\" work=\"1\"");
    snprintf(attr, sizeof attr, "<ldc constant=\"class\" count=\"%s\"/>\n  </dependencies>", classes);
    char *c = replace(b, "</dependencies>", attr);
    free(a);
    free(b);
    return c;
}

static void profile_load__ldc_class__read_and_bounded_by_ldc_bytecodes(void **state)
{
    profile p;
    psf_err e;
    char *xml = with_ldc("1");
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_int_equal(p.n_deps[BUCKET_WORK], 3);
    assert_int_equal(p.deps[BUCKET_WORK][2].kind, DEP_LDC);
    assert_string_equal(p.deps[BUCKET_WORK][2].key, "class");
    assert_true(p.deps[BUCKET_WORK][2].count == 1);
    profile_free(&p);
    free(xml);
    /* one ldc bytecode cannot have loaded two class constants */
    xml = with_ldc("2");
    rejected_xml(xml, 0, "inconsistent profile: work <ldc constant=\"class\"> count=\"2\" but only 1 ldc and ldc_w bytecodes");
    free(xml);
    /* only class constants are counted */
    rejected("</dependencies>", "<ldc constant=\"string\" count=\"0\"/></dependencies>", 20, "does not match the schema");
}

static void profile_load__fixture_file__loads(void **state)
{
    profile p;
    psf_err e;
    (void)state;
    assert_int_equal(profile_load_file(&p, "tests/fixtures/scorer/basic.profile.xml", &e), 0);
    assert_int_equal(p.n_methods, 3);
    assert_string_equal(p.methods[2].name, "demo.Sum.<clinit>()V");
    assert_string_equal(p.inv[1].thread, "worker \"1\"");
    assert_int_equal(p.n_deps[BUCKET_WORK], 6);
    profile_free(&p);
}

static void profile_load__other_version__rejected_by_name(void **state)
{
    (void)state;
    for (int v = 1; v <= 8; v += v == 4 ? 4 : 1) {
        char attr[32], msg[96];
        snprintf(attr, sizeof attr, "version=\"%d\" status", v);
        snprintf(msg, sizeof msg, "profile format version \"%d\"; this scorer reads versions 7, 6 and 5 only", v);
        rejected("version=\"5\" status", attr, 2, msg);
    }
    rejected("version=\"5\" status", "status", 2, "version \"(none)\"");
}

/* OK_PROFILE as version 6, with `lines` after A.f's opcodes; caller frees. */
static char *with_lines(const char *version, const char *lines)
{
    char attr[32], *v, *s;
    snprintf(attr, sizeof attr, "version=\"%s\" status", version);
    v = edit("version=\"5\" status", attr);
    char *after = malloc(strlen(lines) + 64);
    assert_non_null(after);
    sprintf(after, "work=\"1\" overhead=\"0\"/>\n%s    </method>", lines);
    s = replace(v, "work=\"1\" overhead=\"0\"/>\n    </method>", after);
    free(after);
    free(v);
    return s;
}

/* A.f: line 3 runs iconst_0, nop (work) and pop (overhead), line 4 return. */
#define LINE3 "      <line number=\"3\" work=\"2\" overhead=\"1\">\n" \
              "        <opcode name=\"iconst_0\" work=\"1\" overhead=\"0\"/>\n" \
              "        <opcode name=\"nop\" work=\"1\" overhead=\"0\"/>\n" \
              "        <opcode name=\"pop\" work=\"0\" overhead=\"1\"/>\n" \
              "      </line>\n"
#define LINE4 "      <line number=\"4\" work=\"1\" overhead=\"0\">\n" \
              "        <opcode name=\"return\" work=\"1\" overhead=\"0\"/>\n" \
              "      </line>\n"

static void profile_load__version6_lines__kept_in_order(void **state)
{
    profile p;
    psf_err e;
    char *xml = with_lines("6", LINE3 LINE4);
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_true(p.has_lines);
    assert_int_equal(p.methods[0].n_lines, 2);
    assert_int_equal(p.methods[0].lines[0].number, 3);
    assert_true(p.methods[0].lines[0].work == 2 && p.methods[0].lines[0].overhead == 1);
    assert_int_equal(p.methods[0].lines[0].n_ops, 3);
    assert_int_equal(p.methods[0].lines[1].number, 4);
    assert_int_equal(p.methods[0].lines[1].ops[0].op, 0xb1); /* return */
    profile_free(&p);
    free(xml);
}

static void profile_load__lines_not_adding_up__rejected(void **state)
{
    char *xml;
    (void)state;
    xml = with_lines("6", LINE3); /* no line for the return */
    rejected_xml(xml, 0, "method A.f()V: its lines do not add up to its opcodes");
    free(xml);
    xml = with_lines("6", LINE3 "      <line number=\"4\" work=\"2\" overhead=\"0\">\n"
                                "        <opcode name=\"return\" work=\"1\" overhead=\"0\"/>\n      </line>\n");
    rejected_xml(xml, 0, "method A.f()V, line 4: its opcodes do not add up");
    free(xml);
    xml = with_lines("5", LINE3 LINE4);
    rejected_xml(xml, 29, "<line> in a version-5 profile");
    free(xml);
    xml = with_lines("6", LINE3 LINE3 LINE4);
    rejected_xml(xml, 0, "does not match the schema");
    free(xml);
}

/* OK_PROFILE as version 7, A.f's lines 3 and 4 (LINE3, LINE4) and
 * `contexts` after <methods> (its first line is line 39); caller frees. */
static char *with_contexts(const char *contexts)
{
    char *v = with_lines("7", LINE3 LINE4);
    char *after = malloc(strlen(contexts) + 64);
    assert_non_null(after);
    sprintf(after, "  </methods>\n%s</psf-profile>", contexts);
    char *s = replace(v, "  </methods>\n</psf-profile>", after);
    free(after);
    free(v);
    return s;
}

/* A.f (2 work, 1 overhead of its own) calls B.g on line 3 (1 work). */
#define CTX_OPEN "  <contexts limit=\"1000\" other_work=\"0\" other_overhead=\"0\">\n"
#define CTX_AF "    <frame id=\"1\" parent=\"0\" method=\"A.f()V\" line=\"0\" program=\"true\" work=\"2\" " \
               "overhead=\"1\" other_work=\"0\" other_overhead=\"0\"/>\n"
#define CTX_BG "    <frame id=\"2\" parent=\"1\" method=\"B.g()V\" line=\"3\" work=\"1\" overhead=\"0\" " \
               "other_work=\"0\" other_overhead=\"0\"/>\n"
#define CTX_CLOSE "  </contexts>\n"

static void profile_load__version7_contexts__kept_in_order(void **state)
{
    profile p;
    psf_err e;
    char *xml = with_contexts(CTX_OPEN CTX_AF CTX_BG CTX_CLOSE);
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_true(p.has_contexts && p.has_lines);
    assert_int_equal(p.n_frames, 2);
    assert_string_equal(p.frames[0].method, "A.f()V");
    assert_true(p.frames[0].program && p.frames[0].parent == 0 && p.frames[0].overhead == 1);
    assert_string_equal(p.frames[1].method, "B.g()V");
    assert_true(!p.frames[1].program && p.frames[1].parent == 1 && p.frames[1].line == 3);
    profile_free(&p);
    free(xml);
}

static void profile_load__contexts_not_adding_up__rejected(void **state)
{
    char *xml;
    (void)state;
    xml = with_contexts(CTX_OPEN CTX_AF CTX_CLOSE); /* B.g's bytecode is missing */
    rejected_xml(xml, 39, "summary work vs the sum of <contexts> (3 vs 2)");
    free(xml);
    /* ... unless the root's other holds it */
    xml = with_contexts("  <contexts limit=\"1000\" other_work=\"1\" other_overhead=\"0\">\n" CTX_AF CTX_CLOSE);
    profile p;
    psf_err e;
    assert_int_equal(load(&p, xml, &e), 0);
    profile_free(&p);
    free(xml);
    xml = with_contexts(""); /* version 7, ok, no contexts */
    rejected_xml(xml, 2, "status ok needs <contexts> in version 7");
    free(xml);
}

static void profile_load__contexts_malformed__rejected(void **state)
{
    char *xml, *v;
    (void)state;
    xml = with_contexts(CTX_OPEN CTX_BG CTX_AF CTX_CLOSE); /* child before parent */
    rejected_xml(xml, 40, "frames are numbered 1, 2, ... in order, each after its parent");
    free(xml);
    xml = with_contexts(CTX_OPEN CTX_AF CTX_AF CTX_CLOSE); /* one id twice */
    rejected_xml(xml, 0, "does not match the schema");
    free(xml);
    v = with_contexts(CTX_OPEN CTX_AF CTX_BG CTX_CLOSE);
    xml = replace(v, "version=\"7\"", "version=\"6\"");
    rejected_xml(xml, 39, "<contexts> in a version-6 or older profile");
    free(xml);
    free(v);
    /* more frames than the format allows */
    size_t cap = 200 * (PSF_PROFILE_CONTEXTS_MAX + 1) + 256;
    char *many = malloc(cap);
    assert_non_null(many);
    size_t at = (size_t)snprintf(many, cap, "%s", CTX_OPEN);
    for (int i = 1; i <= PSF_PROFILE_CONTEXTS_MAX + 1; i++)
        at += (size_t)snprintf(many + at, cap - at, "    <frame id=\"%d\" parent=\"0\" method=\"A.f()V\" line=\"0\" "
                               "work=\"0\" overhead=\"0\" other_work=\"0\" other_overhead=\"0\"/>\n", i);
    snprintf(many + at, cap - at, "%s", CTX_CLOSE);
    xml = with_contexts(many);
    rejected_xml(xml, 40 + PSF_PROFILE_CONTEXTS_MAX, "more than 1000 <frame> elements");
    free(xml);
    free(many);
}

static void profile_load__not_a_profile__rejected(void **state)
{
    (void)state;
    rejected_xml("<?xml version=\"1.0\"?>\n<costs unit=\"cycles\" calibrated=\"false\"/>\n", 2, "not a PSF profile");
    rejected_xml("<?xml version=\"1.0\"?>\n<psf-profile version=\"5\" status=\"ok\">\n  <target", 3, "malformed XML");
    rejected_xml("", 0, "empty file");
}

static void profile_load__schema_invalid__rejected_with_line(void **state)
{
    (void)state;
    rejected("status=\"ok\"", "status=\"great\"", 2, "does not match the schema");
    rejected("<opcode name=\"nop\" count=\"1\"/>", "<opcode name=\"nop\" count=\"-1\"/>", 11, "does not match the schema");
    rejected("<opcode name=\"nop\" count=\"1\"/>", "<opcode name=\"nop\" count=\"1\" extra=\"x\"/>", 11, "extra");
    rejected("  <jvm version", "  <bogus/>\n  <jvm version", 4, "does not match the schema");
    rejected("    <opcode name=\"return\" count=\"1\"/>\n", "    <opcode name=\"return\" count=\"1\"/>\n    <opcode name=\"nop\" count=\"9\"/>\n",
             13, "Duplicate");
}

static void profile_load__unknown_mnemonic__rejected_with_line(void **state)
{
    (void)state;
    rejected("<opcode name=\"nop\" count", "<opcode name=\"nope\" count", 11, "<opcode name=\"nope\">: not a JVMS opcode mnemonic");
    rejected("<opcode name=\"pop\" work", "<opcode name=\"breakpoint\" work", 27, "not a JVMS opcode mnemonic");
}

static void profile_load__count_above_64_bits__rejected_with_line(void **state)
{
    (void)state;
    rejected("invocations=\"1\" work=\"3\"", "invocations=\"1\" work=\"18446744073709551616\"", 5,
             "work=\"18446744073709551616\" is not an unsigned 64-bit count");
}

static void profile_load__inconsistent_totals__rejected(void **state)
{
    (void)state;
    rejected("invocations=\"1\" work=\"3\"", "invocations=\"1\" work=\"4\"", 5, "inconsistent profile: summary work vs the sum of <invocation> work (4 vs 3)");
    rejected("invocations=\"1\"", "invocations=\"2\"", 5, "summary invocations");
    rejected("<opcode name=\"iconst_0\" count=\"1\"/>", "<opcode name=\"iconst_0\" count=\"2\"/>", 23,
             "work count of iconst_0 in <opcodes> vs the sum over <methods> (2 vs 1)");
    rejected("<opcode name=\"nop\" work=\"1\"", "<opcode name=\"nop\" work=\"2\"", 0, "method A.f()V: its opcodes do not add up");
    /* a branch is counted after an if* bytecode: none here */
    rejected("<branches bucket=\"work\" conditional=\"0\"", "<branches bucket=\"work\" conditional=\"1\"", 0,
             "inconsistent profile: work <branches>");
    rejected("bucket=\"overhead\" conditional=\"0\" taken=\"0\"", "bucket=\"overhead\" conditional=\"0\" taken=\"1\"", 0,
             "inconsistent profile: overhead <branches>");
    /* an entry is a bytecode (3 of work), at most 99 of closeness each */
    rejected("<calls bucket=\"work\" entries=\"1\"", "<calls bucket=\"work\" entries=\"4\"", 0,
             "inconsistent profile: work <calls> entries=\"4\" close=\"0\": more entries than bytecodes (3)");
    rejected("entries=\"1\" close=\"0\"", "entries=\"1\" close=\"100\"", 0,
             "or more closeness than 99 an entry");
    rejected("<calls bucket=\"overhead\" entries=\"0\" close=\"0\"", "<calls bucket=\"overhead\" entries=\"0\" close=\"1\"", 0,
             "inconsistent profile: overhead <calls>");
    /* a fence is a native call (4 of B.g) or an allocation (no new* bytecode),
     * at most 99 of closeness each: 396 passes, 397 does not */
    rejected("fence_native=\"396\"", "fence_native=\"397\"", 0,
             "inconsistent profile: work <calls> fence_native=\"397\" fence_alloc=\"0\": more than 99 a native call (4) "
             "or an allocation (0)");
    rejected("fence_native=\"396\" fence_alloc=\"0\"", "fence_native=\"396\" fence_alloc=\"1\"", 0,
             "inconsistent profile: work <calls> fence_native=\"396\" fence_alloc=\"1\"");
    rejected("<calls bucket=\"overhead\" entries=\"0\" close=\"0\" fence_native=\"0\"",
             "<calls bucket=\"overhead\" entries=\"0\" close=\"0\" fence_native=\"1\"", 0,
             "inconsistent profile: overhead <calls> fence_native");
    rejected(" fence_native=\"396\"", "", 22, "does not match the schema");
}

static void profile_load__ok_with_missing_section__rejected(void **state)
{
    (void)state;
    rejected("  <dependencies bucket=\"overhead\"/>\n", "", 2, "status ok needs");
    rejected("<branches bucket=\"overhead\" conditional=\"0\" taken=\"0\" mispredicted=\"0\"/>", "", 2,
             "<dependencies>, <branches> and <calls> for both buckets");
    rejected("<calls bucket=\"overhead\" entries=\"0\" close=\"0\" fence_native=\"0\" fence_alloc=\"0\"/>", "", 2,
             "<dependencies>, <branches> and <calls> for both buckets");
    rejected("descriptor=\"()V\"", "", 2, "no descriptor");
    rejected("end=\"return\"", "end=\"incomplete\"", 0, "invocation 1 ended \"incomplete\"");
}

static void profile_load__not_invoked__loads_with_message(void **state)
{
    profile p;
    psf_err e;
    const char *xml =
        "<?xml version=\"1.0\"?>\n"
        "<psf-profile version=\"5\" status=\"not_invoked\">\n"
        "  <target spec=\"A.f\" class=\"A\" name=\"f\" descriptor=\"()V\"/>\n"
        "  <message>A.f()V was never invoked</message>\n"
        "  <jvm version=\"17\" vendor=\"v\" flags=\"\"/>\n"
        "  <summary invocations=\"0\" work=\"0\" overhead=\"0\"/>\n"
        "  <invocations/>\n"
        "  <opcodes bucket=\"work\"/>\n  <opcodes bucket=\"overhead\"/>\n"
        "  <dependencies bucket=\"work\"/>\n  <dependencies bucket=\"overhead\"/>\n"
        "  <methods/>\n"
        "</psf-profile>\n";
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_int_equal(p.status, ST_NOT_INVOKED);
    assert_string_equal(p.message, "A.f()V was never invoked");
    profile_free(&p);
}

static void profile_load__ambiguous__candidates_kept(void **state)
{
    profile p;
    psf_err e;
    const char *xml =
        "<?xml version=\"1.0\"?>\n"
        "<psf-profile version=\"5\" status=\"ambiguous_method\">\n"
        "  <target spec=\"A.f\" class=\"A\" name=\"f\"/>\n"
        "  <candidates><candidate descriptor=\"()V\"/><candidate descriptor=\"(I)V\"/></candidates>\n"
        "  <message>A.f has 2 overloads</message>\n"
        "</psf-profile>\n";
    char *m;
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_int_equal(p.status, ST_AMBIGUOUS_METHOD);
    assert_int_equal(p.n_candidates, 2);
    assert_string_equal(p.candidates[1], "(I)V");
    m = profile_method(&p);
    assert_string_equal(m, "A.f");   /* unresolved: the spec */
    free(m);
    profile_free(&p);
}

static void profile_load__agent_error_without_class__loads(void **state)
{
    profile p;
    psf_err e;
    const char *xml =
        "<?xml version=\"1.0\"?>\n"
        "<psf-profile version=\"5\" status=\"agent_error\">\n"
        "  <target spec=\"not a spec\"/>\n"
        "  <message>bad method spec</message>\n"
        "</psf-profile>\n";
    char *m;
    (void)state;
    assert_int_equal(load(&p, xml, &e), 0);
    assert_int_equal(p.status, ST_AGENT_ERROR);
    m = profile_method(&p);
    assert_string_equal(m, "not a spec");
    free(m);
    profile_free(&p);
}

static void profile_load_file__missing__says_so(void **state)
{
    profile p;
    psf_err e;
    (void)state;
    assert_int_equal(profile_load_file(&p, "no/such/profile.xml", &e), -1);
    assert_string_equal(e.msg, "no/such/profile.xml: cannot open: No such file or directory");
}

static void profile_load_file__not_regular__refused_without_reading(void **state)
{
    profile p;
    psf_err e;
    (void)state;
    assert_int_equal(profile_load_file(&p, "/dev/zero", &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    assert_string_equal(e.msg, "/dev/zero: not a regular file (a device)");
    assert_int_equal(profile_load_file(&p, "tests", &e), -1);
    assert_string_equal(e.msg, "tests: not a regular file (a directory)");
}

static void profile_load_file__over_the_size_bound__refused(void **state)
{
    char path[] = "/tmp/psf-huge-profile.XXXXXX";
    profile p;
    psf_err e;
    char want[128];
    int fd = mkstemp(path);
    (void)state;
    assert_true(fd >= 0);
    /* a sparse file one byte over the bound (no disk space): refused by its size */
    assert_int_equal(ftruncate(fd, (off_t)XML_MAX_INPUT + 1), 0);
    close(fd);
    assert_int_equal(profile_load_file(&p, path, &e), -1);
    assert_int_equal(e.status, ST_BAD_INPUT);
    snprintf(want, sizeof want, "%s: larger than %zu bytes", path, XML_MAX_INPUT);
    assert_string_equal(e.msg, want);
    unlink(path);
}

static int teardown(void **state)
{
    (void)state;
    xml_cleanup();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_load__ok_profile__every_section),
        cmocka_unit_test(profile_load__optional_agent_attributes__accepted),
        cmocka_unit_test(profile_load__unscheduled__read_summed_and_bounded),
        cmocka_unit_test(profile_load__ldc_class__read_and_bounded_by_ldc_bytecodes),
        cmocka_unit_test(profile_load__fixture_file__loads),
        cmocka_unit_test(profile_load__other_version__rejected_by_name),
        cmocka_unit_test(profile_load__not_a_profile__rejected),
        cmocka_unit_test(profile_load__schema_invalid__rejected_with_line),
        cmocka_unit_test(profile_load__unknown_mnemonic__rejected_with_line),
        cmocka_unit_test(profile_load__count_above_64_bits__rejected_with_line),
        cmocka_unit_test(profile_load__inconsistent_totals__rejected),
        cmocka_unit_test(profile_load__ok_with_missing_section__rejected),
        cmocka_unit_test(profile_load__not_invoked__loads_with_message),
        cmocka_unit_test(profile_load__ambiguous__candidates_kept),
        cmocka_unit_test(profile_load__agent_error_without_class__loads),
        cmocka_unit_test(profile_load_file__missing__says_so),
        cmocka_unit_test(profile_load_file__not_regular__refused_without_reading),
        cmocka_unit_test(profile_load_file__over_the_size_bound__refused),
        cmocka_unit_test(profile_load__version6_lines__kept_in_order),
        cmocka_unit_test(profile_load__lines_not_adding_up__rejected),
        cmocka_unit_test(profile_load__version7_contexts__kept_in_order),
        cmocka_unit_test(profile_load__contexts_not_adding_up__rejected),
        cmocka_unit_test(profile_load__contexts_malformed__rejected),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
