// SPDX-License-Identifier: GPL-2.0
/*
 * tutil.c - PASS:/FAIL: reporting for the unit tests
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tutil.h"

int tu_failed;
static int tu_bad;
static char tu_why[512];

void tu_fail(const char *fmt, ...)
{
	va_list ap;

	if (tu_bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(tu_why, sizeof(tu_why), fmt, ap);
	va_end(ap);
}

void tu_done(const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (tu_bad) {
		printf("FAIL: unit: %s: %s\n", name, tu_why);
		tu_failed++;
	} else {
		printf("PASS: unit: %s\n", name);
	}
	fflush(stdout);
	tu_bad = 0;
	tu_why[0] = 0;
}

/*
 * A seven-segment font with the stroke widths of VGA8x16 (2-pixel
 * verticals, 1-pixel horizontals, rows 2..12), each character a different
 * set of segments: text as dense and as sharp as the driver's.
 */
void tu_make_font(u8 *font)
{
	static const u8 digit[10] = {
		0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f,
	};
	int c, r;
	u8 seg;

	memset(font, 0, 256 * 16);
	for (c = 33; c < 127; c++) {
		seg = c >= '0' && c <= '9' ? digit[c - '0'] :
		      (u8)(c * 73 + 41) | 0x41;
		for (r = 2; r <= 12; r++) {
			u8 *g = &font[c * 16 + r];

			if ((r == 2 && seg & 0x01) || (r == 7 && seg & 0x40) ||
			    (r == 12 && seg & 0x08))
				*g |= 0x7c;
			if (r <= 7 && seg & 0x20)
				*g |= 0xc0;
			if (r <= 7 && seg & 0x02)
				*g |= 0x06;
			if (r >= 7 && seg & 0x10)
				*g |= 0xc0;
			if (r >= 7 && seg & 0x04)
				*g |= 0x06;
		}
	}
}
