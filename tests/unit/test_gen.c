// SPDX-License-Identifier: GPL-2.0
/*
 * test_gen.c - unit tests of the vivi pattern generator
 *
 *   test_gen [--golden FILE]		run all tests (one PASS/FAIL line each)
 *   test_gen --write-golden FILE	regenerate the golden checksums
 *   test_gen --dump DIR			write PPM pictures for review
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"

static int n_failed;
static int t_bad;
static char t_why[512];

static void tfail(const char *fmt, ...)
{
	va_list ap;

	if (t_bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(t_why, sizeof(t_why), fmt, ap);
	va_end(ap);
}

static void tdone(const char *fmt, ...)
{
	char name[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (t_bad) {
		printf("FAIL: unit: %s: %s\n", name, t_why);
		n_failed++;
	} else {
		printf("PASS: unit: %s\n", name);
	}
	fflush(stdout);
	t_bad = 0;
	t_why[0] = 0;
}

/* ---- helpers -------------------------------------------------------- */

static u8 tfont[256 * 16];

/* A synthetic 8x16 font: every glyph row a distinct, irregular pattern. */
static void make_font(void)
{
	int c, r;

	for (c = 0; c < 256; c++)
		for (r = 0; r < 16; r++)
			tfont[c * 16 + r] = (u8)(c * 29 + r * 71 + c / 8 * 5) ^
					    (r & 1 ? 0xa5 : 0x3c) ^ c;
}

static const char *const text_lines[VIVI_GEN_TEXT_LINES] = {
	"Hi!", NULL, "vivi 0123", "~",
};

static void set_text(struct vivi_gen_settings *s, const u8 *font)
{
	int i;

	s->font = font;
	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++)
		s->text[i] = text_lines[i];
}

/*
 * Fill a frame of @tf with @s and decode it. Checks the return value, the
 * padding canary and the X fields. Caller frees.
 */
static struct dpx *gen_decode(const struct tfmt *tf, u32 w, u32 h,
			      const struct vivi_gen_settings *s, u32 frame,
			      u64 *hash)
{
	struct dpx *d = calloc((size_t)w * h, sizeof(*d));
	struct tbuf b;
	int ret;

	tbuf_alloc(&b, tf, w, h, 5);
	tbuf_fill(&b, 0xa5);
	ret = tgen(&b, s, frame);
	if (ret)
		tfail("%s %ux%u pattern %u: fill returned %d", tf->name, w, h,
		      s->pattern, ret);
	if (tbuf_padding_damage(&b, 0xa5))
		tfail("%s %ux%u: padding written", tf->name, w, h);
	if (tdecode(&b, d))
		tfail("%s %ux%u: X field not all ones", tf->name, w, h);
	if (hash)
		*hash = tbuf_hash(&b);
	tbuf_free(&b);
	return d;
}

static void rgb_of(const struct dpx *ref, u32 w, u32 x, u32 y, int rgb[3])
{
	int i;

	for (i = 0; i < 3; i++)
		rgb[i] = ref[(size_t)y * w + x].c[i];
}

static int dpx_same(const struct dpx *a, const struct dpx *b)
{
	return !memcmp(a->c, b->c, sizeof(a->c));
}

static const struct tfmt *RGB24;

static const char *const pat_short[VIVI_PAT_COUNT] = {
	"bars75", "bars100", "box", "checker", "hramp", "vramp",
	"black", "white", "red", "green", "blue", "noise",
};

/* ---- API ------------------------------------------------------------ */

static void test_api(void)
{
	static const char *const names[] = {
		"75% Color Bars", "100% Color Bars",
		"Color Bars with Moving Box", "Checkerboard 16x16",
		"Horizontal Gray Ramp", "Vertical Gray Ramp", "Solid Black",
		"Solid White", "Solid Red", "Solid Green", "Solid Blue",
		"Noise",
	};
	static const u32 unsupported[] = {
		V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_NV24, V4L2_PIX_FMT_YUV444,
		V4L2_PIX_FMT_SBGGR10, V4L2_PIX_FMT_ARGB32, 0,
	};
	unsigned int i;

	for (i = 0; i < VIVI_PAT_COUNT; i++)
		if (!vivi_gen_pattern_names[i] ||
		    strcmp(vivi_gen_pattern_names[i], names[i]))
			tfail("name %u is \"%s\"", i,
			      vivi_gen_pattern_names[i]);
	if (vivi_gen_pattern_names[VIVI_PAT_COUNT])
		tfail("names not NULL-terminated");
	tdone("api/pattern_names");

	for (i = 0; i < (unsigned int)ntfmts; i++)
		if (!vivi_gen_supported(tfmts[i].fourcc))
			tfail("%s not supported", tfmts[i].name);
	for (i = 0; i < ARRAY_SIZE(unsupported); i++)
		if (vivi_gen_supported(unsupported[i]))
			tfail("%08x claimed supported", unsupported[i]);
	tdone("api/supported");

	for (i = 0; i < (unsigned int)ntfmts; i++)
		if (vivi_gen_is_yuv(tfmts[i].fourcc) !=
		    !!tfmt_is_yuv(&tfmts[i]))
			tfail("%s is_yuv wrong", tfmts[i].name);
	if (vivi_gen_is_yuv(V4L2_PIX_FMT_MJPEG))
		tfail("MJPEG is_yuv");
	tdone("api/is_yuv");

	if (vivi_gen_scratch_size(3840) >= 256 * 1024)
		tfail("scratch for 3840 is %zu bytes",
		      vivi_gen_scratch_size(3840));
	for (i = 1; i < 5000; i += 37)
		if (vivi_gen_scratch_size(i + 1) < vivi_gen_scratch_size(i))
			tfail("scratch size not monotonic at %u", i);
	tdone("api/scratch_size");
}

/* ---- errors --------------------------------------------------------- */

