// SPDX-License-Identifier: GPL-2.0
/*
 * test_pack.c - the packer and the unpacker (canonical lines) and the one
 * layout table:
 * - geometry: every raw format's bytesperline, sizeimage, plane strides
 *   and offsets equal what the kernel's v4l2_format_info() table gave
 *   before the format layer took them from the packer (the formula of
 *   v4l2-common.c and the kernel's values, written out here);
 * - color: the three kinds of canonical color convert as BT.601 says,
 *   against doubles;
 * - round trip: pack(unpack(P)) == P for any planes P of every format but
 *   Y16 (planes of multiples of 257) and padding bits; pack(unpack(P)) ==
 *   P for P = pack(C); unpack(pack(C)) within a stated tolerance of C on
 *   smooth content;
 * - convert: every ordered pair of the 24 formats, random source planes
 *   unpacked and packed again, against the reference of tconv.c, from the
 *   format definitions (tfmt.c's decoder, per-pixel BT.601 in doubles),
 *   at an even and an odd size;
 * - pattern: the generator's own picture packed as canonical lines equals
 *   what its palette path draws in every format;
 * - overlay: text and stamp drawn over a picture by vivi_gen_overlay()
 *   equal those vivi_gen_fill() draws with it;
 * - bands and errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tconv.h"
#include "tfmt.h"
#include "tutil.h"
#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_unpack.h"

/* The kernel's v4l2_format_info() entries of the raw formats vivi offers */
struct kinfo {
	u32 fourcc;
	const char *name;
	u32 comp_planes;
	u32 bpp[3];
	u32 hdiv;
	u32 vdiv;
};

static const struct kinfo kinfos[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_UYVY, "UYVY", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_YVYU, "YVYU", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_VYUY, "VYUY", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_YUV420, "YUV420", 3, { 1, 1, 1 }, 2, 2 },
	{ V4L2_PIX_FMT_YVU420, "YVU420", 3, { 1, 1, 1 }, 2, 2 },
	{ V4L2_PIX_FMT_YUV422P, "YUV422P", 3, { 1, 1, 1 }, 2, 1 },
	{ V4L2_PIX_FMT_RGB24, "RGB24", 1, { 3 }, 1, 1 },
	{ V4L2_PIX_FMT_BGR24, "BGR24", 1, { 3 }, 1, 1 },
	{ V4L2_PIX_FMT_XRGB32, "XRGB32", 1, { 4 }, 1, 1 },
	{ V4L2_PIX_FMT_XBGR32, "XBGR32", 1, { 4 }, 1, 1 },
	{ V4L2_PIX_FMT_RGB565, "RGB565", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_RGB565X, "RGB565X", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_XRGB555, "XRGB555", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_GREY, "GREY", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_Y16, "Y16", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_SBGGR8, "SBGGR8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SGBRG8, "SGBRG8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SGRBG8, "SGRBG8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SRGGB8, "SRGGB8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_NV12, "NV12", 2, { 1, 2 }, 2, 2 },
	{ V4L2_PIX_FMT_NV21, "NV21", 2, { 1, 2 }, 2, 2 },
	{ V4L2_PIX_FMT_NV16, "NV16", 2, { 1, 2 }, 2, 1 },
	{ V4L2_PIX_FMT_NV61, "NV61", 2, { 1, 2 }, 2, 1 },
};

/* The sizes the driver offers (vivi_fmt.c), and two small ones */
static const u32 sizes[][2] = {
	{ 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 },
	{ 640, 360 }, { 640, 480 }, { 800, 600 }, { 960, 720 },
	{ 1024, 768 }, { 1280, 720 }, { 1920, 1080 }, { 2560, 1440 },
	{ 3840, 2160 }, { 34, 18 }, { 33, 17 },
};

