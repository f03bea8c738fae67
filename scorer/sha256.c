/*
 * sha256.c - the SHA-256 of a cost table's bytes, as lowercase hex, from
 * OpenSSL's libcrypto (already a dependency for the signed result records):
 * no hand-written cryptography.
 */
#include "sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

void sha256_hex(const void *data, size_t len, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32) {
        memset(hex, '0', 64); /* cannot happen with a working libcrypto */
        hex[64] = '\0';
        return;
    }
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
}
