/*
 * sha256.c - the SHA-256 of a cost table's bytes (or of a file read to its
 * end), as lowercase hex, from OpenSSL's libcrypto (already a dependency for
 * the signed result records): no hand-written cryptography.
 */
#include "sha256.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void to_hex(const unsigned char md[32], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = '\0';
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32) {
        memset(hex, '0', 64); /* cannot happen with a working libcrypto */
        hex[64] = '\0';
        return;
    }
    to_hex(md, hex);
}

int sha256_fd_hex(int fd, char hex[65])
{
    unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
    int e = 0;

    hex[0] = '\0';
    while (ok) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e = errno;
            ok = 0;
        } else if (got == 0) {
            break;
        } else {
            ok = EVP_DigestUpdate(ctx, buf, (size_t)got) == 1;
        }
    }
    if (ok)
        ok = EVP_DigestFinal_ex(ctx, md, &n) == 1 && n == 32;
    EVP_MD_CTX_free(ctx);
    if (!ok) {
        errno = e ? e : EIO;
        return -1;
    }
    to_hex(md, hex);
    return 0;
}