/* vivi_fill_pix() and vivi_fmt_plane_layout() as they were */
static u32 kernel_geometry(const struct kinfo *k, u32 w, u32 h, u32 req,
			   u32 stride[3], u32 offset[3], u32 *size)
{
	u32 min_bpl = w * k->bpp[0];
	u32 bpl = req < min_bpl ? min_bpl : req > 2 * min_bpl ? 2 * min_bpl :
		  req;
	u32 p, lines;

	if (k->comp_planes > 1)
		bpl = ALIGN(bpl, k->hdiv);
	*size = bpl * h;
	memset(stride, 0, 3 * sizeof(*stride));
	memset(offset, 0, 3 * sizeof(*offset));
	stride[0] = bpl;
	for (p = 1; p < k->comp_planes; p++) {
		*size += bpl * k->bpp[p] / (k->bpp[0] * k->hdiv) *
			 DIV_ROUND_UP(h, k->vdiv);
		lines = p == 1 ? h : DIV_ROUND_UP(h, k->vdiv);
		stride[p] = bpl * k->bpp[p] / (k->bpp[0] * k->hdiv);
		offset[p] = offset[p - 1] + stride[p - 1] * lines;
	}
	return bpl;
}

static void test_geometry(void)
{
	u32 ks[3], ko[3], ps[3], po[3], ksize, psize, kbpl, pbpl, w, h, req;
	const struct vivi_layout *l;
	unsigned int i, z, r;

	for (i = 0; i < ARRAY_SIZE(kinfos); i++) {
		l = vivi_layout_at(i);
		if (!l || l->fourcc != kinfos[i].fourcc)
			tu_fail("table entry %u is not %s", i, kinfos[i].name);
		for (z = 0; l && z < ARRAY_SIZE(sizes); z++) {
			w = sizes[z][0];
			h = sizes[z][1];
			for (r = 0; r < 6; r++) {
				req = (u32[]){ 0, w * 3 + 1, w + 3, w * 2 + 1,
					       w * 8 + 5, 1 }[r];
				kbpl = kernel_geometry(&kinfos[i], w, h, req,
						       ks, ko, &ksize);
				pbpl = vivi_layout_stride(l, w, req);
				psize = vivi_layout_geometry(l, h, pbpl, ps,
							     po);
				if (kbpl != pbpl || ksize != psize ||
				    memcmp(ks, ps, sizeof(ks)) ||
				    memcmp(ko, po, sizeof(ko)))
					tu_fail("%ux%u bytesperline %u: kernel %u/%u, packer %u/%u",
						w, h, req, kbpl, ksize, pbpl,
						psize);
			}
		}
		tu_done("pack/geometry/%s", kinfos[i].name);
	}
	if (vivi_layout_at(ARRAY_SIZE(kinfos)))
		tu_fail("the table has more than %zu entries",
			ARRAY_SIZE(kinfos));
	tu_done("pack/geometry/table-order");
}

/* ---- helpers -------------------------------------------------------- */

/* Y16 samples that 8-bit lines carry exactly: multiples of 257 */
static void y16_multiples(struct tbuf *b)
{
	u32 r, x, v;
	u8 *p;

	for (r = 0; r < b->h; r++) {
		p = b->plane[0] + (size_t)r * b->stride[0];
		for (x = 0; x < b->w; x++) {
			v = 257 * (p[2 * x] ^ p[2 * x + 1]);
			p[2 * x] = v & 0xff;
			p[2 * x + 1] = v >> 8;
		}
	}
}

static const u32 tsizes[][2] = { { 34, 18 }, { 33, 17 } };

/* ---- color ---------------------------------------------------------- */

/*
 * Every kind into every kind, over a grid of colors: towards Y'CbCr within
 * 1 of the doubles (exact but for how doubles round .5), towards R'G'B'
 * within 1
 */
static void test_color(void)
{
	static const char *const names[] = { "RGB", "YCC_LIM", "YCC_FULL" };
	int in[3], ref[3], k, worst;
	u32 from, to, i;
	u8 c[3], o[3];

	for (from = 0; from < VIVI_CANON_COUNT; from++)
		for (to = 0; to < VIVI_CANON_COUNT; to++) {
			worst = 0;
			for (i = 0; i < 32 * 32 * 32; i++) {
				in[0] = (i & 31) * 255 / 31;
				in[1] = ((i >> 5) & 31) * 255 / 31;
				in[2] = (i >> 10) * 255 / 31;
				for (k = 0; k < 3; k++)
					c[k] = in[k];
				vivi_color_convert(from, to, c, o);
				tc_ref_color(from, to, in, ref);
				for (k = 0; k < 3; k++)
					worst = max(worst, abs(o[k] - ref[k]));
				/* in place gives the same */
				vivi_color_convert(from, to, c, c);
				if (memcmp(c, o, 3))
					tu_fail("%d,%d,%d in place differs",
						in[0], in[1], in[2]);
			}
			if (worst > 1)
				tu_fail("off by %d", worst);
			printf("# pack/color/%s-to-%s: worst difference %d\n",
			       names[from], names[to], worst);
			tu_done("pack/color/%s-to-%s", names[from], names[to]);
		}
}