static void test_errors(void)
{
	struct vivi_gen_settings s;
	struct vivi_gen_frame f;
	struct tbuf b;
	u8 *scratch = malloc(vivi_gen_scratch_size(64));
	int i, p, ret;

	tset_default(&s, VIVI_PAT_BARS75);
	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		tbuf_alloc(&b, tf, 64, 48, 0);
		tbuf_fill(&b, 0x77);
		for (p = 0; p < b.np; p++) {
			tbuf_frame(&b, &f);
			f.stride[p] = b.lb[p] - 1;
			ret = vivi_gen_fill(&f, &s, 0, scratch);
			if (ret != -EINVAL)
				tfail("%s plane %d stride lb-1: %d", tf->name,
				      p, ret);
			tbuf_frame(&b, &f);
			f.plane[p] = NULL;
			ret = vivi_gen_fill(&f, &s, 0, scratch);
			if (ret != -EINVAL)
				tfail("%s plane %d NULL: %d", tf->name, p, ret);
		}
		tbuf_frame(&b, &f);
		f.width = 0;
		if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
			tfail("%s width 0 accepted", tf->name);
		tbuf_frame(&b, &f);
		f.height = 0;
		if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
			tfail("%s height 0 accepted", tf->name);
		if (tbuf_padding_damage(&b, 0x77) ||
		    b.plane[0][0] != 0x77 || b.plane[b.np - 1][0] != 0x77)
			tfail("%s written by a failing fill", tf->name);
		tbuf_frame(&b, &f);
		if (vivi_gen_fill(&f, &s, 0, scratch))
			tfail("%s stride == line bytes refused", tf->name);
		tbuf_free(&b);
	}
	tdone("errors/stride_plane_size");

	tbuf_alloc(&b, RGB24, 64, 48, 0);
	tbuf_frame(&b, &f);
	f.fourcc = V4L2_PIX_FMT_MJPEG;
	if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
		tfail("MJPEG accepted");
	f.fourcc = v4l2_fourcc('A', 'B', 'C', 'D');
	if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
		tfail("ABCD accepted");
	tdone("errors/unknown_fourcc");

	tbuf_frame(&b, &f);
	s.pattern = VIVI_PAT_COUNT;
	if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
		tfail("pattern COUNT accepted");
	s.pattern = VIVI_PAT_BARS75;
	if (vivi_gen_fill(NULL, &s, 0, scratch) != -EINVAL ||
	    vivi_gen_fill(&f, NULL, 0, scratch) != -EINVAL ||
	    vivi_gen_fill(&f, &s, 0, NULL) != -EINVAL)
		tfail("NULL argument accepted");
	tdone("errors/bad_pattern_null_args");
	tbuf_free(&b);
	free(scratch);
}

/* ---- exact values --------------------------------------------------- */

/* The four sites of the 2x2 block at (x, y) all show @rgb. */
static void check_block(const struct tfmt *tf, const struct dpx *d, u32 w,
			u32 x, u32 y, const int rgb[3], const char *what)
{
	struct dpx e;
	u32 i;

	for (i = 0; i < 4; i++) {
		u32 xx = x + (i & 1), yy = y + i / 2;
		const struct dpx *got = &d[(size_t)yy * w + xx];

		texpect(tf, xx, yy, rgb, &e);
		if (!tdpx_match(got, &e))
			tfail("%s at (%u,%u): got %d,%d,%d want %d,%d,%d", what,
			      xx, yy, got->c[0], got->c[1], got->c[2], e.c[0],
			      e.c[1], e.c[2]);
	}
}

static void test_exact(void)
{
	static const u32 pats[] = {
		VIVI_PAT_BARS75, VIVI_PAT_BARS100, VIVI_PAT_BLACK,
		VIVI_PAT_WHITE, VIVI_PAT_RED, VIVI_PAT_GREEN, VIVI_PAT_BLUE,
	};
	const u32 w = 160, h = 120;
	struct vivi_gen_settings s;
	char what[64];
	unsigned int i, k, bar;
	int rgb[3];

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		for (k = 0; k < ARRAY_SIZE(pats); k++) {
			struct dpx *d;

			tset_default(&s, pats[k]);
			d = gen_decode(tf, w, h, &s, 0, NULL);
			for (bar = 0; bar < 8; bar++) {
				u32 x = (2 * bar + 1) * w / 16;

				tpattern_rgb(pats[k], w, h, x, h / 2, rgb);
				snprintf(what, sizeof(what), "%s bar %u",
					 pat_short[pats[k]], bar);
				check_block(tf, d, w, x, h / 2, rgb, what);
			}
			free(d);
		}
		tdone("exact/%s", tf->name);
	}
}

/* Every pixel of every still pattern's geometry, checked in RGB24. */
static void test_geometry(void)
{
	static const u32 sizes[][2] = {
		{ 1, 1 }, { 2, 3 }, { 7, 5 }, { 160, 120 }, { 161, 121 },
		{ 1, 40 }, { 300, 1 },
	};
	struct vivi_gen_settings s;
	unsigned int z, x, y, p;
	int rgb[3], want[3];

	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		u32 w = sizes[z][0], h = sizes[z][1];

		for (p = 0; p < VIVI_PAT_COUNT; p++) {
			struct dpx *d;

			if (p == VIVI_PAT_NOISE || p == VIVI_PAT_BARS_BOX)
				continue;
			tset_default(&s, p);
			d = gen_decode(RGB24, w, h, &s, 0, NULL);
			for (y = 0; y < h; y++)
				for (x = 0; x < w; x++) {
					tpattern_rgb(p, w, h, x, y, want);
					rgb_of(d, w, x, y, rgb);
					if (!memcmp(rgb, want, sizeof(rgb)))
						continue;
					tfail("%s %ux%u (%u,%u): %d,%d,%d want %d,%d,%d",
					      pat_short[p], w, h, x, y, rgb[0],
					      rgb[1], rgb[2], want[0], want[1],
					      want[2]);
				}
			free(d);
		}
	}
	tdone("exact/geometry_rgb24");
}

/* ---- bounds --------------------------------------------------------- */

static void variant_settings(struct vivi_gen_settings *s, u32 pattern,
			     int variant, u32 *frame)
{
	tset_default(s, pattern);
	*frame = 0;
	if (variant == 1) {
		*frame = 5;
		s->motion_speed = 3;
		s->hflip = true;
		s->vflip = true;
		set_text(s, tfont);
	} else if (variant == 2) {
		*frame = 2;
		s->motion_speed = 1;
		s->brightness = 150;
		s->contrast = 110;
		s->saturation = 90;
		s->hue = 20;
		s->hflip = true;
	} else if (variant == 3) {
		*frame = 1234567;
		s->motion_speed = 4000000000u;
		s->brightness = 255;
		s->contrast = 255;
		s->saturation = 255;
		s->hue = -180;
		s->vflip = true;
		set_text(s, tfont);
	}
}

