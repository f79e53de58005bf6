/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tutil.h - PASS:/FAIL: reporting and a font shared by the unit tests and
 * benchmark of the band drawing and of the JPEG encoder
 */
#ifndef TUTIL_H
#define TUTIL_H

extern int tu_failed;

/* Record why the current test fails; only the first reason is kept. */
void tu_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "PASS: unit: <name>" or "FAIL: unit: <name>: <reason>". */
void tu_done(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#include <linux/types.h>

/*
 * Fill @font (256 glyphs of 8x16, VGA8x16 layout) with a seven-segment font
 * of VGA8x16's stroke widths: text as dense and as sharp as the driver's.
 */
void tu_make_font(u8 *font);

#endif