/* ---- round trips ---------------------------------------------------- */

/* pack(unpack(P)) == P for any planes (Y16: multiples of 257) */
static void round_planes(const struct tfmt *tf, u32 w, u32 h)
{
	struct tbuf a, b;
	struct clines c;

	tbuf_alloc(&a, tf, w, h, 3);
	tbuf_alloc(&b, tf, w, h, 3);
	tc_random_planes(&a);
	if (tf->kind == TK_LUMA && tf->layout[0] == '1')
		y16_multiples(&a);
	tbuf_fill(&b, 0x5a);
	clines_alloc(&c, w, h, tc_native_kind(tf));
	if (tc_unpack(&a, &c) || tc_pack(&b, &c))
		tu_fail("%ux%u: refused", w, h);
	else if (!tbuf_equal(&a, &b))
		tu_fail("%ux%u: planes differ after unpack and pack", w, h);
	else if (tbuf_padding_damage(&b, 0x5a))
		tu_fail("%ux%u: bytes past the line written", w, h);
	free(c.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
}

/* pack(unpack(P)) == P for P = pack(C), C random colors of kind @kind */
static void round_packed(const struct tfmt *tf, u32 w, u32 h, u32 kind)
{
	struct clines c, d;
	struct tbuf a, b;
	u32 i;

	tbuf_alloc(&a, tf, w, h, 0);
	tbuf_alloc(&b, tf, w, h, 0);
	clines_alloc(&c, w, h, kind);
	clines_alloc(&d, w, h, tc_native_kind(tf));
	for (i = 0; i < w * h * 3; i++)
		c.l.data[i] = tc_rnd32();
	if (tf->kind == TK_LUMA && tf->layout[0] == '1')
		/* 16 bits from 8-bit lines: only gray is exact (see above) */
		for (i = 0; i < w * h; i++) {
			c.l.data[3 * i + 1] = kind == VIVI_CANON_RGB ?
					      c.l.data[3 * i] : 128;
			c.l.data[3 * i + 2] = c.l.data[3 * i + 1];
		}
	if (tc_pack(&a, &c) || tc_unpack(&a, &d) || tc_pack(&b, &d))
		tu_fail("%ux%u: refused", w, h);
	else if (!tbuf_equal(&a, &b))
		tu_fail("%ux%u kind %u: pack(unpack(pack(C))) != pack(C)", w,
			h, kind);
	free(c.l.data);
	free(d.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
}

/* Smooth content: R', G', B' ramps in three directions */
static void smooth_rgb(u32 w, u32 h, u32 x, u32 y, int rgb[3])
{
	rgb[0] = 16 + x * 223 / (w - 1);
	rgb[1] = 240 - y * 223 / (h - 1);
	rgb[2] = 32 + (x + y) * 191 / (w + h - 2);
}

/*
 * unpack(pack(C)) near C for smooth R'G'B' C: exact for 8-bit R'G'B', the
 * quantization for 565/555, the matrix and chroma averaging for Y'CbCr,
 * the demosaic for Bayer; GREY and Y16 keep the luma exactly
 */
static int smooth_tolerance(const struct tfmt *tf)
{
	switch (tf->kind) {
	case TK_RGB:
		return tf->layout[0] == '5' || tf->layout[1] == '5' ? 4 : 0;
	case TK_LUMA:
		return 0;
	default:
		/* Y'CbCr and Bayer: measured 3 or 4 on these ramps */
		return 4;
	}
}

static void round_smooth(const struct tfmt *tf, u32 w, u32 h)
{
	int rgb[3], want[3], k, d, worst = 0, tol = smooth_tolerance(tf);
	struct clines c, o;
	struct tbuf a;
	u32 x, y;
	u8 *p;

	tbuf_alloc(&a, tf, w, h, 0);
	clines_alloc(&c, w, h, VIVI_CANON_RGB);
	clines_alloc(&o, w, h, VIVI_CANON_RGB);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			smooth_rgb(w, h, x, y, rgb);
			for (k = 0; k < 3; k++)
				clines_px(&c, x, y)[k] = rgb[k];
		}
	if (tc_pack(&a, &c) || tc_unpack(&a, &o))
		tu_fail("%ux%u: refused", w, h);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			smooth_rgb(w, h, x, y, rgb);
			memcpy(want, rgb, sizeof(want));
			if (tf->kind == TK_LUMA)
				want[0] = want[1] = want[2] =
					(299 * rgb[0] + 587 * rgb[1] +
					 114 * rgb[2] + 500) / 1000;
			p = clines_px(&o, x, y);
			for (k = 0; k < 3; k++) {
				d = abs(p[k] - want[k]);
				worst = max(worst, d);
			}
		}
	if (worst > tol)
		tu_fail("%ux%u: off by %d, more than %d", w, h, worst, tol);
	printf("# pack/round/%s %ux%u smooth: worst difference %d (tolerance %d)\n",
	       tf->name, w, h, worst, tol);
	free(c.l.data);
	free(o.l.data);
	tbuf_free(&a);
}

