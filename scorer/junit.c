/*
 * junit.c - the JUnit XML writer (see junit.h).
 *
 * libxml2's text writer does the escaping; strings that came from a
 * submission are first made valid XML 1.0 text (control characters and,
 * in text that is not valid UTF-8, every non-ASCII byte become '?').
 */
#include "junit.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"
#include "outfile.h"
#include "status.h"

/* A copy of s that XML 1.0 accepts as character data; the caller frees it. */
static char *xml_safe(const char *s)
{
    char *c = xstrdup(s ? s : "");
    int utf8 = xmlCheckUTF8((const unsigned char *)c);
    for (unsigned char *p = (unsigned char *)c; *p; p++)
        if ((*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') || *p == 0x7f || (!utf8 && *p >= 0x80))
            *p = '?';
    return c;
}

/* score <= ratio x ref, exactly: score x 10^6 <= ratio_micro x ref. */
static int within_ratio(uint64_t score, uint64_t ratio_micro, uint64_t ref)
{
    return (psf_u128)score * PSF_MICRO_PER_UNIT <= (psf_u128)ratio_micro * ref;
}

int junit_passed(const junit_case *c)
{
    if (!c->res)
        return 0;
    if (c->has_max_score)
        return c->res->score <= c->max_score;
    if (c->has_max_ratio)
        return within_ratio(c->res->score, c->ratio_micro, c->ref_score);
    return 1;
}

/* The sentence a grader shows: the outcome, the score and the budget. */
static char *case_message(const junit_case *c, int passed)
{
    char *buf = NULL, ratio[48], sc[32];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f) {
        fputs("psf-score: cannot buffer the JUnit message\n", stderr);
        exit(70);
    }
    if (!c->res) {
        psf_status st = status_from_word(c->status_word);
        fprintf(f, "not scored: %s (%s)", c->status_word ? c->status_word : "unknown",
                st == ST_UNKNOWN ? "an unknown status" : status_meaning(st));
        if (c->message && *c->message)
            fprintf(f, ": %s", c->message);
    } else {
        snprintf(sc, sizeof sc, "%s%llu", c->res->approximate ? "~" : "", (unsigned long long)c->res->score);
        fprintf(f, "%s: score %s %s", passed ? "within budget" : "over budget", sc, c->unit);
        if (c->has_max_score) {
            fprintf(f, ", budget %llu %s (--max-score)", (unsigned long long)c->max_score, c->unit);
        } else if (c->has_max_ratio) {
            fixed_format_micro(c->ratio_micro, ratio, sizeof ratio);
            fprintf(f, ", budget %s x the reference's %llu %s (--max-ratio)", ratio,
                    (unsigned long long)c->ref_score, c->unit);
            if (c->ref_score) {
                /* the submission's ratio, rounded half up to 6 decimals */
                psf_u128 r = ((psf_u128)c->res->score * PSF_MICRO_PER_UNIT * 2 + c->ref_score) /
                             ((psf_u128)c->ref_score * 2);
                fixed_format_micro(r, ratio, sizeof ratio);
                fprintf(f, "; this submission is %s x the reference", ratio);
            }
        } else {
            fputs(", no budget given", f);
        }
        fputs("; status ok", f);
        fputs(c->judged_by ? "; output judged in this run" : "; output not judged in this run", f);
        if (c->res->approximate)
            fputs(" (~ approximate: a price was missing, the table is not calibrated or it was calibrated on another JDK)", f);
    }
    if (fclose(f) != 0) {
        fputs("psf-score: cannot buffer the JUnit message\n", stderr);
        exit(70);
    }
    return buf;
}

/* Compose the whole document in memory; returns the buffer or NULL. */
static xmlBufferPtr compose(const junit_case *c)
{
    int passed = junit_passed(c), bad = 0;
    char *msg = case_message(c, passed);
    char *safe_msg = xml_safe(msg), *label = xml_safe(c->label ? c->label : "psf");
    char *method = xml_safe(c->method ? c->method : "unknown method");
    char *status = xml_safe(c->status_word ? c->status_word : "unknown");
    const char *failures = passed ? "0" : "1";
    char score[32] = "";
    xmlBufferPtr mem = xmlBufferCreate();
    xmlTextWriterPtr w = mem ? xmlNewTextWriterMemory(mem, 0) : NULL;

    if (!w) {
        if (mem)
            xmlBufferFree(mem);
        free(msg), free(safe_msg), free(label), free(method), free(status);
        return NULL;
    }
    if (c->res)
        snprintf(score, sizeof score, "%s%llu", c->res->approximate ? "~" : "", (unsigned long long)c->res->score);
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST "  ");
#define W(call) (bad |= (call) < 0)
    W(xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
    W(xmlTextWriterStartElement(w, BAD_CAST "testsuites"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST "psf"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "tests", BAD_CAST "1"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "failures", BAD_CAST failures));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "errors", BAD_CAST "0"));
    W(xmlTextWriterStartElement(w, BAD_CAST "testsuite"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST label));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "tests", BAD_CAST "1"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "failures", BAD_CAST failures));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "errors", BAD_CAST "0"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "skipped", BAD_CAST "0"));
    W(xmlTextWriterStartElement(w, BAD_CAST "properties"));
    const char *props[][2] = { { "status", status }, { "score", score }, { "unit", c->unit ? c->unit : "" },
                               { "output_checked", c->judged_by ? "true" : "false" },
                               { "output_judge", c->judged_by ? c->judged_by : "" } };
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
        W(xmlTextWriterStartElement(w, BAD_CAST "property"));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST props[i][0]));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "value", BAD_CAST props[i][1]));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    W(xmlTextWriterStartElement(w, BAD_CAST "testcase"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "name", BAD_CAST method));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "classname", BAD_CAST label));
    if (!passed) {
        W(xmlTextWriterStartElement(w, BAD_CAST "failure"));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST (c->res ? "over_budget" : status)));
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "message", BAD_CAST safe_msg));
        W(xmlTextWriterWriteString(w, BAD_CAST safe_msg));
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterWriteElement(w, BAD_CAST "system-out", BAD_CAST safe_msg));
    W(xmlTextWriterEndElement(w)); /* testcase */
    W(xmlTextWriterEndElement(w)); /* testsuite */
    W(xmlTextWriterEndElement(w)); /* testsuites */
    W(xmlTextWriterEndDocument(w));
#undef W
    xmlFreeTextWriter(w);
    free(msg), free(safe_msg), free(label), free(method), free(status);
    if (bad) {
        xmlBufferFree(mem);
        return NULL;
    }
    return mem;
}

int junit_write_file(const char *path, const junit_case *c, psf_err *err)
{
    xmlBufferPtr mem = compose(c);
    int rc;

    if (!mem)
        return psf_fail(err, ST_INTERNAL_ERROR, "composing the JUnit report failed");
    rc = outfile_write(path, xmlBufferContent(mem), (size_t)xmlBufferLength(mem), "JUnit report", err);
    xmlBufferFree(mem);
    return rc;
}
