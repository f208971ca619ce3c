/*
 * infile.h -- the one way every reader of an input file opens it (configurations, PTX,
 * register records, cache entries, sweep SPECs, BBV files): a regular file only (a directory,
 * a device such as /dev/zero or a FIFO is refused at once, never read or waited on), its size
 * bounded by the caller, read whole into memory; lines of any length are then taken from the
 * buffer with infile_line. Not hardware: host-side input handling shared by every layer.
 */
#ifndef INFILE_H
#define INFILE_H
#include <stddef.h>

/* The whole of `path`, NUL-terminated (*len bytes before the terminator, which may contain
   NUL bytes: infile_nul finds them), in a malloc'ed buffer; NULL with
   "PATH: cannot read WHAT: REASON" in err when it is not a regular file, cannot be opened or
   read, is larger than `max` bytes or changed size while it was read. */
char *infile_read(const char *path, const char *what, size_t max, size_t *len, char *err,
                  size_t errlen);

/* The next line of the buffer at *p, whole whatever its length: its '\n' (and a '\r' before
   it) replaced by NUL in place, *p moved past it; NULL after the last line. A last line
   without '\n' is returned too. */
char *infile_line(char **p);

/* The 1-based line number of the first NUL byte of buf[0..len), or 0 when there is none (a
   text reader refuses such a file: the NUL would end a line early and hide the rest). */
unsigned infile_nul(const char *buf, size_t len);

#endif
