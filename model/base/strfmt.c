/*
 * strfmt.c -- printf into a string of the length it needs (strfmt.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include "strfmt.h"

char *str_vfmt(const char *fmt, va_list ap)
{
    va_list again;
    char *s = NULL;
    int n;
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n >= 0 && (s = malloc((size_t)n + 1)))
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}
