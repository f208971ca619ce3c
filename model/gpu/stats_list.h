/*
 * stats_list.h -- the list of statistics lives in model/base/stats_list.h, where the layers
 * below the GPU top take it from; this name stays for the host API's own include
 * (gpusim.h: `#include "stats_list.h"`).
 */
#include "base/stats_list.h"
