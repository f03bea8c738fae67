/*
 * result.c - where the profile goes.
 *
 * With out=FILE (a person, a test) the profile is written to FILE.tmp.PID and
 * renamed into place. With result_fd/key_fd (get_score.sh) it becomes one
 * authenticated record (common/mac.h) on result_fd: the submission shares
 * this process and could write to that descriptor too, but it cannot sign.
 * The key is read from key_fd and the descriptor closed in Agent_OnLoad,
 * before any Java code runs; afterwards the key sits in a page of its own
 * that is PROT_NONE except while a record is signed, so reading it through
 * sun.misc.Unsafe faults instead of succeeding.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#include "agent.h"
#include "writer.h"
#include "mac.h"
#include "write_all.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

int result_init(agent *a, char *err, size_t errlen)
{
    if (a->opts.key_fd < 0)
        return 0;
    char hex[160];
    size_t n = 0;
    for (;;) {
        ssize_t r = read(a->opts.key_fd, hex + n, sizeof hex - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == sizeof hex - 1)
            break;
    }
    close(a->opts.key_fd);
    void *page = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        snprintf(err, errlen, "cannot map a page for the result key");
        return -1;
    }
    a->key_page = page;
    int bad = mac_key_from_hex(hex, n, a->key_page);
    memset(hex, 0, sizeof hex);
    if (bad) {
        snprintf(err, errlen, "key_fd=%d did not hold a key of 64 hex digits", a->opts.key_fd);
        return -1;
    }
    madvise(a->key_page, page_size(), MADV_DONTDUMP);
    mprotect(a->key_page, page_size(), PROT_NONE);
    /* the result descriptor must not leak into processes the program starts */
    int flags = fcntl(a->opts.result_fd, F_GETFD);
    if (flags < 0 || fcntl(a->opts.result_fd, F_SETFD, flags | FD_CLOEXEC) != 0) {
        snprintf(err, errlen, "result_fd=%d is not an open descriptor", a->opts.result_fd);
        return -1;
    }
    return 0;
}


static int emit_file(agent *a, const char *body, size_t len)
{
    size_t plen = strlen(a->opts.out) + 32;
    char *tmp = malloc(plen);
    if (tmp == NULL)
        return -1;
    snprintf(tmp, plen, "%s.tmp.%ld", a->opts.out, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = fd < 0 ? -1 : write_all(fd, body, len);
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, a->opts.out) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "psf-agent: cannot write the profile %s: %s\n", a->opts.out, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

static int emit_record(agent *a, const char *body, size_t len)
{
    /* header and body in one buffer, one write: O_APPEND keeps it whole */
    char *buf = malloc(MAC_HEADER_MAX + len);
    if (buf == NULL)
        return -1;
    mprotect(a->key_page, page_size(), PROT_READ);
    int hl = mac_header(a->key_page, body, len, buf);
    mprotect(a->key_page, page_size(), PROT_NONE);
    int rc = -1;
    if (hl > 0) {
        memcpy(buf + hl, body, len);
        rc = write_all(a->opts.result_fd, buf, (size_t)hl + len);
    }
    free(buf);
    if (rc != 0)
        fprintf(stderr, "psf-agent: cannot write the result record\n");
    return rc;
}

int result_emit(agent *a, const char *body, size_t len)
{
    if (a->opts.out != NULL)
        return emit_file(a, body, len);
    if (a->key_page != NULL)
        return emit_record(a, body, len);
    fprintf(stderr, "psf-agent: no place to write the profile\n");
    return -1;
}

void result_free(agent *a)
{
    if (a->key_page != NULL) {
        mprotect(a->key_page, page_size(), PROT_READ | PROT_WRITE);
        memset(a->key_page, 0, MAC_KEY_BYTES);
        munmap(a->key_page, page_size());
        a->key_page = NULL;
    }
}
