/*
 * psf_receive.c - build/psf-receive: take the agent's authenticated result
 * out of the stream it wrote and store it as a plain profile.
 *
 *   psf-receive STREAM OUT < KEYFILE
 *
 * The key (64 hex digits) comes on standard input, never on the command line
 * where other processes could read it. Exit codes: 0 the one authentic record
 * was written to OUT (atomically); 1 no authentic record (the JVM ended
 * before the agent could write, or the stream was tampered with, which
 * includes holding more than MAC_MAX_CANDIDATES record headers to check);
 * 2 several authentic records; 3 usage or I/O error.
 */
#include "mac.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char *slurp(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf != NULL) {
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (b == NULL) {
                free(buf);
                return NULL;
            }
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: psf-receive STREAM OUT < KEYFILE\n");
        return 3;
    }
    char hex[256];
    size_t hl = fread(hex, 1, sizeof hex - 1, stdin);
    uint8_t key[MAC_KEY_BYTES];
    if (mac_key_from_hex(hex, hl, key) != 0) {
        fprintf(stderr, "psf-receive: the key on stdin is not 64 hex digits\n");
        return 3;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        perror(argv[1]);
        return 3;
    }
    size_t len = 0;
    unsigned char *stream = slurp(f, &len);
    fclose(f);
    if (stream == NULL) {
        fprintf(stderr, "psf-receive: out of memory\n");
        return 3;
    }
    const uint8_t *body = NULL;
    size_t body_len = 0;
    int rc = mac_find_record(key, stream, len, &body, &body_len);
    if (rc != 0) {
        fprintf(stderr, "psf-receive: %s\n", rc == -1 ? "no authentic result in the stream" : "several authentic results in the stream");
        free(stream);
        return rc == -1 ? 1 : 2;
    }
    size_t pl = strlen(argv[2]) + 16;
    char *tmp = malloc(pl);
    int ok = tmp != NULL;
    if (ok) {
        snprintf(tmp, pl, "%s.tmp", argv[2]);
        FILE *o = fopen(tmp, "wb");
        ok = o != NULL && fwrite(body, 1, body_len, o) == body_len;
        if (o != NULL && fclose(o) != 0)
            ok = 0;
        ok = ok && rename(tmp, argv[2]) == 0;
        if (!ok)
            unlink(tmp);
    }
    free(tmp);
    free(stream);
    if (!ok) {
        fprintf(stderr, "psf-receive: cannot write %s\n", argv[2]);
        return 3;
    }
    return 0;
}
