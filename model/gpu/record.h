/*
 * record.h -- recorded block stimulus: the input stream of one block of SM 0, captured while
 * the GPU model runs a real kernel (`gpusim run NAME --record BLOCK=FILE`), replayed by the
 * block's co-simulation harness (tb/BLOCK_cosim.cpp) through both the C block and its RTL.
 *
 * File layout (host byte order, little-endian on every machine we support):
 *   struct rec_header
 *   cfg_size bytes: the block's X_cfg exactly as the SM used it
 *   records: { uint64_t cycle; in_size bytes of the block's X_in } until end of file
 * Recording buffers in memory (allocated before the run, at most rec_max_bytes) and writes the
 * file after the launch: no I/O in the cycle loop. Blocks: those `gpusim blocks record` lists
 * (ws of scheduler 0, sb, simt, ntb, pas, vtc, wst).
 */
#ifndef RECORD_H
#define RECORD_H
#include <stdint.h>

#define REC_MAGIC "GPSREC1"

struct rec_header {
    char     magic[8];          /* REC_MAGIC, NUL-terminated */
    char     block[16];         /* the block's name: "ws", "sb", "simt", ... */
    char     config[64];        /* configuration name */
    uint32_t cfg_size, in_size; /* sizeof(struct X_cfg), sizeof(struct X_in) */
    uint64_t records;           /* number of records that follow */
};

#endif
