/*
 * infile.c -- see infile.h: regular files only, bounded, read whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "infile.h"

/* What a file that is not a regular one is, for the message refusing it. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" :
           S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" :
           S_ISSOCK(m) ? "a socket" : "a special file";
}

/* Up to `cap` bytes of fd into buf; the count read, or -1 (errno set). */
static ssize_t read_upto(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n += (size_t)r;
    }
    return (ssize_t)n;
}

/* "N bytes" in the largest whole unit, for the size message. */
static void size_text(size_t n, char *buf, size_t len)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zu KiB", n >> 10);
    else
        snprintf(buf, len, "%zu bytes", n);
}

/* Open path for reading as a regular file (O_NONBLOCK: a FIFO without a writer does not block
   the open; it is then refused by its type). fd and *size, or -1 with the message. */
static int open_regular(const char *path, const char *what, size_t *size, char *err,
                        size_t errlen)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot read %s: %s, not a regular file", path, what,
                 file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    *size = (size_t)st.st_size;
    return fd;
}

char *infile_read(const char *path, const char *what, size_t max, size_t *len, char *err,
                  size_t errlen)
{
    size_t size;
    int fd = open_regular(path, what, &size, err, errlen), e;
    char *buf = NULL, lim[32];
    ssize_t n = -1;
    if (fd < 0)
        return NULL;
    if (size <= max && (buf = malloc(size + 2)) != NULL)
        n = read_upto(fd, buf, size + 1);    /* one byte more: a file that grew is seen */
    e = errno;
    close(fd);
    size_text(max, lim, sizeof lim);
    if (size > max)
        snprintf(err, errlen, "%s: cannot read %s: larger than %s", path, what, lim);
    else if (!buf)
        snprintf(err, errlen, "%s: cannot read %s: out of memory", path, what);
    else if (n < 0)
        snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(e));
    else if ((size_t)n != size)
        snprintf(err, errlen, "%s: cannot read %s: it changed size while it was read", path,
                 what);
    else {
        buf[n] = 0;
        if (len)
            *len = (size_t)n;
        return buf;
    }
    free(buf);
    return NULL;
}

char *infile_line(char **p)
{
    char *line = *p, *nl;
    if (!line || !*line)
        return NULL;
    if ((nl = strchr(line, '\n')) != NULL) {
        *nl = 0;
        if (nl > line && nl[-1] == '\r')
            nl[-1] = 0;
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    return line;
}

unsigned infile_nul(const char *buf, size_t len)
{
    const char *z = memchr(buf, 0, len), *p;
    unsigned lineno = 1;
    if (!z)
        return 0;
    for (p = buf; p < z; p++)
        lineno += *p == '\n';
    return lineno;
}
