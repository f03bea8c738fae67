/*
 * sha256.h - SHA-256 (FIPS 180-4) of a buffer in memory, via libcrypto.
 *
 * The scorer hashes the exact bytes of the cost table it parsed, so the
 * sha256 it reports (and checks against --costs-sha256) is the one of the
 * table that produced the score, not of a file that may have changed since.
 */
#ifndef PSF_SHA256_H
#define PSF_SHA256_H

#include <stddef.h>

/* Write the lowercase hex digest of data[0..len) and a NUL into hex[65]. */
void sha256_hex(const void *data, size_t len, char hex[65]);

/* The same for everything read from fd up to its end. Returns 0, or -1 with
 * errno set when a read fails (hex is then ""). */
int sha256_fd_hex(int fd, char hex[65]);

#endif
