/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tconv.h - what the tests of the packer, the unpacker and the scaler
 * share: random numbers and planes, whole frames of canonical lines, and
 * a reference conversion between any two raw formats that is independent
 * of the driver's code (tfmt.c's decoder, BT.601 in doubles)
 */
#ifndef TCONV_H
#define TCONV_H

#include <stddef.h>

#include <linux/types.h>

#include "tfmt.h"
#include "vivi_pack.h"

/* Canonical lines of a whole w x h frame, exactly sized for ASan */
struct clines {
	struct vivi_lines l;
	u32 w, h;
};

/* xorshift: the same sequence on every run */
u32 tc_rnd32(void);
/* malloc, or exit */
void *tc_malloc(size_t n);

void clines_alloc(struct clines *c, u32 w, u32 h, u32 kind);
u8 *clines_px(const struct clines *c, u32 x, u32 y);
/* vivi_pack_lines() of the whole frame, with exactly sized scratch */
int tc_pack(struct tbuf *b, const struct clines *c);
/* vivi_unpack_lines() of the whole frame */
int tc_unpack(const struct tbuf *b, struct clines *c);

/* The kind a format's samples carry */
u32 tc_native_kind(const struct tfmt *tf);
/* Random bytes, then the padding bits packing writes: X = all ones */
void tc_random_planes(struct tbuf *b);

/* The average of @n values, rounded half up */
int tc_avg(int sum, int n);
/* BT.601 between the kinds of enum vivi_canon, in doubles, rounded */
void tc_ref_color(u32 from, u32 to, const int in[3], int out[3]);
/*
 * The colors of @b's pixels in its own kind, by the unpacker's rules:
 * chroma replicated, a packed 4:2:2 odd last pixel's missing chroma from
 * the pixel before (else 128), fields expanded, Y16 / 257, gray as
 * R' = G' = B', Bayer bilinear
 */
void tc_ref_unpack(const struct tbuf *b, int (*can)[3]);
/*
 * What pixel (x, y) of @tf must decode to when packed from @conv, a
 * @w x @h frame of colors of its own kind: chroma the rounded average of
 * the 1, 2 or 4 pixels its sample covers
 */
void tc_ref_expect(const struct tfmt *tf, u32 w, u32 h, int (*conv)[3],
		   int x, int y, struct dpx *e);
/*
 * How far a converted sample may be from the reference: 0, or where
 * Y'CbCr became R'G'B' 1 step of the sample, 257 + 1 for Y16
 */
int tc_convert_tolerance(const struct tfmt *from, const struct tfmt *to);
/*
 * @b, converted from @a at the same size, against the reference within
 * that tolerance: 0, or -1 after tu_fail() naming the first pixel off
 */
int tc_check_convert(const struct tbuf *a, const struct tbuf *b);

#endif
