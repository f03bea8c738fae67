/*
 * sign.c - signed profiles and result statements (see sign.h), HMAC-SHA256
 * through common/mac.c, randomness from OpenSSL's RAND_bytes.
 */
#include "sign.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "mac.h"
#include "sha256.h"

static const char LINE_HEAD[] = "<!-- psf-signature 1 key=";
static const char LINE_TAIL[] = " -->\n";
static const char MAC_TAG[] = " hmac_sha256=";

const char *sign_key_path(const char *path)
{
    const char *env = getenv(SIGN_KEY_ENV);
    if (path && *path)
        return path;
    return env && *env ? env : NULL;
}

static void hex_of(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static void set_id(sign_key *k)
{
    char full[65];
    sha256_hex(k->bytes, SIGN_KEY_BYTES, full);
    memcpy(k->id, full, 16);
    k->id[16] = '\0';
}

/* Create path holding a fresh key, unless another process made it first. */
static int create_key(const char *path, psf_err *err)
{
    uint8_t raw[SIGN_KEY_BYTES];
    char hex[2 * SIGN_KEY_BYTES + 2];
    size_t n = strlen(path) + 32;
    char *tmp = xmalloc(n);
    int fd, rc = 0;

    if (RAND_bytes(raw, sizeof raw) != 1) {
        free(tmp);
        return psf_fail(err, ST_INTERNAL_ERROR, "no random bytes for a new key");
    }
    hex_of(raw, sizeof raw, hex);
    OPENSSL_cleanse(raw, sizeof raw);
    strcat(hex, "\n");
    snprintf(tmp, n, "%s.%ld.tmp", path, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        rc = psf_fail(err, ST_USAGE, "%s: cannot create the key file: %s", path, strerror(errno));
    } else {
        size_t len = strlen(hex);
        int bad = write(fd, hex, len) != (ssize_t)len;
        bad |= fsync(fd) != 0;
        bad |= close(fd) != 0;
        /* link() never replaces: the first key made wins, and every run uses it */
        if (bad || (link(tmp, path) != 0 && errno != EEXIST))
            rc = psf_fail(err, ST_USAGE, "%s: cannot create the key file: %s", path, strerror(errno));
        unlink(tmp);
    }
    OPENSSL_cleanse(hex, sizeof hex);
    free(tmp);
    return rc;
}

int sign_key_load(sign_key *k, const char *path, int create, psf_err *err)
{
    char buf[256];
    struct stat st;
    ssize_t got;
    int fd;

    memset(k, 0, sizeof *k);
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
        if (create_key(path, err) != 0)
            return -1;
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    }
    if (fd < 0)
        return psf_fail(err, ST_USAGE, "%s: cannot open the key file: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return psf_fail(err, ST_USAGE, "%s: the key file is not a regular file", path);
    }
    if (st.st_mode & 077) {
        close(fd);
        return psf_fail(err, ST_USAGE, "%s: the key file may be read by others (mode %03o); chmod 600 it",
                        path, (unsigned)(st.st_mode & 0777));
    }
    got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got < 0 || mac_key_from_hex(buf, (size_t)got, k->bytes) != 0) {
        OPENSSL_cleanse(buf, sizeof buf);
        return psf_fail(err, ST_USAGE, "%s: the key file does not hold 64 hex digits", path);
    }
    OPENSSL_cleanse(buf, sizeof buf);
    set_id(k);
    return 0;
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int value_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '+' || c == '~' || c == '-';
}

int sign_fields_check(const char *s, psf_err *err)
{
    size_t n = strlen(s);
    if (n == 0 || n > SIGN_FIELDS_MAX)
        return psf_fail(err, ST_USAGE, "submission fields: empty or longer than %d bytes", SIGN_FIELDS_MAX);
    if (strstr(s, "--"))
        return psf_fail(err, ST_USAGE, "submission fields: \"--\" is not allowed");
    for (const char *p = s; *p;) {
        const char *start = p;
        while (name_char(*p))
            p++;
        if (p == start || *p != '=')
            return psf_fail(err, ST_USAGE, "submission fields: expected name=value at \"%.40s\"", start);
        if (strncmp(start, "hmac_sha256=", 12) == 0 || strncmp(start, "key=", 4) == 0)
            return psf_fail(err, ST_USAGE, "submission fields: \"%.*s\" is reserved", (int)(p - start), start);
        start = ++p;
        while (value_char(*p))
            p++;
        if (p == start)
            return psf_fail(err, ST_USAGE, "submission fields: an empty value");
        if (*p == ' ' && p[1])
            p++;
        else if (*p)
            return psf_fail(err, ST_USAGE, "submission fields: unexpected character at \"%.40s\"", p);
    }
    return 0;
}

int sign_field(const char *fields, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    for (const char *p = fields; p && *p;) {
        const char *end = strchr(p, ' ');
        size_t tl = end ? (size_t)(end - p) : strlen(p);
        if (tl > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t vl = tl - nl - 1;
            if (vl >= n)
                return -1;
            memcpy(out, p + nl + 1, vl);
            out[vl] = '\0';
            return 0;
        }
        p = end ? end + 1 : NULL;
    }
    return -1;
}

