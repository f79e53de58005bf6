// SPDX-License-Identifier: GPL-2.0
/*
 * test_scratch.c - a property test of the state that lives across frames
 * and streams: the generator's cache in the node's scratch area.
 *
 * The driver draws every frame of a node, raw or MJPEG, with one scratch
 * area that it allocates once. Random sequences of streams (format, size,
 * pattern, picture and camera controls, flips, motion, text, stamp, MJPEG
 * quality; a few frames each) are drawn into one such area, first filled
 * with random bytes, and every frame must equal, byte for byte, the same
 * frame drawn into a fresh zeroed area. Seeded: "test_scratch SEED [N]"
 * replays a run, and a failure names the sequence and the step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"
#include "tutil.h"
#include "vivi_gen.h"
#include "vivi_draw.h"
#include "vivi_jpeg.h"

#define MAX_W		1280
#define MAX_H		720
#define STEPS		6	/* streams per sequence */
#define FRAMES		3	/* at most, per stream */
#define PAD		8	/* stride padding, which must stay untouched */
#define FMT_MJPEG	(-1)

static u64 rng_state;

static u32 rnd(void)
{
	/* xorshift64*: small, seedable, good enough to pick test cases */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (u32)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static u32 pick(u32 n)
{
	return rnd() % n;
}

static u8 font[256 * 16];

struct step {
	int fmt;		/* index into tfmts[], or FMT_MJPEG */
	u32 w, h, quality, frame0, frames;
	struct vivi_gen_settings s;
	char text[VIVI_GEN_TEXT_LINES][40];
};

/* mostly small sizes, so that thousands of sequences run under ASan */
static void pick_size(struct step *st)
{
	static const u32 big[][2] = {
		{ 640, 480 }, { 800, 600 }, { 960, 720 }, { 1024, 768 },
		{ 1280, 720 }, { 640, 360 },
	};
	static const u32 small[][2] = {
		{ 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 },
		{ 16, 16 }, { 64, 48 },
	};
	u32 i;

	switch (pick(8)) {
	case 0:
		i = pick(ARRAY_SIZE(big));
		st->w = big[i][0];
		st->h = big[i][1];
		break;
	case 2:	/* any size, odd ones too */
		st->w = 16 + pick(400);
		st->h = 16 + pick(300);
		break;
	default:
		i = pick(ARRAY_SIZE(small));
		st->w = small[i][0];
		st->h = small[i][1];
	}
}

/* each control at its default most of the time, else anywhere in range */
static void pick_controls(struct vivi_gen_settings *s)
{
	if (!pick(3)) {
		s->brightness = pick(256);
		s->contrast = pick(256);
		s->saturation = pick(256);
		s->hue = (s32)pick(361) - 180;
	}
	s->hflip = !pick(4);
	s->vflip = !pick(4);
	s->motion_speed = pick(3) ? 0 : pick(9);
	if (!pick(4)) {
		s->zoom = VIVI_GEN_ZOOM_MIN + pick(VIVI_GEN_ZOOM_MAX - 99);
		s->pan = (s32)pick(2 * VIVI_GEN_PAN_MAX + 1) - VIVI_GEN_PAN_MAX;
		s->tilt = (s32)pick(2 * VIVI_GEN_PAN_MAX + 1) - VIVI_GEN_PAN_MAX;
	}
	if (!pick(4)) {
		s->exposure = pick(2) ? 0 : VIVI_GEN_EXPOSURE_MIN + pick(2045);
		s->gain = pick(VIVI_GEN_GAIN_MAX + 1);
		s->wb_temp = pick(2) ? 0 : VIVI_GEN_WB_MIN + pick(4501);
		s->gamma = VIVI_GEN_GAMMA_MIN + pick(429);
		s->backlight = pick(VIVI_GEN_BACKLIGHT_MAX + 1);
	}
	s->privacy = !pick(12);
}

static void pick_step(struct step *st, u32 seq)
{
	struct vivi_gen_settings *s = &st->s;
	u32 i;

	memset(st, 0, sizeof(*st));
	st->fmt = pick(4) ? (int)pick(ntfmts) : FMT_MJPEG;
	pick_size(st);
	st->quality = pick(2) ? 95 : 1 + pick(100);
	tset_default(s, pick(VIVI_PAT_COUNT));
	pick_controls(s);
	if (pick(3)) {
		s->font = font;
		for (i = 0; i < VIVI_GEN_TEXT_LINES; i++) {
			snprintf(st->text[i], sizeof(st->text[i]),
				 "%06u %ux%u line %u", seq, st->w, st->h, i);
			s->text[i] = pick(3) ? st->text[i] : NULL;
		}
	}
	s->stamp = !pick(3);
	s->stamp_ms = ((u64)rnd() << 12) ^ rnd();
	st->frame0 = pick(3) ? 0 : rnd();
	st->frames = 1 + pick(FRAMES);
}

struct out {
	struct tbuf b;		/* raw */
	u8 *jpg;		/* MJPEG */
	size_t n;
	int ret;
};

static void draw(const struct step *st, u32 frame, void *scratch,
		 struct out *o, size_t jmax)
{
	struct vivi_gen_settings s = st->s;
	struct vivi_source src = {
		.type = VIVI_SOURCE_PATTERN, .pattern = &s, .frame = frame,
	};
	struct vivi_gen_frame f;

	s.stamp_seq = frame;
	if (st->fmt == FMT_MJPEG) {
		o->n = 0;
		o->ret = vivi_draw_mjpeg(&src, st->w, st->h, st->quality,
					 o->jpg, jmax, &o->n, scratch);
		return;
	}
	tbuf_fill(&o->b, 0x5a);
	tbuf_frame(&o->b, &f);
	o->ret = vivi_draw_planes(&src, &f, scratch);
}

static const char *fmt_name(const struct step *st)
{
	return st->fmt == FMT_MJPEG ? "MJPEG" : tfmts[st->fmt].name;
}

/* Step @k of sequence @n drawn into @shared; 0 if every frame matched */
static int run_step(const struct step *st, u8 *shared, u8 *fresh,
		    size_t jmax, struct out *a, struct out *b, u32 n, u32 k)
{
	size_t sz = vivi_draw_scratch_size(st->w);
	u32 i, frame;
	int same;

	if (st->fmt != FMT_MJPEG) {
		tbuf_alloc(&a->b, &tfmts[st->fmt], st->w, st->h, PAD);
		tbuf_alloc(&b->b, &tfmts[st->fmt], st->w, st->h, PAD);
	}
	for (i = 0; i < st->frames; i++) {
		frame = st->frame0 + i;
		draw(st, frame, shared, a, jmax);
		memset(fresh, 0, sz);
		draw(st, frame, fresh, b, jmax);
		if (st->fmt == FMT_MJPEG)
			same = a->ret == b->ret && a->n == b->n &&
			       !memcmp(a->jpg, b->jpg, a->n);
		else
			same = a->ret == b->ret && tbuf_equal(&a->b, &b->b);
		if (a->ret || !same) {
			tu_fail("sequence %u step %u frame %u: %s %ux%u pattern %u quality %u stamp %d text %d: %s",
				n, k, frame, fmt_name(st), st->w, st->h,
				st->s.pattern, st->quality, st->s.stamp,
				!!st->s.font, a->ret ? "error" :
				"differs from a fresh area");
			break;
		}
	}
	if (st->fmt != FMT_MJPEG) {
		tbuf_free(&a->b);
		tbuf_free(&b->b);
	}
	return i < st->frames;
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20261206;
	u32 nseq = argc > 2 ? strtoul(argv[2], NULL, 0) : 2000;
	size_t area = vivi_draw_scratch_size(MAX_W);
	size_t jmax = vivi_jpeg_max_size(MAX_W, MAX_H, VIVI_JPEG_QUALITY_MAX);
	struct out a = { 0 }, b = { 0 };
	u32 n, k, frames = 0;
	struct step st;
	u8 *shared, *fresh;
	size_t i;

	tu_make_font(font);
	rng_state = seed | 1;
	shared = malloc(area);
	fresh = malloc(area);
	a.jpg = malloc(jmax);
	b.jpg = malloc(jmax);
	if (!shared || !fresh || !a.jpg || !b.jpg)
		return 2;
	for (n = 0; n < nseq && !tu_failed; n++) {
		/* the node's area as the last user left it: garbage */
		for (i = 0; i + 4 <= area; i += 4) {
			u32 v = rnd();

			memcpy(shared + i, &v, 4);
		}
		for (k = 0; k < STEPS; k++) {
			pick_step(&st, n);
			if (run_step(&st, shared, fresh, jmax, &a, &b, n, k))
				break;
			frames += st.frames;
		}
		if (k < STEPS)
			break;
	}
	tu_done("scratch: %u random sequences of %u streams (%u frames, seed %llu) in one garbage-filled area equal a fresh area",
		n, STEPS, frames, (unsigned long long)seed);
	free(shared);
	free(fresh);
	free(a.jpg);
	free(b.jpg);
	return tu_failed ? 1 : 0;
}
