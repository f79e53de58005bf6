// SPDX-License-Identifier: GPL-2.0
/*
 * bench_scale.c - speed of the frame converter and scaler
 * (vivi_scale_frame(), built as the kernel builds it: no SIMD or FPU
 * registers) next to memcpy and libswscale doing the same job
 *
 * Two tables at 1920x1080: every ordered pair of YUYV, NV12, YUV420,
 * RGB24 and XRGB32 at the same size (a pair of one format is the
 * passthrough: a copy), and the scaling cases of the producer node
 * (1920x1080 to 640x480 cropped, letterboxed and stretched; 640x360 to
 * 1280x720). Each row: the median time per frame of vivi, of a memcpy of
 * the larger of the two frames (separate, pre-faulted buffers), of
 * libswscale with its SIMD off (av_force_cpu_flags(0), SWS_BITEXACT |
 * SWS_ACCURATE_RND) and with it on (the CPU's flags, no exactness
 * flags), all four timed in turn within each run so that they see the
 * same machine; then the ratios. libswscale shrinks with SWS_AREA and
 * enlarges or converts with SWS_BILINEAR, crops by offsetting its source
 * planes and letterboxes into the picture's rectangle, filling the bars
 * itself (that fill counted in its time).
 *
 *   bench_scale_bin [runs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/cpu.h>
#include <libswscale/swscale.h>

#include <linux/kernel.h>

#include "bench_util.h"
#include "tconv.h"
#include "tfmt.h"
#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_scale.h"

static const struct {
	const char *name;
	enum AVPixelFormat av;
} fmts[] = {
	{ "YUYV", AV_PIX_FMT_YUYV422 },
	{ "NV12", AV_PIX_FMT_NV12 },
	{ "YUV420", AV_PIX_FMT_YUV420P },
	{ "RGB24", AV_PIX_FMT_RGB24 },
	/* bytes X, R', G', B' */
	{ "XRGB32", AV_PIX_FMT_0RGB },
};

enum { T_VIVI, T_MEMCPY, T_SWS_C, T_SWS_SIMD, T_N };

/**
 * struct job - one conversion, set up for every contender
 * @a: the source frame
 * @b: vivi's destination
 * @s: libswscale's destinations, SIMD off and on (each contender writes
 *	its own: a destination another just wrote would be in the cache)
 * @aspect: enum vivi_aspect
 * @crop: the source pixels shown
 * @pic: where they lie in @b
 * @sws: libswscale's contexts, SIMD off and on
 * @scratch: vivi's scratch
 * @mc_src: the memcpy's source
 * @mc_dst: and destination
 * @mc_bytes: the larger frame's bytes
 */
struct job {
	struct tbuf a, b, s[2];
	u32 aspect;
	struct vivi_rect crop, pic;
	struct SwsContext *sws[2];
	u8 *scratch;
	u8 *mc_src, *mc_dst;
	size_t mc_bytes;
};

static enum AVPixelFormat av_of(const struct tfmt *tf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fmts); i++)
		if (!strcmp(fmts[i].name, tf->name))
			return fmts[i].av;
	return AV_PIX_FMT_NONE;
}

static size_t frame_bytes(const struct tbuf *b)
{
	size_t n = 0;
	int p;

	for (p = 0; p < b->np; p++)
		n += (size_t)b->stride[p] * b->rows[p];
	return n;
}

/* Plane @p of @b at pixel (@x, @y), both even */
static u8 *plane_at(const struct tbuf *b, int p, u32 x, u32 y)
{
	return b->plane[p] + (size_t)y * b->rows[p] / b->h * b->stride[p] +
	       (size_t)x * b->lb[p] / b->w;
}

/* libswscale's context, with its SIMD on or off */
static struct SwsContext *sws_for(const struct job *j, bool simd)
{
	int flags = j->pic.w < j->crop.w ? SWS_AREA : SWS_BILINEAR;

	av_force_cpu_flags(simd ? -1 : 0);
	if (!simd)
		flags |= SWS_BITEXACT | SWS_ACCURATE_RND;
	return sws_getContext(j->crop.w, j->crop.h, av_of(j->a.tf), j->pic.w,
			      j->pic.h, av_of(j->b.tf), flags, NULL, NULL,
			      NULL);
}