/* HMAC(key, prefix || a || "\n" || b) as hex. */
static int mac_hex(const sign_key *k, const char *prefix, const char *a, const unsigned char *b,
                   size_t blen, char hex[65])
{
    size_t pl = strlen(prefix), al = strlen(a);
    size_t n = pl + al + 1 + blen;
    unsigned char *msg = xmalloc(n ? n : 1);
    uint8_t mac[MAC_BYTES];
    int rc;

    memcpy(msg, prefix, pl);
    memcpy(msg + pl, a, al);
    msg[pl + al] = '\n';
    if (blen)
        memcpy(msg + pl + al + 1, b, blen);
    rc = mac_compute(k->bytes, msg, n, mac);
    free(msg);
    if (rc != 0)
        return -1;
    hex_of(mac, MAC_BYTES, hex);
    return 0;
}

static const char PROFILE_PREFIX[] = "psf-profile-signature 1\n";
static const char RESULT_PREFIX[] = "psf-result-signature 1\n";

/* Where the last line of bytes starts. */
static size_t last_line(const unsigned char *bytes, size_t len)
{
    size_t i = len;
    if (i > 0 && bytes[i - 1] == '\n')
        i--;
    while (i > 0 && bytes[i - 1] != '\n')
        i--;
    return i;
}

void sign_check_profile(const sign_key *k, const unsigned char *bytes, size_t len, sign_info *info)
{
    size_t start = last_line(bytes, len), hl = sizeof LINE_HEAD - 1, tl = sizeof LINE_TAIL - 1;
    const char *line = (const char *)bytes + start;
    size_t ll = len - start;
    char buf[SIGN_FIELDS_MAX + 200], want[65], got[65];
    const char *mac_at;

    memset(info, 0, sizeof *info);
    info->body_len = len;
    info->state = SIGN_UNSIGNED;
    if (ll < hl || memcmp(line, LINE_HEAD, hl) != 0)
        return;
    info->state = SIGN_INVALID;
    if (ll >= sizeof buf || ll < hl + tl || memcmp(line + ll - tl, LINE_TAIL, tl) != 0)
        return;
    memcpy(buf, line, ll);
    buf[ll - tl] = '\0';
    if (memchr(buf, '\0', ll - tl))
        return;
    /* key=KEYID FIELDS hmac_sha256=HEX */
    const char *p = buf + hl;
    if (strlen(p) < 17 || p[16] != ' ')
        return;
    memcpy(info->key_id, p, 16);
    info->key_id[16] = '\0';
    p += 17;
    mac_at = strstr(p, MAC_TAG);
    if (!mac_at || strlen(mac_at + sizeof MAC_TAG - 1) != 64 || (size_t)(mac_at - p) > SIGN_FIELDS_MAX)
        return;
    memcpy(info->fields, p, (size_t)(mac_at - p));
    info->fields[mac_at - p] = '\0';
    memcpy(want, mac_at + sizeof MAC_TAG - 1, 65);
    if (sign_fields_check(info->fields, NULL) != 0) {
        info->fields[0] = '\0';
        return;
    }
    info->body_len = start;
    if (!k) {
        info->state = SIGN_UNCHECKED;
        return;
    }
    if (strcmp(info->key_id, k->id) != 0) {
        info->state = SIGN_OTHER_KEY;
        return;
    }
    if (mac_hex(k, PROFILE_PREFIX, info->fields, bytes, start, got) != 0)
        return;
    if (CRYPTO_memcmp(got, want, 64) == 0)
        info->state = SIGN_VALID;
}

int sign_profile(const sign_key *k, const unsigned char *body, size_t len, const char *fields,
                 unsigned char **out, size_t *out_len, psf_err *err)
{
    sign_info info;
    char hex[65];
    size_t ll, need_nl;
    char *line;

    if (sign_fields_check(fields, err) != 0)
        return -1;
    sign_check_profile(NULL, body, len, &info);
    if (info.state != SIGN_UNSIGNED)
        return psf_fail(err, ST_BAD_INPUT, "the profile already carries a signature line");
    need_nl = len > 0 && body[len - 1] != '\n';
    /* the signed body is exactly what precedes the line, newline included */
    unsigned char *b = xmalloc(len + need_nl + 1);
    memcpy(b, body, len);
    if (need_nl)
        b[len] = '\n';
    if (mac_hex(k, PROFILE_PREFIX, fields, b, len + need_nl, hex) != 0) {
        free(b);
        return psf_fail(err, ST_INTERNAL_ERROR, "HMAC-SHA256 failed");
    }
    ll = sizeof LINE_HEAD + 16 + 1 + strlen(fields) + sizeof MAC_TAG + 64 + sizeof LINE_TAIL;
    line = xmalloc(ll);
    snprintf(line, ll, "%s%s %s%s%s%s", LINE_HEAD, k->id, fields, MAC_TAG, hex, LINE_TAIL);
    ll = strlen(line);
    *out = xrealloc(b, len + need_nl + ll);
    memcpy(*out + len + need_nl, line, ll);
    *out_len = len + need_nl + ll;
    free(line);
    return 0;
}

int sign_statement(const sign_key *k, const char *statement, char hex[65])
{
    return mac_hex(k, RESULT_PREFIX, statement, NULL, 0, hex);
}

const char *sign_state_word(sign_state s)
{
    switch (s) {
    case SIGN_VALID:     return "verified";
    case SIGN_UNSIGNED:  return "unsigned";
    case SIGN_OTHER_KEY: return "other_key";
    case SIGN_UNCHECKED: return "unchecked";
    case SIGN_INVALID:   return "invalid";
    }
    return "invalid";
}
