/*
 * mac.h - authenticated result records between the agent and get_score.sh.
 *
 * The agent runs inside the submission's process, so any channel it can write
 * the submission could write too (a raw file descriptor is reachable from
 * Java through sun.misc.Unsafe). What the submission cannot do is sign: the
 * agent receives a random 256-bit key on a descriptor that it reads and
 * closes before any Java code runs, and every result record carries
 * HMAC-SHA256(key, body). The receiver accepts exactly one record with a
 * valid MAC; anything else in the stream is ignored, and two valid records
 * (impossible from the agent, which writes once) are rejected. Checking a
 * MAC means hashing the body the header claims, so a flood of forged headers
 * could keep the receiver busy for hours: it checks at most
 * MAC_MAX_CANDIDATES headers, and a stream with more yields no record.
 *
 * Record: "PSF-RESULT 1 <body length> <64 hex digits of the MAC>\n" + body.
 */
#ifndef PSF_MAC_H
#define PSF_MAC_H

#include <stddef.h>
#include <stdint.h>

#define MAC_KEY_BYTES 32
#define MAC_BYTES 32
#define MAC_HEADER_MAX 128
#define MAC_MAX_BODY (64u << 20) /* a record claiming more is not believed */
/* Headers whose MAC mac_find_record will check; one more is tampering. The
 * agent writes one record and nothing else writes well-formed headers, so 16
 * leaves room for a few forged ones without letting a flood of them cost more
 * than 16 hashes of the stream (1 GiB of SHA-256 for a 64 MiB stream). */
#define MAC_MAX_CANDIDATES 16u

/* HMAC-SHA256 of data; 0 on success. */
int mac_compute(const uint8_t key[MAC_KEY_BYTES], const void *data, size_t len, uint8_t out[MAC_BYTES]);

/* Parse 64 hex digits (surrounding whitespace allowed) into a key; 0 on success. */
int mac_key_from_hex(const char *hex, size_t len, uint8_t key[MAC_KEY_BYTES]);

/* Write the record header for body into buf (MAC_HEADER_MAX bytes); returns its length or -1. */
int mac_header(const uint8_t key[MAC_KEY_BYTES], const void *body, size_t len, char *buf);

/*
 * Find the one authentic record in stream[0..len). Returns 0 and sets
 * *body and *body_len (pointing into stream) when exactly one record has a valid
 * MAC; -1 when there is none, or when more than MAC_MAX_CANDIDATES headers
 * parse and claim a body that fits in the stream (tampering: nothing is
 * believed, not even an authentic record among them); -2 when there are
 * several. The work is at most MAC_MAX_CANDIDATES * len bytes of HMAC plus a
 * linear scan.
 */
int mac_find_record(const uint8_t key[MAC_KEY_BYTES], const uint8_t *stream, size_t len,
                    const uint8_t **body, size_t *body_len);

#endif