static void test_round(void)
{
	static const u32 smooth[][2] = { { 96, 64 }, { 95, 63 } };
	unsigned int z, k;
	int i;

	for (i = 0; i < ntfmts; i++) {
		for (z = 0; z < ARRAY_SIZE(tsizes); z++) {
			round_planes(&tfmts[i], tsizes[z][0], tsizes[z][1]);
			for (k = 0; k < VIVI_CANON_COUNT; k++)
				round_packed(&tfmts[i], tsizes[z][0],
					     tsizes[z][1], k);
		}
		round_planes(&tfmts[i], 1, 1);
		round_planes(&tfmts[i], 2, 3);
		for (z = 0; z < ARRAY_SIZE(smooth); z++)
			round_smooth(&tfmts[i], smooth[z][0], smooth[z][1]);
		tu_done("pack/round/%s", tfmts[i].name);
	}
}

/* ---- every pair of formats against a reference ---------------------- */

/* @from's random planes unpacked and packed as @to, against the reference */
static void convert_one(const struct tfmt *from, const struct tfmt *to,
			u32 w, u32 h)
{
	struct tbuf a, b, b2;
	struct clines c, c2;

	tbuf_alloc(&a, from, w, h, 1);
	tbuf_alloc(&b, to, w, h, 1);
	tbuf_alloc(&b2, to, w, h, 1);
	tc_random_planes(&a);
	clines_alloc(&c, w, h, tc_native_kind(from));
	clines_alloc(&c2, w, h, tc_native_kind(to));
	if (tc_unpack(&a, &c) || tc_pack(&b, &c) || tc_unpack(&a, &c2) ||
	    tc_pack(&b2, &c2))
		tu_fail("%s to %s %ux%u: refused", from->name, to->name, w, h);
	/* unpacked straight into @to's kind: the same conversion */
	else if (!tbuf_equal(&b, &b2))
		tu_fail("%s to %s %ux%u: the two paths differ", from->name,
			to->name, w, h);
	else
		tc_check_convert(&a, &b);
	free(c.l.data);
	free(c2.l.data);
	tbuf_free(&a);
	tbuf_free(&b);
	tbuf_free(&b2);
}

static void test_convert(void)
{
	unsigned int z;
	int i, j;

	for (i = 0; i < ntfmts; i++) {
		for (j = 0; j < ntfmts; j++)
			for (z = 0; z < ARRAY_SIZE(tsizes); z++)
				convert_one(&tfmts[i], &tfmts[j],
					    tsizes[z][0], tsizes[z][1]);
		tu_done("pack/convert/%s-to-all", tfmts[i].name);
	}
}

/* ---- the pattern, packed as canonical lines ------------------------- */

/* Settings variant @v: plain and moving, the camera's, the picture's */
static void pattern_settings(struct vivi_gen_settings *s, u32 pattern, int v)
{
	tset_default(s, pattern);
	s->motion_speed = 2;
	if (v == 1) {
		s->exposure = 400;
		s->gain = 20;
		s->wb_temp = 3000;
		s->gamma = 150;
		s->backlight = 1;
		s->zoom = 150;
		s->pan = 2000;
		s->hflip = true;
	} else if (v == 2) {
		s->brightness = 140;
		s->contrast = 110;
		s->saturation = 150;
		s->hue = 30;
		s->vflip = true;
	}
}

