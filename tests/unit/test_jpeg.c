// SPDX-License-Identifier: GPL-2.0
/*
 * test_jpeg.c - unit tests of the vivi MJPEG encoder, decoded by libjpeg
 *
 * Every frame is drawn and encoded band by band (vivi_draw_mjpeg), decoded
 * by libjpeg without fancy upsampling (so 4:2:2 chroma is repeated, as the
 * raw YUYV frame has it) and compared with the raw YUYV draw of the same
 * settings, converted to R'G'B' the way JFIF decoders convert.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"
#include "tjpeg.h"
#include "tutil.h"
#include "vivi_draw.h"
#include "vivi_jpeg.h"

static const u32 sizes[][2] = {
	{ 160, 120 }, { 320, 240 }, { 640, 360 }, { 640, 480 },
	{ 800, 600 }, { 1024, 768 }, { 1280, 720 }, { 1920, 1080 },
	{ 2560, 1440 }, { 3840, 2160 },
};

static const char *const pat_short[VIVI_PAT_COUNT] = {
	"bars75", "bars100", "box", "checker", "hramp", "vramp",
	"black", "white", "red", "green", "blue", "noise",
};

static u8 tfont[256 * 16];
/* what the driver's OSD shows */
static const char *const text_lines[VIVI_GEN_TEXT_LINES] = {
	"000012 00:00:00.400", "1280x720 30fps MJPG", "B128 C128 S128 H0 Q95",
	NULL,
};

/* the summary the closing note quotes */
static double worst_psnr = 1e9, worst_noise_psnr = 1e9;
static int worst_bar_def, worst_bar_100;

/* libjpeg's own tables for @quality, natural order */
static void tlibjpeg_tables(int quality, int q[2][64])
{
	struct jpeg_compress_struct ci;
	struct jpeg_error_mgr mgr;
	int i, k;

	ci.err = jpeg_std_error(&mgr);
	jpeg_create_compress(&ci);
	ci.in_color_space = JCS_RGB;
	ci.input_components = 3;
	jpeg_set_defaults(&ci);
	jpeg_set_quality(&ci, quality, TRUE);
	for (i = 0; i < 2; i++)
		for (k = 0; k < 64; k++)
			q[i][k] = ci.quant_tbl_ptrs[i]->quantval[k];
	jpeg_destroy_compress(&ci);
}

/* The raw frame of the same settings, as R'G'B' doubles */
static double *traw_rgb(const struct vivi_gen_settings *s, u32 frame, u32 w,
			u32 h)
{
	/* YUYV cuts the chroma of an odd last pixel: YUV422P has it */
	const struct tfmt *tf = tfmt_find(w & 1 ? "YUV422P" : "YUYV");
	struct dpx *d = calloc((size_t)w * h, sizeof(*d));
	double *rgb = malloc(sizeof(double) * 3 * w * h);
	struct tbuf b;
	size_t i;

	tbuf_alloc(&b, tf, w, h, 0);
	if (tgen(&b, s, frame))
		tu_fail("YUYV draw failed");
	tdecode(&b, d);
	for (i = 0; i < (size_t)w * h; i++)
		tto_rgb(tf, &d[i], rgb + 3 * i);
	tbuf_free(&b);
	free(d);
	return rgb;
}

static double tpsnr(const u8 *got, const double *want, size_t n)
{
	double se = 0, e;
	size_t i;

	for (i = 0; i < n; i++) {
		e = got[i] - want[i];
		se += e * e;
	}
	return se ? 10 * log10(255.0 * 255.0 * n / se) : 99;
}

/* R4|G2|B1 of the bars, left to right */
static const int bar_bits[8] = { 7, 6, 3, 2, 5, 4, 1, 0 };

/*
 * Largest error over the middle half of each 75% bar, below the text, of a
 * still BARS75 frame (hflip mirrors the bar order).
 */
