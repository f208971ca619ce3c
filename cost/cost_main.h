/*
 * cost_main.h -- the `gpusim cost` subcommand (cost/report.c): cli/main.c dispatches
 * `gpusim cost ...` here with argv[0] = "cost".
 */
#ifndef COST_MAIN_H
#define COST_MAIN_H

int cost_main(int argc, char **argv);

#endif