static void job_init(struct job *j, const struct tfmt *from,
		     const struct tfmt *to, const u32 *s, u32 aspect)
{
	int k;

	memset(j, 0, sizeof(*j));
	tbuf_alloc(&j->a, from, s[0], s[1], 0);
	tbuf_alloc(&j->b, to, s[2], s[3], 0);
	tc_random_planes(&j->a);
	tbuf_fill(&j->b, 0);
	for (k = 0; k < 2; k++) {
		tbuf_alloc(&j->s[k], to, s[2], s[3], 0);
		tbuf_fill(&j->s[k], 0);
	}
	j->aspect = aspect;
	vivi_scale_geometry(s[0], s[1], s[2], s[3], aspect, &j->crop,
			    &j->pic);
	j->scratch = tc_malloc(vivi_scale_scratch_size(s[0], s[2]));
	memset(j->scratch, 0, vivi_scale_scratch_size(s[0], s[2]));
	j->mc_bytes = max(frame_bytes(&j->a), frame_bytes(&j->b));
	j->mc_src = tc_malloc(j->mc_bytes);
	j->mc_dst = tc_malloc(j->mc_bytes);
	memset(j->mc_src, 0x11, j->mc_bytes);
	memset(j->mc_dst, 0x22, j->mc_bytes);
	for (k = 0; k < 2; k++) {
		j->sws[k] = sws_for(j, k);
		if (!j->sws[k]) {
			fprintf(stderr, "libswscale: no context for %s to %s\n",
				from->name, to->name);
			exit(1);
		}
	}
}

static void job_free(struct job *j)
{
	sws_freeContext(j->sws[0]);
	sws_freeContext(j->sws[1]);
	free(j->scratch);
	free(j->mc_src);
	free(j->mc_dst);
	tbuf_free(&j->a);
	tbuf_free(&j->b);
	tbuf_free(&j->s[0]);
	tbuf_free(&j->s[1]);
}

/* The bytes of a black pixel pair of plane @p of @tf */
static void black_pair(const struct tfmt *tf, int p, u8 *px, u32 *n)
{
	static const u8 yuyv[] = { 16, 128, 16, 128 };
	static const u8 xrgb[] = { 0xff, 0, 0, 0, 0xff, 0, 0, 0 };

	memset(px, p ? 128 : 16, 2);
	*n = 2;
	if (!strcmp(tf->name, "YUYV"))
		memcpy(px, yuyv, *n = 4);
	else if (!strcmp(tf->name, "RGB24"))
		memset(px, 0, *n = 6);
	else if (!strcmp(tf->name, "XRGB32"))
		memcpy(px, xrgb, *n = 8);
	else if (!strcmp(tf->name, "YUV420") && p)
		*n = 1;
}

/* libswscale's bars in @b: black outside the picture's rectangle */
static void sws_bars(const struct job *j, const struct tbuf *b)
{
	u32 r, x, n, rows, lb, x0, x1;
	u8 px[8], *line;
	int p;

	for (p = 0; p < b->np; p++) {
		black_pair(b->tf, p, px, &n);
		rows = b->rows[p];
		lb = b->lb[p];
		x0 = j->pic.x * lb / b->w;
		x1 = (j->pic.x + j->pic.w) * lb / b->w;
		for (r = 0; r < rows; r++) {
			line = b->plane[p] + (size_t)r * b->stride[p];
			if (r >= j->pic.y * rows / b->h &&
			    r < (j->pic.y + j->pic.h) * rows / b->h) {
				for (x = 0; x < x0; x++)
					line[x] = px[x % n];
				for (x = x1; x < lb; x++)
					line[x] = px[x % n];
				continue;
			}
			for (x = 0; x < lb; x++)
				line[x] = px[x % n];
		}
	}
}

static void sws_run(const struct job *j, bool simd)
{
	const struct tbuf *b = &j->s[simd];
	const u8 *src[4] = { NULL };
	u8 *dst[4] = { NULL };
	int ss[4] = { 0 }, ds[4] = { 0 }, p;

	for (p = 0; p < j->a.np; p++) {
		src[p] = plane_at(&j->a, p, j->crop.x, j->crop.y);
		ss[p] = j->a.stride[p];
	}
	for (p = 0; p < b->np; p++) {
		dst[p] = plane_at(b, p, j->pic.x, j->pic.y);
		ds[p] = b->stride[p];
	}
	av_force_cpu_flags(simd ? -1 : 0);
	sws_scale(j->sws[simd], src, ss, 0, j->crop.h, dst, ds);
	if (j->pic.w != b->w || j->pic.h != b->h)
		sws_bars(j, b);
}

static void step(struct job *j, int k)
{
	struct vivi_gen_frame f, g;

	switch (k) {
	case T_VIVI:
		tbuf_frame(&j->a, &f);
		tbuf_frame(&j->b, &g);
		if (vivi_scale_frame(&f, &g, j->aspect, j->scratch)) {
			fprintf(stderr, "vivi_scale_frame failed\n");
			exit(1);
		}
		break;
	case T_MEMCPY:
		memcpy(j->mc_dst, j->mc_src, j->mc_bytes);
		__asm__ __volatile__("" : : "r"(j->mc_dst) : "memory");
		break;
	default:
		sws_run(j, k == T_SWS_SIMD);
		break;
	}
}