/* Plane bytes of @a and @b within @tol0 (plane 0) and @tol (the others) */
static int planes_near(const struct tbuf *a, const struct tbuf *b, int tol0,
		       int tol)
{
	u32 r, x;
	int p, d;

	for (p = 0; p < a->np; p++)
		for (r = 0; r < a->rows[p]; r++)
			for (x = 0; x < a->lb[p]; x++) {
				d = abs(a->plane[p][r * a->stride[p] + x] -
					b->plane[p][r * b->stride[p] + x]);
				if (d > (p ? tol : tol0))
					return 0;
			}
	return 1;
}

/*
 * Pattern @pat, variant @v, drawn as @via, unpacked, packed as @tf: the
 * same as drawn as @tf straight, within @tol in the chroma planes
 */
static void pattern_one(const struct tfmt *tf, const struct tfmt *via,
			u32 w, u32 h, u32 pat, int v, int tol)
{
	struct vivi_gen_settings s;
	struct tbuf ref, src, got;
	struct clines c;

	pattern_settings(&s, pat, v);
	tbuf_alloc(&ref, tf, w, h, 0);
	tbuf_alloc(&got, tf, w, h, 0);
	tbuf_alloc(&src, via, w, h, 0);
	clines_alloc(&c, w, h, tc_native_kind(via));
	if (tgen(&ref, &s, 3) || tgen(&src, &s, 3) || tc_unpack(&src, &c) ||
	    tc_pack(&got, &c))
		tu_fail("%ux%u pattern %u v%d: refused", w, h, pat, v);
	else if (!planes_near(&ref, &got, 0, tol))
		tu_fail("%ux%u pattern %u v%d via %s: differs from the palette path",
			w, h, pat, v, via->name);
	free(c.l.data);
	tbuf_free(&ref);
	tbuf_free(&got);
	tbuf_free(&src);
}

/*
 * The generator's picture through XRGB32 (lossless R'G'B') is exact in
 * every format while the picture controls stay at their defaults (the
 * palette converts R'G'B' as the packer does); with them, the palette
 * adjusts in Y'CbCr, so the Y'CbCr formats take it through YUV422P: exact
 * but for 4:2:0 chroma, an average of averages (within 1)
 */
static void test_pattern(void)
{
	static const u32 sizes[][2] = { { 66, 34 }, { 65, 33 } };
	const struct tfmt *xrgb = tfmt_find("XRGB32");
	const struct tfmt *p422 = tfmt_find("YUV422P");
	const struct tfmt *via;
	unsigned int z;
	u32 pat;
	int i, v;

	for (i = 0; i < ntfmts; i++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (pat = 0; pat < VIVI_PAT_COUNT; pat++)
				for (v = 0; v < 3; v++) {
					via = v == 2 && tfmt_is_yuv(&tfmts[i]) ?
					      p422 : xrgb;
					pattern_one(&tfmts[i], via, sizes[z][0],
						    sizes[z][1], pat, v,
						    via == p422 &&
						    tfmts[i].vsub == 2);
				}
		tu_done("pack/pattern/%s", tfmts[i].name);
	}
}

/* ---- text and stamp over a finished picture ------------------------- */

static u8 tfont[256 * 16];

/*
 * A frame drawn without text and stamp, then overlaid by
 * vivi_gen_overlay(), equals the frame drawn with them, in one scratch
 * area shared by both calls (as a producer's frames and the pattern's
 * will share a node's), and the pattern drawn after is still right
 */
