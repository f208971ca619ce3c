/*
 * json.h -- JSON strings. The JSON outputs (gpusim run/suite --json, the statistics, gpusim
 * cost --json) write every string that comes from data -- a message, a path, a name, a note --
 * through json_str, so a message of several lines, a path with a quote or a byte that is not
 * UTF-8 still gives a file any JSON parser reads (cost's own fixed words, such as units, are
 * written as they are).
 */
#ifndef JSON_H
#define JSON_H
#include <stdio.h>

/* s as a JSON string, quotes included: '"' and '\' escaped, control characters as \n, \t,
   \r, \b, \f or \u00XX, valid UTF-8 as it is, any other byte as U+FFFD. NULL is "". */
void json_str(FILE *f, const char *s);

#endif
