/*
 * strfmt.h -- printf into a string of the length it needs: the messages that have no bound
 * (gs_last_error's, a bench's first failure) are made with it.
 */
#ifndef STRFMT_H
#define STRFMT_H
#include <stdarg.h>

/* fmt with ap in a malloc'd string (the caller frees it), or NULL if out of memory. ap is
   used up, as by vsnprintf. */
char *str_vfmt(const char *fmt, va_list ap);

#endif