static int tbar_error(const u8 *rgb, u32 w, u32 h, int hflip)
{
	/* a block below the text */
	u32 b, x, y, x0, x1, k, y0 = 16 + 18 * VIVI_GEN_TEXT_LINES + 8;
	int c, want, e, worst = 0;

	for (b = 0; b < 8; b++) {
		k = hflip ? 7 - b : b;
		x0 = DIV_ROUND_UP(b * w, 8);
		x1 = DIV_ROUND_UP((b + 1) * w, 8);
		for (y = y0; y < h; y++)
			for (x = x0 + (x1 - x0) / 4; x < x1 - (x1 - x0) / 4;
			     x++)
				for (c = 0; c < 3; c++) {
					want = bar_bits[k] & (4 >> c) ? 191 : 0;
					e = abs(rgb[((size_t)y * w + x) * 3 + c] -
						want);
					worst = max(worst, e);
				}
	}
	return worst;
}

static void tsettings(struct vivi_gen_settings *s, u32 p, int flips)
{
	tset_default(s, p);
	s->hflip = flips & 1;
	s->vflip = flips & 2;
	s->font = tfont;
	memcpy(s->text, text_lines, sizeof(s->text));
}

/*
 * One frame: encodes, decodes cleanly, stays within the bound and matches
 * the raw frame: PSNR >= 38 dB, bars within 4 (within 2 at quality 100).
 */
static void tframe(u32 w, u32 h, u32 p, int flips, u32 quality)
{
	struct vivi_gen_settings s;
	double *raw, psnr;
	struct tdec_info info;
	char what[96];
	size_t n;
	u8 *jpg, *rgb;
	int e, lim;

	snprintf(what, sizeof(what), "%ux%u %s flips %d q%u", w, h,
		 pat_short[p], flips, quality);
	tsettings(&s, p, flips);
	jpg = tencode(&s, 12, w, h, quality, &n, what);
	if (!jpg)
		return;
	rgb = malloc((size_t)w * h * 3);
	if (tdecode_jpeg(jpg, n, w, h, rgb, &info, what))
		goto out;
	if (!info.jfif || !info.sampling_ok)
		tu_fail("%s: JFIF %d, 4:2:2 %d", what, info.jfif,
			info.sampling_ok);
	raw = traw_rgb(&s, 12, w, h);
	psnr = tpsnr(rgb, raw, (size_t)w * h * 3);
	free(raw);
	if (psnr < 38)
		tu_fail("%s: PSNR %.2f dB < 38", what, psnr);
	if (quality == VIVI_JPEG_QUALITY_DEF) {
		if (p == VIVI_PAT_NOISE)
			worst_noise_psnr = min(worst_noise_psnr, psnr);
		else
			worst_psnr = min(worst_psnr, psnr);
	}
	if (p == VIVI_PAT_BARS75) {
		e = tbar_error(rgb, w, h, s.hflip);
		lim = quality == 100 ? 2 : 4;
		if (e > lim)
			tu_fail("%s: a bar is %d off", what, e);
		if (quality == 100)
			worst_bar_100 = max(worst_bar_100, e);
		else
			worst_bar_def = max(worst_bar_def, e);
	}
out:
	free(rgb);
	free(jpg);
}

static void test_frames(void)
{
	unsigned int z;
	u32 p, big;
	int fl;

	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		u32 w = sizes[z][0], h = sizes[z][1];

		/* from 1280x720 on, each pattern with one flip setting */
		big = w >= 1280;
		for (p = 0; p < VIVI_PAT_COUNT; p++)
			for (fl = 0; fl < 4; fl++)
				if (!big || fl == (int)(p % 4))
					tframe(w, h, p, fl,
					       VIVI_JPEG_QUALITY_DEF);
		tframe(w, h, VIVI_PAT_BARS75, 3, 100);
		tframe(w, h, VIVI_PAT_BARS75, 0, 100);
		tu_done("jpeg/frames/%ux%u", w, h);
	}
	printf("# jpeg q%d: worst PSNR %.2f dB (noise %.2f dB), worst 75%% bar error %d; q100: %d\n",
	       VIVI_JPEG_QUALITY_DEF, worst_psnr, worst_noise_psnr,
	       worst_bar_def, worst_bar_100);
}