/*
 * One fill each into buffers pre-filled with two different canaries: the
 * padding keeps its canary, and the written bytes agree, so every byte of
 * every line is written and none is read.
 */
static void bounds_one(const struct tfmt *tf, u32 w, u32 h, u32 extra,
		       u32 p, int v)
{
	struct vivi_gen_settings s;
	struct tbuf b, c;
	u32 frame;

	variant_settings(&s, p, v, &frame);
	tbuf_alloc(&b, tf, w, h, extra);
	tbuf_alloc(&c, tf, w, h, extra);
	tbuf_fill(&b, 0xa5);
	tbuf_fill(&c, 0x5a);
	if (tgen(&b, &s, frame) || tgen(&c, &s, frame))
		tfail("%ux%u %s v%d: fill failed", w, h, pat_short[p], v);
	if (tbuf_padding_damage(&b, 0xa5) || tbuf_padding_damage(&c, 0x5a))
		tfail("%ux%u %s v%d: padding written", w, h, pat_short[p], v);
	if (!tbuf_equal(&b, &c))
		tfail("%ux%u %s v%d: bytes left unwritten", w, h,
		      pat_short[p], v);
	tbuf_free(&b);
	tbuf_free(&c);
}

static void test_bounds(void)
{
	static const u32 sizes[][2] = {
		{ 1, 1 }, { 2, 2 }, { 3, 5 }, { 16, 9 }, { 160, 120 },
		{ 161, 121 }, { 7, 1 }, { 1, 7 }, { 33, 50 }, { 25, 34 },
	};
	unsigned int i, z, p;
	int v;

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (p = 0; p < VIVI_PAT_COUNT; p++)
				for (v = 0; v < 4; v++)
					bounds_one(&tfmts[i], sizes[z][0],
						   sizes[z][1], 1 + (z & 3) * 3,
						   p, v);
		tdone("bounds/%s", tfmts[i].name);
	}
}

/* ---- all formats show the same picture ------------------------------ */

/* Rounded average of the chroma of the pixels a sample covers */
static int chroma_expect(const struct tfmt *tf, const struct dpx *ref,
			 u32 w, u32 h, u32 x, u32 y, int comp)
{
	u32 x0 = x & ~1u, y0 = tf->vsub == 2 ? y & ~1u : y;
	u32 x1 = x0 + 1 < w ? x0 + 1 : x0;
	u32 y1 = tf->vsub == 2 && y0 + 1 < h ? y0 + 1 : y0;
	int sum = 0, n = 0, rgb[3], ycc[3];
	u32 xx, yy;

	for (yy = y0; yy <= y1; yy++)
		for (xx = x0; xx <= x1; xx++) {
			rgb_of(ref, w, xx, yy, rgb);
			tycc(rgb, ycc);
			sum += ycc[comp];
			n++;
		}
	return (int)floor((double)sum / n + 0.5);
}

static int block_uniform(const struct tfmt *tf, const struct dpx *ref,
			 u32 w, u32 h, u32 x, u32 y)
{
	u32 x0 = x & ~1u, y0 = tf->vsub == 2 ? y & ~1u : y;
	u32 x1 = x0 + 1 < w ? x0 + 1 : x0;
	u32 y1 = tf->vsub == 2 && y0 + 1 < h ? y0 + 1 : y0;
	u32 xx, yy;

	for (yy = y0; yy <= y1; yy++)
		for (xx = x0; xx <= x1; xx++)
			if (!dpx_same(&ref[(size_t)yy * w + xx],
				      &ref[(size_t)y * w + x]))
				return 0;
	return 1;
}

/* One pixel of a Y'CbCr frame against the RGB24 frame @ref: 0 if right */
static int compare_yuv(const struct tfmt *tf, const struct dpx *ref,
		       const struct dpx *p, u32 w, u32 h, u32 x, u32 y,
		       int exact, const char *pat)
{
	int rgb[3], ycc[3], c, want;
	double got[3];

	rgb_of(ref, w, x, y, rgb);
	if (exact) {
		tycc(rgb, ycc);
		if (p->c[0] != ycc[0]) {
			tfail("%s %ux%u (%u,%u): Y' %d want %d", pat, w, h, x,
			      y, p->c[0], ycc[0]);
			return 1;
		}
		for (c = 1; c < 3; c++) {
			want = chroma_expect(tf, ref, w, h, x, y, c);
			if (p->c[c] >= 0 && p->c[c] != want) {
				tfail("%s %ux%u (%u,%u): chroma %d: %d want %d",
				      pat, w, h, x, y, c, p->c[c], want);
				return 1;
			}
		}
	}
	/* the round trip to R'G'B', where chroma is not averaged */
	if (p->c[1] < 0 || p->c[2] < 0 ||
	    !block_uniform(tf, ref, w, h, x, y))
		return 0;
	tto_rgb(tf, p, got);
	for (c = 0; c < 3; c++)
		if (fabs(got[c] - rgb[c]) > 3.0) {
			tfail("%s %ux%u (%u,%u): R'G'B' %.1f,%.1f,%.1f vs RGB24 %d,%d,%d",
			      pat, w, h, x, y, got[0], got[1], got[2], rgb[0],
			      rgb[1], rgb[2]);
			return 1;
		}
	return 0;
}

/*
 * The frame in @tf decodes to the RGB24 frame of the same settings: exactly
 * for the R'G'B', luma and Bayer formats (same palette), exactly in Y'CbCr
 * with the controls at their defaults (@exact), within 3 after a round
 * trip to R'G'B' otherwise.
 */
