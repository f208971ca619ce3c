/*
 * helper_timer.h -- the project's stand-in for the CUDA samples' helper_timer.h, which
 * Rodinia's cfd includes (the repository has no copy of its own beside cfd): the four calls
 * cfd makes, a wall-clock stopwatch in milliseconds. cfd prints its time per iteration from
 * it; the applications file ignores that line.
 */
#pragma once
#include <sys/time.h>

struct StopWatchInterface {
    double start_ms, total_ms;
    int runs;
};

static inline double gpusim_wall_ms(void)
{
    struct timeval tv;
    gettimeofday(&tv, 0);
    return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

static inline bool sdkCreateTimer(StopWatchInterface **t)
{
    *t = new StopWatchInterface();
    return true;
}
static inline bool sdkStartTimer(StopWatchInterface **t)
{
    (*t)->start_ms = gpusim_wall_ms();
    return true;
}
static inline bool sdkStopTimer(StopWatchInterface **t)
{
    (*t)->total_ms += gpusim_wall_ms() - (*t)->start_ms;
    (*t)->runs++;
    return true;
}
static inline float sdkGetAverageTimerValue(StopWatchInterface **t)
{
    return (*t)->runs ? (float)((*t)->total_ms / (*t)->runs) : 0.0f;
}
