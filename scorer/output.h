/*
 * output.h - the writers: human text, JSON and CSV.
 *
 * Writers only format; they never decide a score or a status. Everything
 * goes to a FILE the caller provides (main buffers it and writes it out
 * only once the whole output exists).
 */
#ifndef PSF_OUTPUT_H
#define PSF_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "costs.h"
#include "json.h"
#include "machine_check.h"
#include "cli.h"
#include "profile_read.h"
#include "rank.h"
#include "score.h"

/* One profile's way through the scorer. */
typedef struct outcome {
    const char *label;          /* --rank: the submission's label; NULL otherwise */
    const char *path;           /* the profile file as given */
    psf_status status;          /* ST_OK only when res is set */
    const char *status_word;    /* the word to print: the profile's or the scorer's */
    const char *message;        /* why not ok; NULL when ok */
    const profile *prof;        /* NULL when the profile did not load */
    const score_result *res;    /* NULL unless scored */
    const machine_check *machine;   /* the table against this machine; NULL: not checked */
    const machine_here *here;       /* this machine, when machine is set */
    const char *verification;   /* the signature's state (sign_state_word); NULL: not loaded */
    const char *submission;     /* the signed submission fields; NULL when unsigned */
    const char *statement;      /* the signed result statement; NULL when not signed */
    const char *statement_mac;  /* its HMAC-SHA256, hex */
    const char *key_id;         /* the key's id */
    const char *duplicate_of;   /* --rank: an earlier label with the same submission */
    const char *judged_by;      /* how the run's output was judged (expect_output, check, junit);
                                 * NULL: it was not */
} outcome;

/* Predicted time of a score in whole nanoseconds (rounded half up) when the
 * table is calibrated in cycles with a known TSC rate: returns 1 and sets
 * *ns; 0 when the table cannot say. */
int out_predicted_ns(const cost_table *t, const score_result *r, uint64_t *ns);

/* {"message": ..., "score": null, "status": ...} */
json_t *out_error_json(const char *status_word, const char *message);

/* Add "output_checked" (whether the run's output was judged), "output_judge"
 * (how; null when not), "verification", "submission" and "signature" (null
 * unless oc->statement) to the object j. */
void out_signature_json(json_t *j, const outcome *oc);

/* Whether and how the run's output was judged, in words; and as the text
 * result's "output" line. */
const char *out_judged_words(const char *judged_by);
void out_judged_text(FILE *f, const char *judged_by);

/* The full object of a single-profile run (see docs/cost-table.md). */
json_t *out_score_json(const options *o, const cost_table *t, const outcome *oc);

/* The short human summary of a scored profile: score, predicted time,
 * bytecodes, invocations, the table and the JDK; with --explain also the
 * counts the table prices besides bytecodes, each with a sentence saying
 * what it is. */
void out_score_text(FILE *f, const options *o, const cost_table *t, const outcome *oc);

/* "~123\n" or "123\n". */
void out_score_only(FILE *f, const score_result *r);

/* --explain as text. */
void out_explain_text(FILE *f, const options *o, const cost_table *t, const score_result *r);

/* A non-ok profile for a person: status, message, candidates. */
void out_status_text(FILE *f, const outcome *oc);

/* The leaderboard as text, CSV or JSON; rows[i] belongs to order[i]
 * (already in rank order). The HTML page is leaderboard.c's (main.c). */
void out_rank(FILE *f, const options *o, const cost_table *t,
              const rank_entry *order, const outcome *rows, size_t n);

#endif