static void compare_picture(const struct tfmt *tf, u32 w, u32 h,
			    const struct vivi_gen_settings *s, u32 frame,
			    int exact)
{
	struct dpx *ref = gen_decode(RGB24, w, h, s, frame, NULL);
	struct dpx *d = gen_decode(tf, w, h, s, frame, NULL);
	const char *pat = pat_short[s->pattern];
	int rgb[3], bad = 0;
	struct dpx e;
	u32 x, y;

	for (y = 0; y < h && bad < 3; y++)
		for (x = 0; x < w && bad < 3; x++) {
			const struct dpx *p = &d[(size_t)y * w + x];

			if (tfmt_is_yuv(tf)) {
				bad += compare_yuv(tf, ref, p, w, h, x, y,
						   exact, pat);
				continue;
			}
			rgb_of(ref, w, x, y, rgb);
			texpect(tf, x, y, rgb, &e);
			if (tdpx_match(p, &e))
				continue;
			tfail("%s %ux%u (%u,%u): %d,%d,%d want %d,%d,%d", pat,
			      w, h, x, y, p->c[0], p->c[1], p->c[2], e.c[0],
			      e.c[1], e.c[2]);
			bad++;
		}
	free(ref);
	free(d);
}

static void test_same_picture(void)
{
	static const u32 sizes[][2] = { { 160, 120 }, { 161, 121 } };
	struct vivi_gen_settings s;
	unsigned int i, z, p;
	u32 frame;
	int v;

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		if (tf == RGB24)
			continue;
		for (z = 0; z < 2; z++)
			for (p = 0; p < VIVI_PAT_COUNT; p++)
				for (v = 0; v < 4; v++) {
					variant_settings(&s, p, v, &frame);
					compare_picture(tf, sizes[z][0],
							sizes[z][1], &s, frame,
							v < 2);
				}
		tdone("same_picture/%s", tf->name);
	}
}

/* ---- golden checksums ----------------------------------------------- */

static const char *const golden_variant[3] = { "plain", "text", "flipctl" };

static void golden_settings(struct vivi_gen_settings *s, u32 p, int v)
{
	tset_default(s, p);
	s->motion_speed = 3;
	if (v >= 1)
		set_text(s, tfont);
	if (v == 2) {
		s->hflip = true;
		s->vflip = true;
		s->brightness = 140;
		s->contrast = 100;
		s->saturation = 160;
		s->hue = 30;
	}
}

static u64 golden_hash(const struct tfmt *tf, u32 p, int v)
{
	struct vivi_gen_settings s;
	struct tbuf b;
	u64 hsh;

	golden_settings(&s, p, v);
	tbuf_alloc(&b, tf, 64, 48, 3);
	tbuf_fill(&b, 0xa5);
	if (tgen(&b, &s, 5))
		tfail("fill failed");
	hsh = tbuf_hash(&b);
	tbuf_free(&b);
	return hsh;
}

static int write_golden(const char *path)
{
	FILE *f = fopen(path, "w");
	int i, v;
	u32 p;

	if (!f) {
		perror(path);
		return 1;
	}
	fputs("# vivi_gen golden checksums: 64x48, frame 5, motion_speed 3\n"
	      "# FNV-1a 64 of each plane's written bytes; regenerate with\n"
	      "# 'make -C tests/unit golden' after reviewing the pictures\n",
	      f);
	for (i = 0; i < ntfmts; i++)
		for (p = 0; p < VIVI_PAT_COUNT; p++)
			for (v = 0; v < 3; v++) {
				u64 hsh = golden_hash(&tfmts[i], p, v);

				fprintf(f, "%s %s %s %016llx\n", tfmts[i].name,
					pat_short[p], golden_variant[v],
					(unsigned long long)hsh);
			}
	return fclose(f) ? 1 : 0;
}

static void test_golden(const char *path)
{
	char fmt[32], pat[32], var[32], line[256];
	unsigned long long want;
	int i, v, seen[64][VIVI_PAT_COUNT][3];
	FILE *f = fopen(path, "r");
	u32 p;

	memset(seen, 0, sizeof(seen));
	if (!f) {
		tfail("cannot open %s", path);
		tdone("golden/load");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		const struct tfmt *tf;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%31s %31s %31s %llx", fmt, pat, var,
			   &want) != 4)
			continue;
		tf = tfmt_find(fmt);
		for (p = 0; p < VIVI_PAT_COUNT; p++)
			if (!strcmp(pat, pat_short[p]))
				break;
		for (v = 0; v < 3; v++)
			if (!strcmp(var, golden_variant[v]))
				break;
		if (!tf || p == VIVI_PAT_COUNT || v == 3)
			continue;
		i = tf - tfmts;
		seen[i][p][v] = 1;
		if (golden_hash(tf, p, v) != want)
			seen[i][p][v] = 2;
	}
	fclose(f);
	tdone("golden/load");
	for (i = 0; i < ntfmts; i++) {
		for (p = 0; p < VIVI_PAT_COUNT; p++)
			for (v = 0; v < 3; v++)
				if (seen[i][p][v] != 1)
					tfail("%s %s: %s", pat_short[p],
					      golden_variant[v], seen[i][p][v] ?
					      "checksum differs" : "missing");
		tdone("golden/%s", tfmts[i].name);
	}
}

/* ---- flips ---------------------------------------------------------- */

/*
 * Frame @b, drawn with flips @fl (1 = h, 2 = v), must be the unflipped
 * frame @a reflected; for Bayer, the mosaic of the reflected RGB24 frame
 * @ra, since the CFA order does not flip.
 */
static void flip_check(const struct tfmt *tf, u32 w, u32 h, u32 p, int fl,
		       const struct dpx *a, const struct dpx *ra,
		       const struct dpx *b)
{
	u32 x, y, mx, my;
	struct dpx e;
	int rgb[3];

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			mx = fl & 1 ? w - 1 - x : x;
			my = fl & 2 ? h - 1 - y : y;
			if (tf->kind == TK_BAYER) {
				rgb_of(ra, w, mx, my, rgb);
				texpect(tf, x, y, rgb, &e);
			} else {
				e = a[my * w + mx];
			}
			if (tdpx_match(&b[y * w + x], &e))
				continue;
			tfail("%s %ux%u %s%s (%u,%u) is not the mirror",
			      pat_short[p], w, h, fl & 1 ? "h" : "",
			      fl & 2 ? "v" : "", x, y);
			return;
		}
}

