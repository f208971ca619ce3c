/*
 * gen_avi.c -- the heartwall input of tools/suites/rodinia.sh: a grey-scale AVI of
 * 609 x 590 frames (the size of Rodinia's test.avi, whose tracking points heartwall fixes in
 * its source) of rings drifting a pixel a frame, with noise from a fixed seed. It is built in
 * the copy of cuda/heartwall against the program's own AVI library (AVI/avilib.c), so the file
 * is one that library reads.
 *
 *   gen_avi FILE FRAMES
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "avilib.h"

enum { W = 609, H = 590 };

int main(int argc, char **argv)
{
    int frames = argc == 3 ? atoi(argv[2]) : 0;
    if (frames <= 0) {
        fprintf(stderr, "usage: gen_avi FILE FRAMES\n");
        return 2;
    }
    avi_t *avi = AVI_open_output_file(argv[1]);
    char *buf = malloc((size_t)W * H);
    if (!avi || !buf) {
        fprintf(stderr, "gen_avi: cannot write %s\n", argv[1]);
        return 1;
    }
    AVI_set_video(avi, W, H, 25, "RGB ");
    unsigned long s = 12345; /* a linear congruential generator: the same noise everywhere */
    for (int f = 0; f < frames; f++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double d = hypot(x - 300 - 2 * f, y - 330 - f);
                s = s * 6364136223846793005UL + 1442695040888963407UL;
                buf[y * W + x] = (char)(128 + (int)(100 * cos(d / 12.0)) + (int)(s >> 60));
            }
        AVI_write_frame(avi, buf, (long)W * H, 1);
    }
    AVI_close(avi);
    free(buf);
    return 0;
}