/* Odd sizes exercise the padded edge MCUs. */
static void test_odd_sizes(void)
{
	static const u32 odd[][2] = {
		{ 1, 1 }, { 2, 1 }, { 17, 9 }, { 33, 7 }, { 161, 121 },
		{ 15, 200 }, { 250, 3 },
	};
	unsigned int z;
	u32 p;

	for (z = 0; z < ARRAY_SIZE(odd); z++)
		for (p = 0; p < VIVI_PAT_COUNT; p++) {
			struct vivi_gen_settings s;
			char what[64];
			size_t n;
			u8 *jpg, *rgb;
			double *raw, psnr;
			u32 w = odd[z][0], h = odd[z][1];

			snprintf(what, sizeof(what), "%ux%u %s", w, h,
				 pat_short[p]);
			tsettings(&s, p, z & 3);
			jpg = tencode(&s, 3, w, h, VIVI_JPEG_QUALITY_DEF, &n,
				      what);
			if (!jpg)
				continue;
			rgb = malloc((size_t)w * h * 3);
			if (!tdecode_jpeg(jpg, n, w, h, rgb, NULL, what)) {
				raw = traw_rgb(&s, 3, w, h);
				psnr = tpsnr(rgb, raw, (size_t)w * h * 3);
				if (psnr < 38)
					tu_fail("%s: PSNR %.2f dB", what, psnr);
				free(raw);
			}
			free(rgb);
			free(jpg);
		}
	tu_done("jpeg/odd_sizes");
}

static void test_tables(void)
{
	struct vivi_gen_settings s;
	struct tdec_info info;
	int q[2][64], i, k;
	u32 quality;
	size_t n;
	u8 *jpg, rgb[64 * 16 * 3];

	tsettings(&s, VIVI_PAT_HRAMP, 0);
	for (quality = 1; quality <= 100; quality++) {
		jpg = tencode(&s, 0, 64, 16, quality, &n, "tables");
		if (!jpg)
			break;
		if (!tdecode_jpeg(jpg, n, 64, 16, rgb, &info, "tables")) {
			tlibjpeg_tables(quality, q);
			for (i = 0; i < 2; i++)
				for (k = 0; k < 64; k++)
					if (info.q[i][k] != q[i][k])
						tu_fail("quality %u table %d [%d]: %d, libjpeg %d",
							quality, i, k,
							info.q[i][k], q[i][k]);
		}
		free(jpg);
	}
	tu_done("jpeg/quant_tables_as_libjpeg");
}

/* ---- sizes and errors ----------------------------------------------- */

/* Encode fixed planes (all Y' = @y of pattern @pat) through the band API */
static int tencode_planes(const u8 *const pl[3], const u32 st[3], u32 w,
			  u32 h, u32 quality, u8 *out, size_t size,
			  size_t *n)
{
	u8 *scratch = malloc(vivi_jpeg_scratch_size() + 3);
	const u8 *band[3];
	u32 y;
	int ret, c;

	ret = vivi_jpeg_begin(scratch + 3, w, h, quality, out, size);
	for (y = 0; !ret && y < h; y += 8) {
		for (c = 0; c < 3; c++)
			band[c] = pl[c] + (size_t)y * st[c];
		ret = vivi_jpeg_encode_band(scratch + 3, band, st);
	}
	if (!ret)
		ret = vivi_jpeg_finish(scratch + 3, n);
	free(scratch);
	return ret;
}

/*
 * Pictures that maximize the coefficients: pixel checkerboards of the
 * extreme limited-range values, and independent noise in all planes.
 */
