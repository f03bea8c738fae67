/*
 * submission.c - the digests that identify a submission (see submission.h).
 *
 * The class path's listing walks each directory as `find . -type f` and
 * `find . -type l` walk it (not following links, into every subdirectory
 * that opens), sorts as `LC_ALL=C sort` sorts (bytes, as strcmp compares
 * strings without NUL), and prints the lines sha256sum prints, so that one
 * process and one read of each file give the text get_score.sh used to
 * take with a dozen processes.
 */
#define _DEFAULT_SOURCE /* DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN */
#include "submission.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

/* A growing text. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void text_add(text *t, const char *p, size_t n)
{
    if (n > SIZE_MAX - t->len - 1) {
        fputs("psf-score: out of memory\n", stderr);
        exit(70);
    }
    xgrow((void **)&t->s, &t->cap, t->len + n + 1, 1);
    memcpy(t->s + t->len, p, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void text_str(text *t, const char *p)
{
    text_add(t, p, strlen(p));
}

/* A list of strings. */
typedef struct strings {
    char **v;
    size_t n, cap;
} strings;

static void strings_add(strings *l, char *s)
{
    xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = s;
}

static void strings_free(strings *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path "/" name, malloc'd */
static char *join(const char *path, const char *name)
{
    size_t a = strlen(path), b = strlen(name);
    if (a > SIZE_MAX - b - 2) {
        fputs("psf-score: out of memory\n", stderr);
        exit(70);
    }
    char *s = xmalloc(a + b + 2);
    memcpy(s, path, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

/* The directories being walked, outermost first: a directory that is one
 * of them again (bind mounts) is not entered twice. */
typedef struct ancestors {
    dev_t *dev;
    ino_t *ino;
    size_t n, cap_dev, cap_ino;
} ancestors;

/* What one directory entry of the class path holds. */
typedef struct walk {
    strings files;  /* "./a/B.class", ... */
    text links;     /* "link ./x -> target\n" ... */
    ancestors up;
    FILE *errs;
    int fd_error;   /* out of descriptors: the listing would be incomplete */
} walk;

/* Walk the directory open at dfd (which it closes), whose path is path. */
static void walk_dir(walk *w, int dfd, const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;

    if (fstat(dfd, &st) != 0) {
        fprintf(w->errs, "psf-score: %s: %s\n", path, strerror(errno));
        close(dfd);
        return;
    }
    for (size_t i = 0; i < w->up.n; i++) {
        if (w->up.dev[i] == st.st_dev && w->up.ino[i] == st.st_ino) {
            fprintf(w->errs, "psf-score: %s: a file system loop; not entered again\n", path);
            close(dfd);
            return;
        }
    }
    if (!(d = fdopendir(dfd))) {
        fprintf(w->errs, "psf-score: %s: %s\n", path, strerror(errno));
        close(dfd);
        return;
    }
    xgrow((void **)&w->up.dev, &w->up.cap_dev, w->up.n + 1, sizeof *w->up.dev);
    xgrow((void **)&w->up.ino, &w->up.cap_ino, w->up.n + 1, sizeof *w->up.ino);
    w->up.dev[w->up.n] = st.st_dev;
    w->up.ino[w->up.n] = st.st_ino;
    w->up.n++;
    for (;;) {
        errno = 0;
        if (!(e = readdir(d))) {
            if (errno)
                fprintf(w->errs, "psf-score: %s: %s\n", path, strerror(errno));
            break;
        }
        const char *name = e->d_name;
        unsigned char type = e->d_type;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *child = join(path, name);
        if (type == DT_UNKNOWN) {
            struct stat cst;
            if (fstatat(dirfd(d), name, &cst, AT_SYMLINK_NOFOLLOW) != 0) {
                fprintf(w->errs, "psf-score: %s: %s\n", child, strerror(errno));
                free(child);
                continue;
            }
            type = S_ISREG(cst.st_mode) ? DT_REG : S_ISDIR(cst.st_mode) ? DT_DIR
                 : S_ISLNK(cst.st_mode) ? DT_LNK : DT_UNKNOWN;
        }
        if (type == DT_REG) {
            strings_add(&w->files, child);
            continue;
        }
        if (type == DT_LNK) {
            static char target[4097]; /* a link holds at most 4095 bytes; off the walk's stack */
            ssize_t n = readlinkat(dirfd(d), name, target, sizeof target - 1);
            if (n < 0) {
                fprintf(w->errs, "psf-score: %s: %s\n", child, strerror(errno));
                n = 0;
            }
            target[n] = '\0';
            text_str(&w->links, "link ");
            text_str(&w->links, child);
            text_str(&w->links, " -> ");
            text_add(&w->links, target, (size_t)n);
            text_str(&w->links, "\n");
        } else if (type == DT_DIR) {
            int cfd = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (cfd < 0) {
                if (errno == EMFILE || errno == ENFILE)
                    w->fd_error = 1;
                fprintf(w->errs, "psf-score: %s: %s\n", child, strerror(errno));
            } else {
                walk_dir(w, cfd, child);
            }
        }
        free(child);
    }
    w->up.n--;
    closedir(d);
}

/* sha256sum's line for file path (read relative to dir), or -1 when it
 * cannot be read. */
static int file_line(text *out, int dir, const char *path, FILE *errs)
{
    char hex[65];
    int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : sha256_fd_hex(fd, hex);

    if (rc != 0)
        fprintf(errs, "psf-score: %s: %s\n", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (rc != 0)
        return -1;
    if (strpbrk(path, "\\\n\r")) {
        text_str(out, "\\");
        text_str(out, hex);
        text_str(out, "  ");
        for (const char *p = path; *p; p++) {
            if (*p == '\\')
                text_str(out, "\\\\");
            else if (*p == '\n')
                text_str(out, "\\n");
            else if (*p == '\r')
                text_str(out, "\\r");
            else
                text_add(out, p, 1);
        }
    } else {
        text_str(out, hex);
        text_str(out, "  ");
        text_str(out, path);
    }
    text_str(out, "\n");
    return 0;
}

/* The lines of links, cut at '\n', sorted, each ended by '\n'. */
static void sorted_lines(text *out, text *links)
{
    strings lines = { 0 };
    char *s = links->s, *nl;

    while (s && *s) {
        nl = strchr(s, '\n'); /* every link's text ends in one */
        *nl = '\0';
        strings_add(&lines, s);
        s = nl + 1;
    }
    if (lines.n)
        qsort(lines.v, lines.n, sizeof *lines.v, by_bytes);
    for (size_t i = 0; i < lines.n; i++) {
        text_str(out, lines.v[i]);
        text_str(out, "\n");
    }
    free(lines.v); /* the strings are links' */
}

/* One directory entry of the class path, after its "dir\n". */
static int dir_entry(text *out, const char *entry, FILE *errs, psf_err *err)
{
    walk w = { .errs = errs };
    int dfd, failed = 0;

    /* cd ENTRY, then find .: a directory that cannot be entered or read
     * lists nothing */
    if (access(entry, X_OK) != 0) {
        fprintf(errs, "psf-score: %s: %s\n", entry, strerror(errno));
        return 0;
    }
    if ((dfd = open(entry, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        fprintf(errs, "psf-score: %s: %s\n", entry, strerror(errno));
        return errno == EMFILE || errno == ENFILE ? psf_fail(err, ST_INTERNAL_ERROR, "%s: %s", entry, strerror(errno)) : 0;
    }
    walk_dir(&w, dfd, ".");
    if (w.fd_error) {
        strings_free(&w.files);
        free(w.links.s);
        free(w.up.dev);
        free(w.up.ino);
        return psf_fail(err, ST_INTERNAL_ERROR, "%s: too deep to list (no file descriptors left)", entry);
    }
    if (w.files.n)
        qsort(w.files.v, w.files.n, sizeof *w.files.v, by_bytes);
    dfd = open(entry, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (size_t i = 0; i < w.files.n; i++)
        failed |= dfd < 0 || file_line(out, dfd, w.files.v[i], errs) != 0;
    if (dfd >= 0)
        close(dfd);
    /* sha256sum's failure ended the && before the links were listed */
    if (!failed)
        sorted_lines(out, &w.links);
    strings_free(&w.files);
    free(w.links.s);
    free(w.up.dev);
    free(w.up.ino);
    return 0;
}

int submission_classpath_listing(const char *classpath, char **out, size_t *len, FILE *errs, psf_err *err)
{
    text t = { 0 };
    const char *p = classpath;
    struct rlimit rl;

    /* one descriptor per directory level that is being walked: as deep as
     * this process may go */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }

    text_add(&t, "", 0);
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n > 0) {
            char *entry = xmalloc(n + 1);
            struct stat st;
            memcpy(entry, p, n);
            entry[n] = '\0';
            if (stat(entry, &st) == 0 && S_ISREG(st.st_mode)) {
                char hex[65] = "";
                int fd = open(entry, O_RDONLY | O_CLOEXEC);
                if (fd < 0 || sha256_fd_hex(fd, hex) != 0)
                    fprintf(errs, "psf-score: %s: %s\n", entry, strerror(errno));
                if (fd >= 0)
                    close(fd);
                text_str(&t, "file ");
                text_str(&t, hex);
                text_str(&t, "\n");
            } else {
                text_str(&t, "dir\n");
                if (dir_entry(&t, entry, errs, err) != 0) {
                    free(entry);
                    free(t.s);
                    return -1;
                }
            }
            free(entry);
        }
        p += n;
        if (*p == ':')
            p++;
    }
    *out = t.s;
    *len = t.len;
    return 0;
}

/* The release file beside the launcher's directory: LAUNCHER-DIR/../release. */
static void add_release(text *t, const char *jdk)
{
    const char *slash = strrchr(jdk, '/');
    size_t dl = slash ? (size_t)(slash - jdk) : strlen(jdk);
    char *path = xmalloc(dl + sizeof "/../release");
    char buf[65536];
    int fd;

    memcpy(path, jdk, dl);
    memcpy(path + dl, "/../release", sizeof "/../release");
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
        for (;;) {
            ssize_t got = read(fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break; /* cat 2>/dev/null: what was read, and no word of the rest */
            text_add(t, buf, (size_t)got);
        }
        close(fd);
    }
    free(path);
}

int submission_digests(const submission *s, char *out, size_t n, FILE *errs, psf_err *err)
{
    char cp[65], mc[65], me[65], ar[65], jd[65];
    char *listing;
    size_t len;
    text t = { 0 };

    if (submission_classpath_listing(s->classpath, &listing, &len, errs, err) != 0)
        return -1;
    sha256_hex(listing, len, cp);
    free(listing);
    sha256_hex(s->main_class, strlen(s->main_class), mc);
    sha256_hex(s->method, strlen(s->method), me);
    text_add(&t, "", 0);
    for (int i = 0; i < s->n_args; i++)
        text_add(&t, s->args[i], strlen(s->args[i]) + 1); /* its NUL too */
    sha256_hex(t.s, t.len, ar);
    t.len = 0;
    text_str(&t, s->jdk);
    text_str(&t, "\n");
    add_release(&t, s->jdk);
    sha256_hex(t.s, t.len, jd);
    free(t.s);
    if ((size_t)snprintf(out, n, "classpath_sha256=%s main_sha256=%s method_sha256=%s args_sha256=%s jdk_sha256=%s",
                         cp, mc, me, ar, jd) >= n)
        return psf_fail(err, ST_INTERNAL_ERROR, "the submission's digests do not fit");
    return 0;
}
