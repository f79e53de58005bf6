// SPDX-License-Identifier: GPL-2.0
/*
 * test_band.c - band drawing of the vivi pattern generator: a band of
 * lines [y0, y0 + n) drawn on its own is byte for byte the same as those
 * lines of the whole frame, for every format, pattern and flip, with text,
 * controls, motion and the frame stamp; it writes nothing outside its
 * lines; bad bands are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>

#include "tfmt.h"
#include "tutil.h"

static u8 tfont[256 * 16];
static const char *const text_lines[VIVI_GEN_TEXT_LINES] = {
	"Band 1", "x", NULL, "0123456789",
};

/* The plane lines [*r0, *r1) covering frame lines [y0, y1) */
static void plane_rows(const struct tbuf *b, int p, u32 y0, u32 y1, u32 *r0,
		       u32 *r1)
{
	int sub = b->rows[p] != b->h;

	*r0 = sub ? y0 / 2 : y0;
	*r1 = sub ? (y1 + 1) / 2 : y1;
}

/*
 * Draw lines [y0, y0 + n) into a buffer of exactly those plane lines, with
 * a canary around and between them, and compare with the full frame @full.
 */
static void band_one(const struct tbuf *full, const struct vivi_gen_settings *s,
		     u32 frame, u32 y0, u32 n, void *scratch)
{
	const u32 pad = 3;
	struct vivi_gen_frame f;
	u32 r0[3], r1[3], r, x;
	u8 *buf[3];
	int p, ret;

	memset(&f, 0, sizeof(f));
	f.fourcc = full->tf->fourcc;
	f.width = full->w;
	f.height = full->h;
	f.band_y0 = y0;
	f.band_lines = n;
	for (p = 0; p < full->np; p++) {
		plane_rows(full, p, y0, y0 + n, &r0[p], &r1[p]);
		f.stride[p] = full->lb[p] + pad;
		/* one canary line before and after */
		buf[p] = malloc((size_t)f.stride[p] * (r1[p] - r0[p] + 2));
		memset(buf[p], 0x5a, (size_t)f.stride[p] * (r1[p] - r0[p] + 2));
		f.plane[p] = buf[p] + f.stride[p];
	}
	ret = vivi_gen_fill(&f, s, frame, scratch);
	if (ret)
		tu_fail("%s %ux%u band %u+%u: %d", full->tf->name, full->w,
		      full->h, y0, n, ret);
	for (p = 0; p < full->np && !ret; p++) {
		u8 *l = buf[p];

		for (x = 0; x < f.stride[p]; x++)
			if (l[x] != 0x5a ||
			    l[(r1[p] - r0[p] + 1) * f.stride[p] + x] != 0x5a)
				tu_fail("%s band %u+%u plane %d: written outside",
				      full->tf->name, y0, n, p);
		for (r = r0[p]; r < r1[p]; r++) {
			l = f.plane[p] + (size_t)(r - r0[p]) * f.stride[p];
			if (memcmp(l, full->plane[p] + (size_t)r *
				   full->stride[p], full->lb[p]))
				tu_fail("%s %ux%u pattern %u band %u+%u plane %d line %u differs",
				      full->tf->name, full->w, full->h,
				      s->pattern, y0, n, p, r);
			for (x = full->lb[p]; x < f.stride[p]; x++)
				if (l[x] != 0x5a)
					tu_fail("%s band %u+%u: padding written",
					      full->tf->name, y0, n);
		}
	}
	for (p = 0; p < full->np; p++)
		free(buf[p]);
}

/* Cover the frame with bands of @n lines (the last one shorter). */
static void bands_cover(const struct tbuf *full,
			const struct vivi_gen_settings *s, u32 frame, u32 n,
			void *scratch)
{
	u32 y0;

	for (y0 = 0; y0 < full->h; y0 += n)
		band_one(full, s, frame, y0, min(n, full->h - y0), scratch);
}