static void tworst_planes(u8 *pl[3], u32 w, u32 h, int kind)
{
	u32 cw = (w + 1) / 2, x, y;
	u64 r = 0x9e3779b97f4a7c15ull;
	int c;

	for (c = 0; c < 3; c++)
		for (y = 0; y < h; y++)
			for (x = 0; x < (c ? cw : w); x++) {
				u8 *d = &pl[c][(size_t)y * (c ? cw : w) + x];

				if (kind) {
					r ^= r << 13;
					r ^= r >> 7;
					r ^= r << 17;
					*d = r >> 56;
				} else {
					*d = (x + y) & 1 ? 16 : (c ? 240 : 235);
				}
			}
}

static void test_max_size(void)
{
	const u32 w = 256, h = 64, qs[] = { 1, 10, 50, 85, 95, 100 };
	u32 st[3] = { w, w / 2, w / 2 };
	u8 *pl[3], *out;
	unsigned int i;
	size_t n, max;
	int kind, c;

	for (c = 0; c < 3; c++)
		pl[c] = malloc((size_t)w * h);
	for (kind = 0; kind < 2; kind++) {
		tworst_planes(pl, w, h, kind);
		for (i = 0; i < ARRAY_SIZE(qs); i++) {
			max = vivi_jpeg_max_size(w, h, qs[i]);
			out = malloc(max);
			if (tencode_planes((const u8 *const *)pl, st, w, h,
					   qs[i], out, max, &n))
				tu_fail("kind %d q%u: encode failed", kind,
					qs[i]);
			else if (n > max)
				tu_fail("kind %d q%u: %zu > bound %zu", kind,
					qs[i], n, max);
			else
				printf("# jpeg worst case %ux%u kind %d q%u: %zu bytes, bound %zu\n",
				       w, h, kind, qs[i], n, max);
			free(out);
		}
	}
	for (c = 0; c < 3; c++)
		free(pl[c]);
	for (i = 1; i <= 100; i++)
		if (vivi_jpeg_max_size(1920, 1080, i) <
		    vivi_jpeg_max_size(1920, 1080, i > 1 ? i - 1 : 1))
			tu_fail("bound shrinks from q%u to q%u", i - 1, i);
	if (vivi_jpeg_max_size(1, 1, 85) < 600)
		tu_fail("bound of 1x1 below the headers");
	tu_done("jpeg/max_size_holds");
}

/* A too-small output gets -ENOSPC, and nothing past its end is written. */
static void test_small_output(void)
{
	const u32 w = 320, h = 240;
	struct vivi_gen_settings s;
	struct vivi_source src = {
		.type = VIVI_SOURCE_PATTERN, .pattern = &s, .frame = 1,
	};
	size_t full, n, sz, cuts[8];
	u8 *ref, *out, *scratch = malloc(vivi_draw_scratch_size(w));
	unsigned int i, k;
	int ret;

	tsettings(&s, VIVI_PAT_NOISE, 0);
	ref = tencode(&s, 1, w, h, 85, &full, "reference");
	if (!ref) {
		tu_done("jpeg/small_output");
		return;
	}
	cuts[0] = 0;
	cuts[1] = 1;
	cuts[2] = 600;
	cuts[3] = 605;
	cuts[4] = full / 2;
	cuts[5] = full - 2;
	cuts[6] = full - 1;
	cuts[7] = full;
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		sz = cuts[i];
		out = malloc(sz + 64);
		memset(out, 0xa5, sz + 64);
		n = 0;
		ret = vivi_draw_mjpeg(&src, w, h, 85, out, sz, &n, scratch);
		for (k = 0; k < 64; k++)
			if (out[sz + k] != 0xa5) {
				tu_fail("%zu bytes: written past the end", sz);
				break;
			}
		if (sz < full && ret != -ENOSPC)
			tu_fail("%zu of %zu bytes: returned %d", sz, full, ret);
		if (sz == full && (ret || n != full || memcmp(out, ref, n)))
			tu_fail("exact size: returned %d, %zu bytes", ret, n);
		free(out);
	}
	free(ref);
	free(scratch);
	tu_done("jpeg/small_output_enospc_no_overflow");
}