static void test_flips(void)
{
	static const u32 sizes[][2] = { { 64, 48 }, { 63, 47 } };
	struct vivi_gen_settings s;
	struct dpx *a, *ra, *b;
	unsigned int i, z, p;
	u32 w, h;
	int fl;

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			w = sizes[z][0];
			h = sizes[z][1];
			/* odd sizes change the chroma pairing when mirrored */
			if (z && tfmt_is_yuv(tf))
				continue;
			for (p = 0; p < VIVI_PAT_COUNT; p++) {
				tset_default(&s, p);
				s.motion_speed = 3;
				a = gen_decode(tf, w, h, &s, 5, NULL);
				ra = gen_decode(RGB24, w, h, &s, 5, NULL);
				for (fl = 1; fl < 4; fl++) {
					s.hflip = fl & 1;
					s.vflip = fl & 2;
					b = gen_decode(tf, w, h, &s, 5, NULL);
					flip_check(tf, w, h, p, fl, a, ra, b);
					free(b);
				}
				free(a);
				free(ra);
			}
		}
		tdone("flip/%s", tf->name);
	}
}

static void test_flip_bars(void)
{
	struct vivi_gen_settings s;
	struct dpx *d;
	const u32 w = 64, h = 8;
	u32 y;

	tset_default(&s, VIVI_PAT_BARS75);
	s.hflip = true;
	d = gen_decode(RGB24, w, h, &s, 0, NULL);
	for (y = 0; y < h; y++) {
		const struct dpx *l = &d[y * w], *r = &d[y * w + w - 1];

		if (l->c[0] || l->c[1] || l->c[2])
			tfail("row %u starts with %d,%d,%d, not black", y,
			      l->c[0], l->c[1], l->c[2]);
		if (r->c[0] != 191 || r->c[1] != 191 || r->c[2] != 191)
			tfail("row %u ends with %d,%d,%d, not white", y,
			      r->c[0], r->c[1], r->c[2]);
	}
	free(d);
	tdone("flip/bars_hflip_black_left");
}

/* ---- controls ------------------------------------------------------- */

static double mean_c0(const struct dpx *d, u32 n)
{
	double sum = 0;
	u32 i;

	for (i = 0; i < n; i++)
		sum += d[i].c[0];
	return sum / n;
}

static void test_controls(void)
{
	const struct tfmt *yuyv = tfmt_find("YUYV"), *grey = tfmt_find("GREY");
	const u32 w = 160, h = 120;
	struct vivi_gen_settings s;
	struct dpx *a, *b;
	double m0, m1;
	int i, n, bar, c;
	u32 k;

	tset_default(&s, VIVI_PAT_BARS75);
	a = gen_decode(yuyv, w, h, &s, 0, NULL);
	m0 = mean_c0(a, w * h);
	free(a);
	for (n = -20; n <= 20; n += 40) {
		s.brightness = 128 + n;
		a = gen_decode(yuyv, w, h, &s, 0, NULL);
		m1 = mean_c0(a, w * h);
		if (fabs(m1 - m0 - n) > 0.5)
			tfail("YUYV brightness %+d moved mean Y' by %.2f", n,
			      m1 - m0);
		free(a);
	}
	s.brightness = 128;
	a = gen_decode(grey, w, h, &s, 0, NULL);
	m0 = mean_c0(a, w * h);
	free(a);
	s.brightness = 148;
	a = gen_decode(grey, w, h, &s, 0, NULL);
	m1 = mean_c0(a, w * h);
	if (fabs(m1 - m0 - 20 * 255.0 / 219) > 1.0)
		tfail("GREY brightness +20 moved mean luma by %.2f", m1 - m0);
	free(a);
	tdone("controls/brightness");

	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		if (!tfmt_is_yuv(tf))
			continue;
		for (k = VIVI_PAT_BARS75; k < VIVI_PAT_COUNT; k++) {
			tset_default(&s, k);
			s.contrast = 0;
			a = gen_decode(tf, w, h, &s, 0, NULL);
			for (n = 0; n < (int)(w * h); n++)
				if (a[n].c[0] != 16) {
					tfail("%s %s contrast 0: Y' %d",
					      tf->name,
					      pat_short[k], a[n].c[0]);
					break;
				}
			free(a);
		}
	}
	tdone("controls/contrast_zero_flat_luma");

	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		if (tf->kind == TK_BAYER || tf->kind == TK_LUMA)
			continue;
		tset_default(&s, VIVI_PAT_BARS100);
		s.saturation = 0;
		s.hue = 77;
		a = gen_decode(tf, w, h, &s, 0, NULL);
		for (n = 0; n < (int)(w * h); n++) {
			double rgb[3];

			if (tfmt_is_yuv(tf)) {
				if ((a[n].c[1] >= 0 && a[n].c[1] != 128) ||
				    (a[n].c[2] >= 0 && a[n].c[2] != 128)) {
					tfail("%s chroma %d,%d", tf->name,
					      a[n].c[1], a[n].c[2]);
					break;
				}
				continue;
			}
			tto_rgb(tf, &a[n], rgb);
			if (fabs(rgb[0] - rgb[1]) > 6.2 ||
			    fabs(rgb[0] - rgb[2]) > 6.2 ||
			    (tf->layout[1] != '5' && tf->layout[0] != '5' &&
			     (rgb[0] != rgb[1] || rgb[1] != rgb[2]))) {
				tfail("%s not gray: %.1f,%.1f,%.1f", tf->name,
				      rgb[0], rgb[1], rgb[2]);
				break;
			}
		}
		free(a);
	}
	tdone("controls/saturation_zero_gray");

	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		if (!tfmt_is_yuv(tf))
			continue;
		tset_default(&s, VIVI_PAT_BARS75);
		a = gen_decode(tf, w, h, &s, 0, NULL);
		for (n = -180; n <= 180; n += 360) {
			s.hue = n;
			b = gen_decode(tf, w, h, &s, 0, NULL);
			for (bar = 0; bar < 8; bar++) {
				size_t o = (size_t)(h / 2) * w +
					   (2 * bar + 1) * w / 16;

				if (a[o].c[0] != b[o].c[0])
					tfail("%s hue %d changed Y'", tf->name,
					      n);
				for (c = 1; c < 3; c++)
					if (a[o].c[c] + b[o].c[c] != 256)
						tfail("%s hue %d bar %d: chroma %d -> %d",
						      tf->name, n, bar,
						      a[o].c[c], b[o].c[c]);
			}
			free(b);
		}
		free(a);
	}
	tdone("controls/hue_180_inverts_chroma");

	/* out-of-range values behave as the nearest valid one */
	for (i = 0; i < ntfmts; i++) {
		struct vivi_gen_settings t;
		u64 h1, h2;

		tset_default(&s, VIVI_PAT_BARS75);
		s.brightness = 1000;
		s.contrast = -5;
		s.saturation = 999;
		s.hue = 400;
		tset_default(&t, VIVI_PAT_BARS75);
		t.brightness = 255;
		t.contrast = 0;
		t.saturation = 255;
		t.hue = 180;
		free(gen_decode(&tfmts[i], 32, 8, &s, 0, &h1));
		free(gen_decode(&tfmts[i], 32, 8, &t, 0, &h2));
		if (h1 != h2)
			tfail("%s: out-of-range controls not clamped",
			      tfmts[i].name);
	}
	tdone("controls/clamped");

	/* an adjusted gray ramp stays monotonic and gray */
	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		if (tf->kind != TK_RGB && tf->kind != TK_LUMA &&
		    !tfmt_is_yuv(tf))
			continue;
		tset_default(&s, VIVI_PAT_HRAMP);
		s.brightness = 100;
		s.contrast = 200;
		s.hue = 45;
		a = gen_decode(tf, 256, 2, &s, 0, NULL);
		for (n = 1; n < 256; n++)
			if (a[n].c[0] < a[n - 1].c[0])
				tfail("%s ramp not monotonic at %d", tf->name,
				      n);
		free(a);
	}
	tdone("controls/ramp_monotonic");
}