static void overlay_one(const struct tfmt *tf, u32 w, u32 h, bool privacy)
{
	static const char *const text[VIVI_GEN_TEXT_LINES] = {
		"Overlay 1", NULL, "0123456789", "x",
	};
	u8 *scratch = tc_malloc(vivi_gen_scratch_size(w));
	struct vivi_gen_settings s, plain;
	struct vivi_gen_frame f;
	struct tbuf a, b;
	int i;

	tset_default(&s, VIVI_PAT_BARS75);
	s.font = tfont;
	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++)
		s.text[i] = text[i];
	s.stamp = true;
	s.stamp_seq = 0x12345678;
	s.stamp_ms = 0x123456789abcull;
	s.privacy = privacy;
	plain = s;
	plain.font = NULL;
	plain.stamp = false;
	tbuf_alloc(&a, tf, w, h, 0);
	tbuf_alloc(&b, tf, w, h, 0);
	if (tgen(&a, &s, 7))
		tu_fail("%ux%u: fill refused", w, h);
	tbuf_frame(&b, &f);
	if (vivi_gen_fill(&f, &plain, 7, scratch) ||
	    vivi_gen_overlay(&f, &s, scratch))
		tu_fail("%ux%u: refused", w, h);
	else if (!tbuf_equal(&a, &b))
		tu_fail("%ux%u privacy %d: overlay differs from the fill's", w,
			h, privacy);
	tbuf_fill(&b, 0);
	if (vivi_gen_fill(&f, &s, 7, scratch) || !tbuf_equal(&a, &b))
		tu_fail("%ux%u: the fill after an overlay differs", w, h);
	tbuf_free(&a);
	tbuf_free(&b);
	free(scratch);
}

static void test_overlay(void)
{
	struct vivi_gen_frame f;
	struct vivi_gen_settings s;
	int i;

	tu_make_font(tfont);
	for (i = 0; i < ntfmts; i++) {
		overlay_one(&tfmts[i], 160, 120, false);
		overlay_one(&tfmts[i], 161, 119, false);
		overlay_one(&tfmts[i], 160, 120, true);
		tu_done("pack/overlay/%s", tfmts[i].name);
	}
	tset_default(&s, 0);
	memset(&f, 0, sizeof(f));
	if (vivi_gen_overlay(&f, &s, tfont) != -EINVAL ||
	    vivi_gen_overlay(NULL, &s, tfont) != -EINVAL)
		tu_fail("a bad frame taken");
	tu_done("pack/overlay/errors");
}

/* ---- bands and errors ----------------------------------------------- */

/*
 * Frame lines [y0, y0 + n) packed on their own into planes of exactly
 * those lines with a canary line around: the same bytes as the whole
 * frame's, and nothing written outside
 */
static void band_one(const struct tbuf *full, const struct clines *c, u32 y0,
		     u32 n)
{
	u8 *scratch = tc_malloc(vivi_pack_scratch_size(full->w));
	struct vivi_gen_frame f;
	struct vivi_lines l = c->l;
	u32 r0[3], r1[3], r, sub, rows;
	u8 *buf[3];
	int p;

	tbuf_frame(full, &f);
	f.band_y0 = y0;
	f.band_lines = n;
	for (p = 0; p < full->np; p++) {
		sub = full->rows[p] != full->h;
		r0[p] = sub ? y0 / 2 : y0;
		r1[p] = sub ? (y0 + n + 1) / 2 : y0 + n;
		rows = r1[p] - r0[p] + 2;
		buf[p] = tc_malloc((size_t)f.stride[p] * rows);
		memset(buf[p], 0x5a, (size_t)f.stride[p] * rows);
		f.plane[p] = buf[p] + f.stride[p];
	}
	l.data = c->l.data + (size_t)y0 * c->l.stride;
	if (vivi_pack_lines(&f, &l, scratch))
		tu_fail("%s band %u+%u: refused", full->tf->name, y0, n);
	for (p = 0; p < full->np; p++) {
		for (r = r0[p]; r < r1[p]; r++)
			if (memcmp(f.plane[p] + (r - r0[p]) * f.stride[p],
				   full->plane[p] + r * full->stride[p],
				   full->lb[p]))
				tu_fail("%s band %u+%u: plane %d line %u differs",
					full->tf->name, y0, n, p, r);
		for (r = 0; r < f.stride[p]; r++)
			if (buf[p][r] != 0x5a ||
			    f.plane[p][(r1[p] - r0[p]) * f.stride[p] + r] !=
			    0x5a)
				tu_fail("%s band %u+%u: canary of plane %d written",
					full->tf->name, y0, n, p);
		free(buf[p]);
	}
	free(scratch);
}