static void test_bad_args(void)
{
	static const u32 bad_q[] = { 0, 101, 1000, 0xffffffffu };
	u8 *scratch = malloc(vivi_jpeg_scratch_size());
	u8 y[16 * 8], c[8 * 8], out[4096];
	const u8 *pl[3] = { y, c, c };
	const u32 st[3] = { 16, 8, 8 };
	size_t n;
	unsigned int i;

	memset(y, 100, sizeof(y));
	memset(c, 128, sizeof(c));
	for (i = 0; i < ARRAY_SIZE(bad_q); i++) {
		if (vivi_jpeg_begin(scratch, 16, 8, bad_q[i], out,
				    sizeof(out)) != -EINVAL)
			tu_fail("quality %u accepted", bad_q[i]);
		if (vivi_jpeg_max_size(16, 8, bad_q[i]))
			tu_fail("max_size of quality %u", bad_q[i]);
		if (vivi_jpeg_encode_band(scratch, pl, st) != -EINVAL)
			tu_fail("band after a failed begin accepted");
	}
	tu_done("jpeg/bad_quality_rejected");

	if (vivi_jpeg_begin(scratch, 0, 8, 85, out, sizeof(out)) != -EINVAL ||
	    vivi_jpeg_begin(scratch, 16, 0, 85, out, sizeof(out)) != -EINVAL ||
	    vivi_jpeg_begin(scratch, 16385, 8, 85, out, sizeof(out)) !=
	    -EINVAL || vivi_jpeg_begin(scratch, 16, 8, 85, NULL, 100) !=
	    -EINVAL || vivi_jpeg_begin(NULL, 16, 8, 85, out, 100) != -EINVAL)
		tu_fail("bad size or pointer accepted");
	if (vivi_jpeg_max_size(0, 8, 85) || vivi_jpeg_max_size(8, 16385, 85))
		tu_fail("max_size of a bad size");
	if (vivi_jpeg_begin(scratch, 16, 16, 85, out, sizeof(out)) ||
	    vivi_jpeg_encode_band(scratch, pl, st))
		tu_fail("good frame refused");
	if (vivi_jpeg_finish(scratch, &n) != -EINVAL)
		tu_fail("finish with a row missing accepted");
	if (vivi_jpeg_begin(scratch, 16, 8, 85, out, sizeof(out)) ||
	    vivi_jpeg_encode_band(scratch, pl, st))
		tu_fail("good frame refused");
	if (vivi_jpeg_encode_band(scratch, pl, st) != -EINVAL)
		tu_fail("band past the last row accepted");
	if (vivi_jpeg_finish(scratch, &n) || n < 600)
		tu_fail("finish failed");
	if (vivi_jpeg_finish(scratch, &n) != -EINVAL)
		tu_fail("second finish accepted");
	tu_done("jpeg/bad_args_rejected");
	free(scratch);
}

static void test_scratch(void)
{
	size_t s4k = vivi_draw_scratch_size(3840);

	printf("# jpeg scratch: encoder %zu bytes, with band drawing at 3840 wide %zu bytes\n",
	       vivi_jpeg_scratch_size(), s4k);
	/* far below a frame: 3840x2160 YUYV is 16.6 MB */
	if (s4k > 512 * 1024)
		tu_fail("scratch at 3840 is %zu bytes", s4k);
	tu_done("jpeg/scratch_small");
}

/*
 * vivi_jpeg_length(), which the producer node runs on every MJPEG frame an
 * application queues: whole JPEGs, with bytes after them, cut short, not
 * starting with SOI, hand-made markers, and mutated frames (read past the
 * end: ASan)
 */
