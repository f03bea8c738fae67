/*
 * sign.h - results a grader can verify later: signed profiles and signed
 * result statements, with a key the grading server owns.
 *
 * get_score.sh has psf-score sign every profile it keeps and every result it
 * prints with HMAC-SHA256 (common/mac.c) under a 256-bit key in a file only
 * the server can read (--key-file or PSF_KEY_FILE; created on first use with
 * mode 0600, and refused when group or others may read it). A signature ties
 * the bytes of the profile to the submission: a digest of its class-path
 * contents, of the method spec and of the program's arguments, the JDK and
 * the cost table's digest ("submission fields"). Anyone with the key can
 * check it; nobody without the key can make one, so an edited, hand-made or
 * re-labelled profile is told apart from one PSF produced.
 *
 * A signed profile is the profile's bytes followed by one XML comment line
 * (so it stays a valid profile for every reader):
 *
 *   <!-- psf-signature 1 key=KEYID FIELDS hmac_sha256=HEX -->\n
 *
 * where HEX = HMAC(key, "psf-profile-signature 1\n" FIELDS "\n" BODY), BODY
 * is everything before the comment, FIELDS are space-separated name=value
 * tokens ([a-z0-9_] names; values of [A-Za-z0-9._+~-], no "--") and KEYID is
 * the first 16 hex digits of SHA-256(key), which names the key without
 * revealing it. A result statement is one line of the same token form,
 * signed as HMAC(key, "psf-result-signature 1\n" STATEMENT).
 */
#ifndef PSF_SIGN_H
#define PSF_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define SIGN_KEY_BYTES 32
#define SIGN_FIELDS_MAX 1024          /* bytes of submission fields */
#define SIGN_KEY_ENV "PSF_KEY_FILE"

typedef struct sign_key {
    uint8_t bytes[SIGN_KEY_BYTES];
    char id[17];                      /* first 16 hex digits of SHA-256(key) */
} sign_key;

/* What sign_check_profile found. */
typedef enum sign_state {
    SIGN_VALID,       /* signed with this key, bytes unchanged */
    SIGN_UNSIGNED,    /* no signature line at the end */
    SIGN_OTHER_KEY,   /* signed, but with another key */
    SIGN_UNCHECKED,   /* signed, but no key was given to check it */
    SIGN_INVALID      /* a signature that does not match: edited, or malformed */
} sign_state;

typedef struct sign_info {
    sign_state state;
    size_t body_len;                  /* bytes before the signature line (all when unsigned) */
    char key_id[17];                  /* as written in the line ("" when unsigned) */
    char fields[SIGN_FIELDS_MAX + 1]; /* as written in the line ("" when unsigned) */
} sign_info;

/* Load the key from path (64 hex digits). With create set, a missing file is
 * made: 32 random bytes from the OS, written 0600 and linked into place so
 * that two runs creating it at once end with one key. A key file that is not
 * a regular file, or that group or others may read, is refused (ST_USAGE). */
int sign_key_load(sign_key *k, const char *path, int create, psf_err *err);

/* The key file to use: path if not NULL, else $PSF_KEY_FILE, else NULL. */
const char *sign_key_path(const char *path);

/* 0 if s is a valid FIELDS string (see above), else -1 with a message. */
int sign_fields_check(const char *s, psf_err *err);

/* The value of field name in fields, copied into out (size n); 0 if found. */
int sign_field(const char *fields, const char *name, char *out, size_t n);

/* Sign a profile: *out (malloc'd, *out_len bytes) is body plus the signature
 * line. A body that already ends in a signature line is refused. */
int sign_profile(const sign_key *k, const unsigned char *body, size_t len, const char *fields,
                 unsigned char **out, size_t *out_len, psf_err *err);

/* Look for a signature line at the end of bytes and check it with k. With k
 * NULL a well-formed line is SIGN_UNCHECKED. Never fails: the finding is in
 * *info. */
void sign_check_profile(const sign_key *k, const unsigned char *bytes, size_t len, sign_info *info);

/* HMAC of a result statement, as 64 hex digits and a NUL. */
int sign_statement(const sign_key *k, const char *statement, char hex[65]);

/* One word for a state: "verified", "unsigned", "other_key", "unchecked",
 * "invalid". */
const char *sign_state_word(sign_state s);

#endif