/* Worst ratios: passthrough / memcpy, conversion / memcpy, vivi / C */
static double worst_pass, worst_conv, worst_c;

/* One row: median ms of each contender, and the ratios */
static void bench_row(const char *label, const struct tfmt *from,
		      const struct tfmt *to, const u32 *s, u32 aspect,
		      int runs)
{
	double t[T_N][64], ms[T_N];
	struct job j;
	int k, r;
	u64 t0;

	job_init(&j, from, to, s, aspect);
	for (k = 0; k < T_N; k++)
		step(&j, k);
	for (r = 0; r < runs; r++)
		for (k = 0; k < T_N; k++) {
			t0 = now_ns();
			step(&j, k);
			t[k][r] = now_ns() - t0;
		}
	for (k = 0; k < T_N; k++)
		ms[k] = median(t[k], runs) / 1e6;
	printf("%-16s  %-6s  %-6s  %7.3f  %7.3f  %7.3f  %7.3f  %7.2f  %7.2f  %7.2f\n",
	       label, from->name, to->name, ms[T_VIVI], ms[T_MEMCPY],
	       ms[T_SWS_C], ms[T_SWS_SIMD], ms[T_VIVI] / ms[T_MEMCPY],
	       ms[T_VIVI] / ms[T_SWS_C], ms[T_VIVI] / ms[T_SWS_SIMD]);
	if (from == to && s[0] == s[2] && s[1] == s[3])
		worst_pass = max(worst_pass, ms[T_VIVI] / ms[T_MEMCPY]);
	else if (s[0] == s[2] && s[1] == s[3])
		worst_conv = max(worst_conv, ms[T_VIVI] / ms[T_MEMCPY]);
	worst_c = max(worst_c, ms[T_VIVI] / ms[T_SWS_C]);
	job_free(&j);
}

static void header(const char *what)
{
	printf("\n%s, ms per frame; memcpy of the larger frame; libswscale with SIMD off (C) and on\n",
	       what);
	printf("%-16s  %-6s  %-6s  %7s  %7s  %7s  %7s  %7s  %7s  %7s\n", "case",
	       "from", "to", "vivi", "memcpy", "sws C", "sws SIMD",
	       "/memcpy", "/sws C", "/SIMD");
}

int main(int argc, char **argv)
{
	static const u32 same[4] = { 1920, 1080, 1920, 1080 };
	static const struct {
		const char *name;
		u32 s[4], aspect;
	} cases[] = {
		{ "1080p-480p crop", { 1920, 1080, 640, 480 },
		  VIVI_ASPECT_CROP },
		{ "1080p-480p lbox", { 1920, 1080, 640, 480 },
		  VIVI_ASPECT_LETTERBOX },
		{ "1080p-480p strch", { 1920, 1080, 640, 480 },
		  VIVI_ASPECT_STRETCH },
		{ "360p-720p", { 640, 360, 1280, 720 }, VIVI_ASPECT_CROP },
	};
	static const char *const scaled[][2] = {
		{ "YUYV", "YUYV" }, { "NV12", "NV12" }, { "XRGB32", "XRGB32" },
		{ "YUYV", "NV12" }, { "XRGB32", "YUYV" },
	};
	int runs = argc > 1 ? atoi(argv[1]) : 15;
	unsigned int i, k;

	if (runs < 3 || runs > 64)
		runs = 15;
	header("vivi_scale_frame() at 1920x1080, every pair (a format to itself: the passthrough)");
	for (i = 0; i < ARRAY_SIZE(fmts); i++)
		for (k = 0; k < ARRAY_SIZE(fmts); k++)
			bench_row(i == k ? "passthrough" : "convert",
				  tfmt_find(fmts[i].name),
				  tfmt_find(fmts[k].name), same,
				  VIVI_ASPECT_CROP, runs);
	header("vivi_scale_frame() scaling");
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (k = 0; k < ARRAY_SIZE(scaled); k++)
			bench_row(cases[i].name, tfmt_find(scaled[k][0]),
				  tfmt_find(scaled[k][1]), cases[i].s,
				  cases[i].aspect, runs);
	printf("\nworst: passthrough / memcpy %.2f (target 1.1), conversion / memcpy %.2f (target 2.0), vivi / libswscale C %.2f (target 1.0)\n",
	       worst_pass, worst_conv, worst_c);
	return 0;
}