/* ---- noise ---------------------------------------------------------- */

static void test_noise(void)
{
	const struct tfmt *grey = tfmt_find("GREY");
	struct vivi_gen_settings s;
	u64 h1, h2, h3;
	int i, n, hist[256], mn, mx;
	struct dpx *d;
	double m;

	tset_default(&s, VIVI_PAT_NOISE);
	for (i = 0; i < ntfmts; i++) {
		free(gen_decode(&tfmts[i], 64, 48, &s, 7, &h1));
		free(gen_decode(&tfmts[i], 64, 48, &s, 7, &h2));
		free(gen_decode(&tfmts[i], 64, 48, &s, 8, &h3));
		if (h1 != h2)
			tfail("%s: frame 7 twice differs", tfmts[i].name);
		if (h1 == h3)
			tfail("%s: frames 7 and 8 equal", tfmts[i].name);
	}
	tdone("noise/deterministic_per_frame");

	d = gen_decode(grey, 640, 480, &s, 3, NULL);
	memset(hist, 0, sizeof(hist));
	for (n = 0; n < 640 * 480; n++)
		hist[d[n].c[0]]++;
	m = mean_c0(d, 640 * 480);
	mn = mx = hist[0];
	for (n = 0; n < 256; n++) {
		mn = hist[n] < mn ? hist[n] : mn;
		mx = hist[n] > mx ? hist[n] : mx;
	}
	/* 1200 expected per level */
	if (fabs(m - 127.5) > 2 || mn < 1000 || mx > 1400)
		tfail("mean %.2f, level counts %d..%d", m, mn, mx);
	for (n = 0; n + 640 < 640 * 480; n += 640)
		if (!memcmp(&d[n], &d[n + 640], 640 * sizeof(*d)))
			tfail("rows %d and %d equal", n / 640, n / 640 + 1);
	free(d);
	tdone("noise/uniform_rows_differ");
}

/* ---- motion --------------------------------------------------------- */

/* bounding box of 100% white pixels */
static int find_box(const struct dpx *d, u32 w, u32 h, u32 *bx, u32 *by,
		    u32 *side)
{
	u32 x, y, x0 = w, y0 = h, x1 = 0, y1 = 0;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			if (d[y * w + x].c[0] == 255 &&
			    d[y * w + x].c[1] == 255 &&
			    d[y * w + x].c[2] == 255) {
				x0 = x < x0 ? x : x0;
				y0 = y < y0 ? y : y0;
				x1 = x > x1 ? x : x1;
				y1 = y > y1 ? y : y1;
			}
	if (x0 > x1 || x1 - x0 != y1 - y0)
		return 0;
	*bx = x0;
	*by = y0;
	*side = x1 - x0 + 1;
	return 1;
}

/* the documented triangle wave, in plain arithmetic */
static u32 tri(unsigned long long t, u32 range)
{
	unsigned long long u;

	if (!range)
		return 0;
	u = (t + range / 2) % (2ull * range);
	return u <= range ? (u32)u : (u32)(2ull * range - u);
}