static void test_equal(void)
{
	/* 160x120 and 138x61 have a stamp, the latter with odd x0 and y0 */
	static const u32 sizes[][2] = {
		{ 64, 48 }, { 33, 51 }, { 160, 120 }, { 138, 61 },
	};
	static const u32 bands[] = { 1, 2, 7, 8, 16, 50 };
	struct vivi_gen_settings s;
	struct tbuf full;
	unsigned int z, k;
	u32 p, frame;
	int i, fl;

	for (i = 0; i < ntfmts; i++) {
		const struct tfmt *tf = &tfmts[i];

		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			u32 w = sizes[z][0], h = sizes[z][1];
			u8 *scratch = malloc(vivi_gen_scratch_size(w));

			for (p = 0; p < VIVI_PAT_COUNT; p++)
				for (fl = 0; fl < 4; fl++) {
					tset_default(&s, p);
					s.hflip = fl & 1;
					s.vflip = fl & 2;
					s.motion_speed = 3;
					s.font = tfont;
					memcpy(s.text, text_lines,
					       sizeof(s.text));
					if (fl == 3) {
						s.brightness = 140;
						s.hue = 30;
						s.saturation = 160;
					}
					frame = 7 + fl;
					s.stamp = fl != 2;
					s.stamp_seq = 0x9e3779b9u * frame;
					s.stamp_ms = 1796000000000ull + frame;
					tbuf_alloc(&full, tf, w, h, 0);
					tbuf_fill(&full, 0);
					if (tgen(&full, &s, frame))
						tu_fail("%s full frame failed",
						      tf->name);
					for (k = 0; k < ARRAY_SIZE(bands); k++) {
						/* 4:2:0 bands start on even lines */
						if (tf->vsub == 2 && bands[k] & 1)
							continue;
						bands_cover(&full, &s, frame,
							    bands[k], scratch);
					}
					/* a single line in the middle */
					if (tf->vsub == 1)
						band_one(&full, &s, frame,
							 h / 2 + 1, 1, scratch);
					tbuf_free(&full);
				}
			free(scratch);
		}
		tu_done("band/%s", tf->name);
	}
}

static void test_bad_bands(void)
{
	struct vivi_gen_settings s;
	struct vivi_gen_frame f;
	struct tbuf b;
	u8 *scratch = malloc(vivi_gen_scratch_size(64));
	int i;

	tset_default(&s, VIVI_PAT_BARS75);
	for (i = 0; i < ntfmts; i++) {
		tbuf_alloc(&b, &tfmts[i], 64, 48, 0);
		tbuf_fill(&b, 0x77);
		tbuf_frame(&b, &f);
		f.band_y0 = 2;
		if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
			tu_fail("%s: band_y0 without band_lines", tfmts[i].name);
		f.band_y0 = 40;
		f.band_lines = 9;
		if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
			tu_fail("%s: band past the end", tfmts[i].name);
		f.band_y0 = 0xffffffffu;
		f.band_lines = 2;
		if (vivi_gen_fill(&f, &s, 0, scratch) != -EINVAL)
			tu_fail("%s: band_y0 wraps", tfmts[i].name);
		f.band_y0 = 3;
		f.band_lines = 4;
		if ((vivi_gen_fill(&f, &s, 0, scratch) == -EINVAL) !=
		    (tfmts[i].vsub == 2))
			tu_fail("%s: odd band_y0", tfmts[i].name);
		f.band_y0 = 40;
		f.band_lines = 8;
		if (vivi_gen_fill(&f, &s, 0, scratch))
			tu_fail("%s: last band refused", tfmts[i].name);
		tbuf_free(&b);
	}
	tu_done("band/bad_bands");
	free(scratch);
}

int main(void)
{
	int c, r;

	for (c = 0; c < 256; c++)
		for (r = 0; r < 16; r++)
			tfont[c * 16 + r] = (u8)(c * 37 + r * 53) ^ (r & 1 ? 0x5a : 0xc3);
	test_equal();
	test_bad_bands();
	return tu_failed ? 1 : 0;
}
