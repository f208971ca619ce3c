/*
 * json.c -- JSON strings (json.h).
 */
#include <string.h>
#include "json.h"

/* The length of the valid UTF-8 sequence at p (2 to 4 bytes, no overlong form, no surrogate,
   at most U+10FFFF), or 0. */
static int utf8_len(const unsigned char *p)
{
    int n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : 2;
    unsigned lo = 0x80, hi = 0xBF;            /* the second byte's range */
    if (p[0] < 0xC2 || p[0] > 0xF4)
        return 0;
    if (p[0] == 0xE0) lo = 0xA0;
    if (p[0] == 0xED) hi = 0x9F;
    if (p[0] == 0xF0) lo = 0x90;
    if (p[0] == 0xF4) hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

void json_str(FILE *f, const char *s)
{
    static const char named[] = "\b\f\n\r\t", letter[] = "bfnrt";
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    while (*p) {
        const char *e = strchr(named, *p);
        int n;
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (e)
            fprintf(f, "\\%c", letter[e - named]);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else if (*p < 0x80)
            fputc(*p, f);
        else if ((n = utf8_len(p)) > 0) {
            fwrite(p, 1, (size_t)n, f);
            p += n;
            continue;
        } else
            fputs("\\ufffd", f);
        p++;
    }
    fputc('"', f);
}