static void test_motion(void)
{
	static const u32 still[] = {
		VIVI_PAT_BARS75, VIVI_PAT_BARS100, VIVI_PAT_BARS_BOX,
	};
	static const u32 frames[] = { 0, 1, 2, 5, 30, 97, 1000, 123457 };
	struct vivi_gen_settings s;
	u32 w, h, bx, by, side, x, y, f, k;
	struct dpx *a, *b;
	u64 h1, h2;
	int i;

	for (i = 0; i < ntfmts; i++)
		for (k = 0; k < 3; k++) {
			tset_default(&s, still[k]);
			free(gen_decode(&tfmts[i], 48, 32, &s, 0, &h1));
			free(gen_decode(&tfmts[i], 48, 32, &s, 777, &h2));
			if (h1 != h2)
				tfail("%s %s moves at speed 0", tfmts[i].name,
				      pat_short[still[k]]);
		}
	w = 160;
	h = 120;
	tset_default(&s, VIVI_PAT_BARS_BOX);
	a = gen_decode(RGB24, w, h, &s, 99, NULL);
	if (!find_box(a, w, h, &bx, &by, &side) || side != 15 ||
	    bx != (w - side) / 2 || by != (h - side) / 2)
		tfail("still box not at the documented place");
	free(a);
	tdone("motion/still_at_speed_0");

	for (w = 160; w <= 161; w++) {
		tset_default(&s, VIVI_PAT_BARS75);
		s.motion_speed = 3;
		a = gen_decode(RGB24, w, 4, &s, 0, NULL);
		for (k = 0; k < ARRAY_SIZE(frames); k++) {
			u32 shift = 3ull * frames[k] % w;

			b = gen_decode(RGB24, w, 4, &s, frames[k], NULL);
			for (y = 0; y < 4; y++)
				for (x = 0; x < w; x++) {
					const struct dpx *was;

					was = &a[y * w + (x + shift) % w];
					if (!dpx_same(&b[y * w + x], was))
						tfail("width %u frame %u: not scrolled by %u",
						      w, frames[k], shift);
				}
			free(b);
		}
		free(a);
	}
	tdone("motion/bars_scroll");

	for (k = 1; k <= 7; k += 6) {
		w = 160;
		h = 120;
		tset_default(&s, VIVI_PAT_BARS_BOX);
		s.motion_speed = k;
		for (i = 0; i < (int)ARRAY_SIZE(frames); i++) {
			f = frames[i];
			a = gen_decode(RGB24, w, h, &s, f, NULL);
			if (!find_box(a, w, h, &bx, &by, &side) ||
			    bx != tri((unsigned long long)f * k, w - 15) ||
			    by != tri((unsigned long long)f * k, h - 15))
				tfail("speed %u frame %u: box at %u,%u", k, f,
				      bx, by);
			free(a);
		}
		/* N px per frame while no edge is hit */
		a = gen_decode(RGB24, w, h, &s, 2, NULL);
		b = gen_decode(RGB24, w, h, &s, 3, NULL);
		find_box(a, w, h, &bx, &by, &side);
		find_box(b, w, h, &x, &y, &side);
		if (x - bx != k || y - by != k)
			tfail("speed %u: box moved %d,%d", k, (int)(x - bx),
			      (int)(y - by));
		free(a);
		free(b);
	}
	tdone("motion/box_bounces");
}

/* ---- text ----------------------------------------------------------- */

/* 1 if (x, y) is in a drawn glyph cell (then *bit is the glyph bit) */
static int text_cell(const struct vivi_gen_settings *s, u32 w, u32 h, u32 x,
		     u32 y, int *bit)
{
	u32 i, k, n, nfit = w >= 24 ? (w - 16) / 8 : 0;

	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++) {
		u32 y0 = 16 + 18 * i;

		if (!s->text[i] || y0 + 16 > h || y < y0 || y >= y0 + 16)
			continue;
		n = strlen(s->text[i]);
		n = n < nfit ? n : nfit;
		if (x < 16 || x >= 16 + 8 * n)
			continue;
		k = (x - 16) / 8;
		*bit = (s->font[(u8)s->text[i][k] * 16 + y - y0] >>
			(7 - (x - 16) % 8)) & 1;
		return 1;
	}
	return 0;
}

static void check_text(const struct tfmt *tf, u32 w, u32 h,
		       const struct vivi_gen_settings *s, u32 frame)
{
	static const int white[3] = { 255, 255, 255 }, black[3];
	struct vivi_gen_settings n = *s;
	struct dpx *t, *d, e;
	int bit, bad = 0;
	u32 x, y;
	u64 h1, h2;

	n.font = NULL;
	t = gen_decode(tf, w, h, s, frame, NULL);
	d = gen_decode(tf, w, h, &n, frame, &h1);
	memset(n.text, 0, sizeof(n.text));
	free(gen_decode(tf, w, h, &n, frame, &h2));
	if (h1 != h2)
		tfail("%ux%u: NULL font still drew", w, h);
	for (y = 0; y < h && bad < 3; y++)
		for (x = 0; x < w && bad < 3; x++) {
			const struct dpx *got = &t[y * w + x];

			if (!text_cell(s, w, h, x, y, &bit)) {
				if (!dpx_same(got, &d[y * w + x])) {
					tfail("%ux%u (%u,%u) outside text changed",
					      w, h, x, y);
					bad++;
				}
				continue;
			}
			texpect(tf, x, y, bit ? white : black, &e);
			if (!tdpx_match(got, &e)) {
				tfail("%ux%u glyph pixel (%u,%u): %d,%d,%d want %d,%d,%d",
				      w, h, x, y, got->c[0], got->c[1],
				      got->c[2], e.c[0], e.c[1], e.c[2]);
				bad++;
			}
		}
	free(t);
	free(d);
}

static void test_text(void)
{
	static const char *const clip[VIVI_GEN_TEXT_LINES] = {
		"ABCDEFGH", "XYZ", NULL, "W",
	};
	static const u32 sizes[][2] = {
		{ 160, 120 }, { 43, 49 }, { 40, 32 }, { 23, 100 }, { 20, 20 },
		{ 100, 87 }, { 100, 86 },
	};
	struct vivi_gen_settings s;
	unsigned int i, z, p;

	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (p = 0; p < VIVI_PAT_COUNT; p += 3) {
				tset_default(&s, p);
				set_text(&s, tfont);
				if (z & 1)
					memcpy(s.text, clip, sizeof(clip));
				/* neither mirrored nor adjusted */
				s.hflip = z & 1;
				s.vflip = z < 3;
				s.motion_speed = 2;
				s.brightness = 200;
				s.saturation = 30;
				s.hue = -90;
				check_text(tf, sizes[z][0], sizes[z][1], &s, 3);
			}
		tdone("text/%s", tf->name);
	}
}

/* ---- reuse of the scratch area ------------------------------------ */

/*
 * Frame @frame drawn into a scratch area that earlier calls used, against
 * the same frame from a fresh one: what the generator keeps there between
 * calls must never show.
 */
static void check_reuse(const struct tfmt *tf, u32 w, u32 h,
			const struct vivi_gen_settings *s, u32 frame,
			u8 *scratch)
{
	struct vivi_gen_frame f;
	struct tbuf a, b;
	int ret;

	/*
	 * odd frames: lines back to back, which are copied several at once,
	 * against padded ones, which are copied one by one
	 */
	tbuf_alloc(&a, tf, w, h, frame & 1 ? 0 : 3);
	tbuf_alloc(&b, tf, w, h, 3);
	tbuf_fill(&a, 0x5a);
	tbuf_fill(&b, 0x5a);
	tbuf_frame(&a, &f);
	ret = vivi_gen_fill(&f, s, frame, scratch);
	if (ret || tgen(&b, s, frame))
		tfail("%s %ux%u: fill returned %d", tf->name, w, h, ret);
	else if (!tbuf_equal(&a, &b))
		tfail("%s %ux%u pattern %u frame %u: reused scratch draws another picture",
		      tf->name, w, h, s->pattern, frame);
	tbuf_free(&a);
	tbuf_free(&b);
}