static void tlength_one(const u8 *jpg, size_t n, const char *what)
{
	size_t cut, got, step = n / 97 + 1;
	u8 *buf = malloc(n + 256);
	unsigned int i;

	memcpy(buf, jpg, n);
	for (i = 0; i < 256; i++)
		buf[n + i] = i & 1 ? 0xd9 : 0xff;	/* EOI after EOI */
	got = vivi_jpeg_length(buf, n);
	if (got != n)
		tu_fail("%s: whole: %zu, want %zu", what, got, n);
	got = vivi_jpeg_length(buf, n + 256);
	if (got != n)
		tu_fail("%s: with 256 bytes after it: %zu, want %zu", what, got, n);
	for (cut = 0; cut < n; cut += cut < 700 || cut > n - 40 ? 1 : step) {
		/* a copy of exactly @cut bytes: ASan sees any read past it */
		u8 *c = malloc(cut + 1);

		memcpy(c, jpg, cut);
		got = vivi_jpeg_length(c, cut);
		if (got)
			tu_fail("%s: cut to %zu bytes: %zu", what, cut, got);
		free(c);
	}
	buf[0] = 0;
	if (vivi_jpeg_length(buf, n))
		tu_fail("%s: without SOI", what);
	free(buf);
}

static void test_length(void)
{
	/* SOI, a segment, SOS, data with stuffing, RST0 and fill, EOI */
	static const u8 made[] = {
		0xff, 0xd8, 0xff, 0xdb, 0x00, 0x04, 0xff, 0xd9,
		0xff, 0xff, 0xda, 0x00, 0x03, 0x01, 0x12, 0xff, 0x00,
		0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xff, 0xd9,
	};
	static const u8 bad_len[] = { 0xff, 0xd8, 0xff, 0xdb, 0x00, 0x01,
				      0xff, 0xd9 };
	static const u8 rst_between[] = { 0xff, 0xd8, 0xff, 0xd0, 0xff, 0xd9 };
	static const u8 bare[] = { 0xff, 0xd8, 0xff, 0xd9 };
	const u32 cases[][3] = { { 320, 240, 85 }, { 160, 120, 100 },
				 { 17, 9, 50 } };
	struct vivi_gen_settings s;
	unsigned int c, k, seed = 1;
	size_t n, got;
	u8 *jpg, *m;

	tlength_one(made, sizeof(made), "hand-made");
	tlength_one(bare, sizeof(bare), "SOI EOI");
	if (vivi_jpeg_length(bad_len, sizeof(bad_len)))
		tu_fail("a segment length of 1 is taken");
	if (vivi_jpeg_length(rst_between, sizeof(rst_between)))
		tu_fail("RST0 between segments is taken");
	if (vivi_jpeg_length(NULL, 100))
		tu_fail("NULL is taken");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		char what[48];

		snprintf(what, sizeof(what), "%ux%u noise q%u", cases[c][0],
			 cases[c][1], cases[c][2]);
		tsettings(&s, VIVI_PAT_NOISE, 0);
		jpg = tencode(&s, 5, cases[c][0], cases[c][1], cases[c][2], &n,
			      what);
		if (!jpg)
			continue;
		tlength_one(jpg, n, what);
		/* any byte changed: an answer within the buffer, no overread */
		m = malloc(n);
		for (k = 0; k < 2000; k++) {
			memcpy(m, jpg, n);
			seed = seed * 1103515245 + 12345;
			m[2 + (seed >> 8) % (n - 2)] = seed >> 24;
			got = vivi_jpeg_length(m, n);
			if (got > n)
				tu_fail("%s: mutated: %zu of %zu bytes", what,
					got, n);
		}
		free(m);
		free(jpg);
	}
	tu_done("jpeg/length");
}

int main(void)
{
	tu_make_font(tfont);
	test_scratch();
	test_length();
	test_bad_args();
	test_tables();
	test_small_output();
	test_max_size();
	test_odd_sizes();
	test_frames();
	return tu_failed ? 1 : 0;
}