static void test_bands(void)
{
	static const u32 cuts[][2] = {
		{ 0, 2 }, { 2, 6 }, { 8, 1 }, { 4, 13 }, { 16, 1 }, { 0, 17 },
	};
	struct clines c;
	struct tbuf b;
	unsigned int k;
	u32 i;
	int f;

	for (f = 0; f < ntfmts; f++) {
		tbuf_alloc(&b, &tfmts[f], 33, 17, 2);
		clines_alloc(&c, 33, 17, VIVI_CANON_RGB);
		for (i = 0; i < 33 * 17 * 3; i++)
			c.l.data[i] = tc_rnd32();
		if (tc_pack(&b, &c))
			tu_fail("%s: refused", tfmts[f].name);
		for (k = 0; k < ARRAY_SIZE(cuts); k++)
			/* 4:2:0 bands end at an even line or the frame's end */
			if (tfmts[f].vsub == 1 || !((cuts[k][0] + cuts[k][1]) & 1) ||
			    cuts[k][0] + cuts[k][1] == 17)
				band_one(&b, &c, cuts[k][0], cuts[k][1]);
		free(c.l.data);
		tbuf_free(&b);
	}
	tu_done("pack/bands");
}

/* What the packer and the unpacker refuse */
static void test_errors(void)
{
	const struct tfmt *nv12 = tfmt_find("NV12"), *rgb = tfmt_find("RGB24");
	u8 *scratch = tc_malloc(vivi_pack_scratch_size(34));
	struct vivi_gen_frame f, g;
	struct vivi_lines l;
	struct clines c;
	struct tbuf b;

	tbuf_alloc(&b, nv12, 34, 18, 0);
	clines_alloc(&c, 34, 18, VIVI_CANON_RGB);
	memset(c.l.data, 0, c.l.stride * 18);
	tbuf_frame(&b, &f);
	l = c.l;
	if (vivi_pack_lines(&f, &l, scratch) || vivi_unpack_lines(&f, 0, 18, &l))
		tu_fail("a good frame refused");
	l.kind = VIVI_CANON_COUNT;
	if (vivi_pack_lines(&f, &l, scratch) != -EINVAL ||
	    vivi_unpack_lines(&f, 0, 18, &l) != -EINVAL)
		tu_fail("an unknown kind taken");
	l = c.l;
	l.stride = 34 * 3 - 1;
	if (vivi_pack_lines(&f, &l, scratch) != -EINVAL ||
	    vivi_unpack_lines(&f, 0, 18, &l) != -EINVAL)
		tu_fail("a short line stride taken");
	l = c.l;
	if (vivi_pack_lines(&f, &l, NULL) != -EINVAL ||
	    vivi_pack_lines(NULL, &l, scratch) != -EINVAL ||
	    vivi_unpack_lines(&f, 0, 18, NULL) != -EINVAL)
		tu_fail("a NULL taken");
	if (vivi_unpack_lines(&f, 10, 9, &l) != -EINVAL ||
	    vivi_unpack_lines(&f, 19, 0, &l) != -EINVAL)
		tu_fail("lines past the frame taken");
	g = f;
	g.band_y0 = 2;
	g.band_lines = 3;
	if (vivi_pack_lines(&g, &l, scratch) != -EINVAL)
		tu_fail("a 4:2:0 band ending at an odd line taken");
	if (vivi_unpack_lines(&g, 0, 2, &l) != -EINVAL)
		tu_fail("a band taken by the unpacker");
	g.band_y0 = 1;
	g.band_lines = 2;
	if (vivi_pack_lines(&g, &l, scratch) != -EINVAL)
		tu_fail("a 4:2:0 band from an odd line taken");
	g.fourcc = V4L2_PIX_FMT_MJPEG;
	g.band_lines = 0;
	g.band_y0 = 0;
	if (vivi_pack_lines(&g, &l, scratch) != -EINVAL ||
	    vivi_unpack_lines(&g, 0, 2, &l) != -EINVAL)
		tu_fail("a format without a layout taken");
	tbuf_free(&b);
	/* any band of a format without 4:2:0 */
	tbuf_alloc(&b, rgb, 34, 18, 0);
	tbuf_frame(&b, &f);
	f.band_y0 = 3;
	f.band_lines = 5;
	f.plane[0] += 3 * f.stride[0];
	if (vivi_pack_lines(&f, &l, scratch))
		tu_fail("an RGB24 band from an odd line refused");
	tbuf_free(&b);
	free(c.l.data);
	free(scratch);
	tu_done("pack/errors");
}

int main(void)
{
	test_geometry();
	test_color();
	test_round();
	test_convert();
	test_pattern();
	test_overlay();
	test_bands();
	test_errors();
	return tu_failed ? 1 : 0;
}
