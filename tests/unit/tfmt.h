/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfmt.h - the tests' own view of the pixel formats: plane geometry,
 * exactly sized buffers with canaries, a reference decoder and the
 * expected values, all written from the format definitions and never
 * calling generator internals.
 */
#ifndef TFMT_H
#define TFMT_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>
#include "vivi_gen.h"

enum tkind {
	TK_PACKED,	/* packed 4:2:2, layout = byte order, e.g. "YUYV" */
	TK_PLANAR,	/* layout = chroma planes in memory order, "UV"/"VU" */
	TK_SEMI,	/* layout = chroma pair order, "UV"/"VU" */
	TK_RGB,		/* layout = "RGB", "BGR", "XRGB", "BGRX", "565", ... */
	TK_LUMA,	/* layout = "8" or "16" */
	TK_BAYER,	/* layout = the 2x2 CFA, e.g. "BGGR" */
};

struct tfmt {
	u32 fourcc;
	const char *name;
	int kind;
	const char *layout;
	int vsub;	/* chroma rows per picture row: 1 or 2 */
};

extern const struct tfmt tfmts[];
extern const int ntfmts;

const struct tfmt *tfmt_find(const char *name);
int tfmt_is_yuv(const struct tfmt *tf);

/* One frame, each plane allocated to exactly stride * rows bytes. */
struct tbuf {
	const struct tfmt *tf;
	u32 w, h;
	int np;
	u8 *plane[3];
	u32 stride[3];
	u32 lb[3];	/* bytes of a line the generator writes */
	u32 rows[3];
};

/* @b's format, size, plane count, line bytes and rows; no memory */
void tbuf_layout(struct tbuf *b, const struct tfmt *tf, u32 w, u32 h);
void tbuf_alloc(struct tbuf *b, const struct tfmt *tf, u32 w, u32 h,
		u32 extra);
void tbuf_free(struct tbuf *b);
void tbuf_fill(struct tbuf *b, u8 val);
/* bytes past lb in each line that are not @val */
long tbuf_padding_damage(const struct tbuf *b, u8 val);
int tbuf_equal(const struct tbuf *a, const struct tbuf *b);
u64 tbuf_hash(const struct tbuf *b);

/* the generator's side; vivi-transit defines TFMT_NO_GEN: no driver code */
#ifndef TFMT_NO_GEN
void tbuf_frame(const struct tbuf *b, struct vivi_gen_frame *f);
/* vivi_gen_fill with an exactly sized, deliberately misaligned scratch */
int tgen(struct tbuf *b, const struct vivi_gen_settings *s, u32 frame);
void tset_default(struct vivi_gen_settings *s, u32 pattern);
#endif

/*
 * Decoded pixel, in the format's own terms:
 * Y'CbCr formats: Y', Cb, Cr (the chroma sample covering the pixel; -1
 * where an odd width cuts the macropixel); 8-bit RGB: R, G, B;
 * 565/555: the quantized fields; GREY/Y16: the value in c[0];
 * Bayer: the value in the channel of the site, -1 in the others.
 */
struct dpx {
	int c[3];
};

/* Returns 0, or -1 if a padding field (X byte or bit) is not all ones. */
int tdecode(const struct tbuf *b, struct dpx *out);

/* What a pixel of full-range R'G'B' @rgb must decode to (no subsampling). */
void texpect(const struct tfmt *tf, int x, int y, const int rgb[3],
	     struct dpx *e);
/* the fields of @d that @e defines (not -1) match exactly */
int tdpx_match(const struct dpx *d, const struct dpx *e);
/* BT.601 limited Y'CbCr of @rgb, rounded from double */
void tycc(const int rgb[3], int ycc[3]);
/* Decoded pixel back to approximate full-range R'G'B' (Bayer: -1 unknown) */
void tto_rgb(const struct tfmt *tf, const struct dpx *p, double rgb[3]);
/*
 * Full-range R'G'B' of pixel (x, y) of still pattern @pattern (not the box
 * or noise) in a @w x @h frame, from the pattern definitions
 */
void tpattern_rgb(u32 pattern, u32 w, u32 h, u32 x, u32 y, int rgb[3]);
/* 0 = R, 1 = G, 2 = B at site (x, y) of a Bayer format */
int tbayer_ch(const struct tfmt *tf, int x, int y);

#endif