static void test_reuse(void)
{
	static const u32 sizes[][2] = { { 64, 48 }, { 37, 29 }, { 160, 120 } };
	static const u32 frames[] = { 0, 0, 1, 1, 6, 6 };
	static const char *const other[VIVI_GEN_TEXT_LINES] = {
		"012", "Hi!", NULL, "zz",
	};
	size_t n = vivi_gen_scratch_size(160);
	u8 *scratch = malloc(n);
	struct vivi_gen_settings s;
	unsigned int i, z, p, k;

	if (!scratch) {
		perror("malloc");
		exit(2);
	}
	/* a scratch area starts with any contents */
	memset(scratch, 0xff, n);
	for (i = 0; i < (unsigned int)ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		for (z = 0; z < ARRAY_SIZE(sizes); z++)
			for (p = 0; p < VIVI_PAT_COUNT; p++)
				for (k = 0; k < ARRAY_SIZE(frames); k++) {
					tset_default(&s, p);
					s.motion_speed = z;
					s.hflip = p & 1;
					s.vflip = k & 2;
					if (k >= 2)
						set_text(&s, tfont);
					if (k >= 4)
						memcpy(s.text, other,
						       sizeof(other));
					if (k == 5)
						s.brightness = 90;
					check_reuse(tf, sizes[z][0],
						    sizes[z][1], &s, frames[k],
						    scratch);
				}
		tdone("reuse/%s", tf->name);
	}
	/* the format changes on every call, the rest stays */
	for (p = 0; p < VIVI_PAT_COUNT; p++) {
		for (i = 0; i < 2 * (unsigned int)ntfmts; i++) {
			tset_default(&s, p);
			set_text(&s, tfont);
			check_reuse(&tfmts[i / 2], 64, 48, &s, 2, scratch);
		}
	}
	tdone("reuse/format changes");
	free(scratch);
}

/* ---- large frames --------------------------------------------------- */

static void test_large(void)
{
	static const char *const names[] = {
		"YUYV", "NV12", "YUV420", "XRGB32", "SRGGB8", "RGB565",
	};
	const u32 w = 3840, h = 2160;
	struct vivi_gen_settings s;
	unsigned int i, bar;
	char what[32];
	int rgb[3];

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct tfmt *tf = tfmt_find(names[i]);
		struct dpx *d;

		tset_default(&s, VIVI_PAT_BARS75);
		set_text(&s, tfont);
		d = gen_decode(tf, w, h, &s, 0, NULL);
		for (bar = 0; bar < 8; bar++) {
			u32 x = (2 * bar + 1) * w / 16;

			tpattern_rgb(VIVI_PAT_BARS75, w, h, x, h - 2, rgb);
			snprintf(what, sizeof(what), "bar %u", bar);
			check_block(tf, d, w, x, h - 2, rgb, what);
		}
		free(d);
		tset_default(&s, VIVI_PAT_NOISE);
		s.hflip = true;
		free(gen_decode(tf, w, h, &s, 1, NULL));
		tset_default(&s, VIVI_PAT_VRAMP);
		s.vflip = true;
		free(gen_decode(tf, w, h, &s, 1, NULL));
		tdone("large/3840x2160/%s", tf->name);
	}
}

/* ---- pictures for review -------------------------------------------- */

/* One picture as PPM: Y'CbCr decoded to R'G'B', Bayer sites in color */
static int dump_one(const char *dir, const struct tfmt *tf, u32 w, u32 h,
		    u32 p, int v)
{
	struct vivi_gen_settings s;
	struct dpx *d;
	char path[512];
	double rgb[3];
	u32 x, y;
	FILE *f;
	int c;

	golden_settings(&s, p, v);
	d = gen_decode(tf, w, h, &s, 5, NULL);
	snprintf(path, sizeof(path), "%s/%u_%s_%s_%s.ppm", dir, w,
		 pat_short[p], golden_variant[v], tf->name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		free(d);
		return 1;
	}
	fprintf(f, "P6\n%u %u\n255\n", w, h);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			const struct dpx *px = &d[y * w + x];

			tto_rgb(tf, px, rgb);
			if (tf->kind == TK_BAYER) {
				c = tbayer_ch(tf, x, y);
				rgb[0] = rgb[1] = rgb[2] = 0;
				rgb[c] = px->c[c];
			}
			for (c = 0; c < 3; c++)
				fputc((int)(rgb[c] + 0.5), f);
		}
	fclose(f);
	free(d);
	return 0;
}

static int dump(const char *dir)
{
	static const char *const names[] = {
		"RGB24", "YUYV", "NV12", "YUV420", "RGB565", "GREY", "SBGGR8",
	};
	static const u32 sizes[][2] = { { 64, 48 }, { 320, 240 } };
	unsigned int i, p, z;
	int v;

	for (z = 0; z < ARRAY_SIZE(sizes); z++)
		for (i = 0; i < ARRAY_SIZE(names); i++)
			for (p = 0; p < VIVI_PAT_COUNT; p++)
				for (v = 0; v < 3; v++)
					if (dump_one(dir, tfmt_find(names[i]),
						     sizes[z][0], sizes[z][1],
						     p, v))
						return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *golden = "golden.txt";

	make_font();
	RGB24 = tfmt_find("RGB24");
	if (argc == 3 && !strcmp(argv[1], "--write-golden"))
		return write_golden(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--golden"))
		golden = argv[2];

	test_api();
	test_errors();
	test_exact();
	test_geometry();
	test_bounds();
	test_same_picture();
	test_golden(golden);
	test_flips();
	test_flip_bars();
	test_controls();
	test_noise();
	test_motion();
	test_text();
	test_reuse();
	test_large();
	return n_failed ? 1 : 0;
}
