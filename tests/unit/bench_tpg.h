/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_tpg.h - hooks of the side-by-side benchmark (bench_tpg.c)
 */
#ifndef BENCH_TPG_H
#define BENCH_TPG_H

#include <stdio.h>

/**
 * bench_mjpeg_rows() - rows of the MJPEG encoder for the bench_tpg table
 * @o: where the table is being written
 * @repeats: the repeats per figure the other rows use
 *
 * A placeholder hook: a bench source listed in BENCH_TPG_EXTRA (see the
 * Makefile) defines it to append its rows to the table (v4l2-tpg has no
 * MJPEG, so its columns stay empty). Without one, the weak default below
 * adds nothing.
 */
void bench_mjpeg_rows(FILE *o, int repeats);

#endif
