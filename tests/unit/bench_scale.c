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
 * 1280x720). With -a instead: every ordered pair of the 24 raw formats at
 * 1920x1080 (576 rows), then the ratios as two 24x24 matrices and the
 * verdict on the producer node's targets (passthrough at most 1.1x
 * memcpy; conversion at most 2x memcpy and no slower than libswscale
 * without SIMD), the pairs that miss them named, the worst first.
 *
 * Each row: the median CPU time of the thread per frame (so that other
 * jobs on a shared host count less; at least [runs] runs, and more, up
 * to 63, while a pair's runs take under 0.1 s) of vivi, of a memcpy of the larger of
 * the two frames (separate, pre-faulted buffers), of libswscale with its
 * SIMD off (av_force_cpu_flags(0), SWS_BITEXACT | SWS_ACCURATE_RND) and
 * with it on (the CPU's flags, no exactness flags), all four timed in
 * turn within each run so that they see the same machine; then the
 * ratios. libswscale shrinks with SWS_AREA and enlarges or converts with
 * SWS_BILINEAR, crops by offsetting its source planes and letterboxes
 * into the picture's rectangle, filling the bars itself (that fill counted
 * in its time). It has no VYUY or NV61 and writes no Bayer: "-" there;
 * YVU420 is its YUV420P with the chroma planes swapped.
 *
 *   bench_scale_bin [-a] [runs]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/cpu.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>

#include <linux/kernel.h>

#include "bench_util.h"
#include "tconv.h"
#include "tfmt.h"
#include "vivi_gen.h"
#include "vivi_pack.h"
#include "vivi_scale.h"

/*
 * libswscale's name of each of tfmt.c's formats; NONE: it has none. YVU420
 * is YUV420P with the chroma planes swapped (sws_planes()).
 */
static const struct {
	const char *name;
	enum AVPixelFormat av;
} fmts[] = {
	{ "YUYV", AV_PIX_FMT_YUYV422 },
	{ "UYVY", AV_PIX_FMT_UYVY422 },
	{ "YVYU", AV_PIX_FMT_YVYU422 },
	{ "VYUY", AV_PIX_FMT_NONE },
	{ "YUV420", AV_PIX_FMT_YUV420P },
	{ "YVU420", AV_PIX_FMT_YUV420P },
	{ "YUV422P", AV_PIX_FMT_YUV422P },
	{ "NV12", AV_PIX_FMT_NV12 },
	{ "NV21", AV_PIX_FMT_NV21 },
	{ "NV16", AV_PIX_FMT_NV16 },
	{ "NV61", AV_PIX_FMT_NONE },
	{ "RGB24", AV_PIX_FMT_RGB24 },
	{ "BGR24", AV_PIX_FMT_BGR24 },
	/* bytes X, R', G', B' */
	{ "XRGB32", AV_PIX_FMT_0RGB },
	/* bytes B', G', R', X */
	{ "XBGR32", AV_PIX_FMT_BGR0 },
	/* V4L2's RGB565 and XRGB555 are little-endian words, RGB565X big */
	{ "RGB565", AV_PIX_FMT_RGB565LE },
	{ "RGB565X", AV_PIX_FMT_RGB565BE },
	{ "XRGB555", AV_PIX_FMT_RGB555LE },
	{ "GREY", AV_PIX_FMT_GRAY8 },
	{ "Y16", AV_PIX_FMT_GRAY16LE },
	{ "SBGGR8", AV_PIX_FMT_BAYER_BGGR8 },
	{ "SGBRG8", AV_PIX_FMT_BAYER_GBRG8 },
	{ "SGRBG8", AV_PIX_FMT_BAYER_GRBG8 },
	{ "SRGGB8", AV_PIX_FMT_BAYER_RGGB8 },
};

enum { T_VIVI, T_MEMCPY, T_SWS_C, T_SWS_SIMD, T_N };

/* The targets of the producer node (issue 25) */
#define PASS_MAX	1.1
#define CONV_MAX	2.0
#define SWS_C_MAX	1.0

/**
 * struct job - one conversion, set up for every contender
 * @a: the source frame
 * @b: vivi's destination
 * @s: libswscale's destinations, SIMD off and on (each contender writes
 *	its own: a destination another just wrote would be in the cache)
 * @aspect: enum vivi_aspect
 * @crop: the source pixels shown
 * @pic: where they lie in @b
 * @sws: libswscale's contexts, SIMD off and on; NULL where it has no such
 *	conversion
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

static int fmt_index(const struct tfmt *tf)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fmts); i++)
		if (!strcmp(fmts[i].name, tf->name))
			return i;
	/* a format added to tfmt.c must be added here too */
	fprintf(stderr, "bench_scale: %s missing from fmts[]\n", tf->name);
	exit(1);
}

static enum AVPixelFormat av_of(const struct tfmt *tf)
{
	return fmts[fmt_index(tf)].av;
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

/* libswscale's context, with its SIMD on or off; NULL if it has none */
static struct SwsContext *sws_for(const struct job *j, bool simd)
{
	enum AVPixelFormat from = av_of(j->a.tf), to = av_of(j->b.tf);
	int flags = j->pic.w < j->crop.w ? SWS_AREA : SWS_BILINEAR;

	if (from == AV_PIX_FMT_NONE || to == AV_PIX_FMT_NONE ||
	    !sws_isSupportedInput(from) || !sws_isSupportedOutput(to))
		return NULL;
	av_force_cpu_flags(simd ? -1 : 0);
	if (!simd)
		flags |= SWS_BITEXACT | SWS_ACCURATE_RND;
	return sws_getContext(j->crop.w, j->crop.h, from, j->pic.w, j->pic.h,
			      to, flags, NULL, NULL, NULL);
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
	for (k = 0; k < 2; k++)
		j->sws[k] = sws_for(j, k);
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

/* @b's planes at (@x, @y) in libswscale's order */
static void sws_planes(const struct tbuf *b, u32 x, u32 y, u8 **pl,
		       int *st)
{
	u8 *t;
	int p;

	for (p = 0; p < b->np; p++) {
		pl[p] = plane_at(b, p, x, y);
		st[p] = b->stride[p];
	}
	/* planes Y', Cr, Cb */
	if (b->tf->kind == TK_PLANAR && b->tf->layout[0] == 'V') {
		t = pl[1];
		pl[1] = pl[2];
		pl[2] = t;
		p = st[1];
		st[1] = st[2];
		st[2] = p;
	}
}

static void sws_run(const struct job *j, bool simd)
{
	const struct tbuf *b = &j->s[simd];
	u8 *src[4] = { NULL }, *dst[4] = { NULL };
	int ss[4] = { 0 }, ds[4] = { 0 };

	sws_planes(&j->a, j->crop.x, j->crop.y, src, ss);
	sws_planes(b, j->pic.x, j->pic.y, dst, ds);
	av_force_cpu_flags(simd ? -1 : 0);
	sws_scale(j->sws[simd], (const u8 *const *)src, ss, 0, j->crop.h, dst,
		  ds);
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

/* A pair's runs take at least this long, if 63 runs are enough for that */
#define RUNS_NS		100000000ull
#define RUNS_MAX	63

/*
 * The median ms per frame of each contender into @ms, a negative one
 * where libswscale has no such conversion. At least @runs runs; a pair
 * that is quick gets more (a copy takes 0.1 ms: one preemption would
 * weigh on a median of 5)
 */
static void bench_job(const struct tfmt *from, const struct tfmt *to,
		      const u32 *s, u32 aspect, int runs, double *ms)
{
	bool has[T_N] = { true, true };
	double t[T_N][RUNS_MAX + 1];
	struct job j;
	u64 t0, warm;
	int k, r;

	job_init(&j, from, to, s, aspect);
	has[T_SWS_C] = !!j.sws[0];
	has[T_SWS_SIMD] = !!j.sws[1];
	t0 = cpu_ns();
	for (k = 0; k < T_N; k++)
		if (has[k])
			step(&j, k);
	warm = cpu_ns() - t0 + 1;
	if ((u64)runs < RUNS_NS / warm)
		runs = min_t(u64, RUNS_NS / warm, RUNS_MAX) | 1;
	for (r = 0; r < runs; r++)
		for (k = 0; k < T_N; k++) {
			if (!has[k])
				continue;
			t0 = cpu_ns();
			step(&j, k);
			t[k][r] = cpu_ns() - t0;
		}
	for (k = 0; k < T_N; k++)
		ms[k] = has[k] ? median(t[k], runs) / 1e6 : -1;
	job_free(&j);
}

/* @v, or "-" where it was not measured */
static void cell(double v, const char *fmt)
{
	if (v < 0)
		printf("  %7s", "-");
	else
		printf(fmt, v);
}

static void print_row(const char *label, const struct tfmt *from,
		      const struct tfmt *to, const double *ms)
{
	printf("%-16s  %-7s  %-7s  %7.3f  %7.3f", label, from->name, to->name,
	       ms[T_VIVI], ms[T_MEMCPY]);
	cell(ms[T_SWS_C], "  %7.3f");
	cell(ms[T_SWS_SIMD], "  %7.3f");
	printf("  %7.2f", ms[T_VIVI] / ms[T_MEMCPY]);
	cell(ms[T_SWS_C] < 0 ? -1 : ms[T_VIVI] / ms[T_SWS_C], "  %7.2f");
	cell(ms[T_SWS_SIMD] < 0 ? -1 : ms[T_VIVI] / ms[T_SWS_SIMD], "  %7.2f");
	printf("\n");
}

static void header(const char *what)
{
	printf("\n%s, ms of CPU time per frame; memcpy of the larger frame; libswscale with SIMD off (C) and on\n",
	       what);
	printf("%-16s  %-7s  %-7s  %7s  %7s  %7s  %7s  %7s  %7s  %7s\n",
	       "case", "from", "to", "vivi", "memcpy", "sws C", "sws SIMD",
	       "/memcpy", "/sws C", "/SIMD");
}

static const u32 same[4] = { 1920, 1080, 1920, 1080 };

/* Every ordered pair of YUYV, NV12, YUV420, RGB24, XRGB32; the scaling */
static void bench_tables(int runs)
{
	static const char *const five[] = {
		"YUYV", "NV12", "YUV420", "RGB24", "XRGB32",
	};
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
	double ms[T_N], pass = 0, conv = 0, c = 0;
	const struct tfmt *from, *to;
	unsigned int i, k;

	header("vivi_scale_frame() at 1920x1080, every pair (a format to itself: the passthrough)");
	for (i = 0; i < ARRAY_SIZE(five); i++)
		for (k = 0; k < ARRAY_SIZE(five); k++) {
			from = tfmt_find(five[i]);
			to = tfmt_find(five[k]);
			bench_job(from, to, same, VIVI_ASPECT_CROP, runs, ms);
			print_row(i == k ? "passthrough" : "convert", from, to,
				  ms);
			if (i == k)
				pass = max(pass, ms[T_VIVI] / ms[T_MEMCPY]);
			else
				conv = max(conv, ms[T_VIVI] / ms[T_MEMCPY]);
			c = max(c, ms[T_VIVI] / ms[T_SWS_C]);
		}
	header("vivi_scale_frame() scaling");
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (k = 0; k < ARRAY_SIZE(scaled); k++) {
			from = tfmt_find(scaled[k][0]);
			to = tfmt_find(scaled[k][1]);
			bench_job(from, to, cases[i].s, cases[i].aspect, runs,
				  ms);
			print_row(cases[i].name, from, to, ms);
			c = max(c, ms[T_VIVI] / ms[T_SWS_C]);
		}
	printf("\nworst: passthrough / memcpy %.2f (target %.1f), conversion / memcpy %.2f (target %.1f), vivi / libswscale C %.2f (target %.1f)\n",
	       pass, PASS_MAX, conv, CONV_MAX, c, SWS_C_MAX);
}

/* The results of -a: [from][to][contender] */
static double res[ARRAY_SIZE(fmts)][ARRAY_SIZE(fmts)][T_N];

/* vivi / contender @k of pair (@i, @k), negative if not measured */
static double ratio(int i, int o, int k)
{
	return res[i][o][k] < 0 ? -1 : res[i][o][T_VIVI] / res[i][o][k];
}

/* A markdown matrix of vivi / contender @k: sources down, destinations across */
static void matrix(const char *what, int k)
{
	int i, o;

	printf("\n%s at 1920x1080 (rows: from, columns: to; - : libswscale has no such conversion)\n\n| from \\ to |",
	       what);
	for (o = 0; o < ntfmts; o++)
		printf(" %s |", tfmts[o].name);
	printf("\n|---|");
	for (o = 0; o < ntfmts; o++)
		printf("---:|");
	printf("\n");
	for (i = 0; i < ntfmts; i++) {
		printf("| %s |", tfmts[i].name);
		for (o = 0; o < ntfmts; o++) {
			if (ratio(i, o, k) < 0)
				printf(" - |");
			else
				printf(" %.2f |", ratio(i, o, k));
		}
		printf("\n");
	}
}

static const char *const fam_names[] = {
	"packed YUV", "planar YUV", "semi-planar YUV", "RGB 24/32", "RGB 16",
	"luma", "Bayer",
};

/* The family of @tf, an index of fam_names[] */
static int family(const struct tfmt *tf)
{
	switch (tf->kind) {
	case TK_PACKED:
		return 0;
	case TK_PLANAR:
		return 1;
	case TK_SEMI:
		return 2;
	case TK_RGB:
		/* 565, 565X, X555 */
		return strchr(tf->layout, '5') ? 4 : 3;
	case TK_LUMA:
		return 5;
	default:
		return 6;
	}
}

/* The median of vivi / memcpy and of vivi / sws C from family @fi to @fo */
static void family_cell(int fi, int fo)
{
	static double mc[ARRAY_SIZE(fmts) * ARRAY_SIZE(fmts)];
	static double sw[ARRAY_SIZE(fmts) * ARRAY_SIZE(fmts)];
	int i, o, nmc = 0, nsw = 0;

	for (i = 0; i < ntfmts; i++)
		for (o = 0; o < ntfmts; o++) {
			if (i == o || family(&tfmts[i]) != fi ||
			    family(&tfmts[o]) != fo)
				continue;
			mc[nmc++] = ratio(i, o, T_MEMCPY);
			if (ratio(i, o, T_SWS_C) >= 0)
				sw[nsw++] = ratio(i, o, T_SWS_C);
		}
	if (!nmc)
		printf(" |");
	else if (!nsw)
		printf(" %.1f, - |", median(mc, nmc));
	else
		printf(" %.1f, %.2f |", median(mc, nmc), median(sw, nsw));
}

static void families(void)
{
	int fi, fo, n = ARRAY_SIZE(fam_names);

	printf("\nthe median over each family's conversions at 1920x1080 (the passthrough left out): vivi / memcpy, vivi / libswscale C (rows: from, columns: to)\n\n| from \\ to |");
	for (fo = 0; fo < n; fo++)
		printf(" %s |", fam_names[fo]);
	printf("\n|---|");
	for (fo = 0; fo < n; fo++)
		printf("---:|");
	printf("\n");
	for (fi = 0; fi < n; fi++) {
		printf("| %s |", fam_names[fi]);
		for (fo = 0; fo < n; fo++)
			family_cell(fi, fo);
		printf("\n");
	}
}

struct miss {
	double r;
	int i, o;
};

static int miss_cmp(const void *a, const void *b)
{
	const struct miss *x = a, *y = b;

	return x->r > y->r ? -1 : x->r < y->r;
}

/* "@what: M of N met", then the misses, the worst first, at most @show */
static void verdict(const char *what, struct miss *m, int n, int of,
		    int show)
{
	int i;

	qsort(m, n, sizeof(*m), miss_cmp);
	printf("%s: %d of %d met", what, of - n, of);
	if (n)
		printf("; %d missed, %s:", n,
		       n > show ? "the worst" : "all");
	for (i = 0; i < n && i < show; i++)
		printf("%s %s->%s %.2fx", i ? "," : "", tfmts[m[i].i].name,
		       tfmts[m[i].o].name, m[i].r);
	printf("\n");
}

/* For reference: how often libswscale itself is within 2x memcpy */
static void peers_2x(int with)
{
	int i, o, c = 0, simd = 0;

	for (i = 0; i < ntfmts; i++)
		for (o = 0; o < ntfmts; o++) {
			if (i == o || res[i][o][T_SWS_C] < 0)
				continue;
			c += res[i][o][T_SWS_C] <= CONV_MAX * res[i][o][T_MEMCPY];
			simd += res[i][o][T_SWS_SIMD] <=
				CONV_MAX * res[i][o][T_MEMCPY];
		}
	printf("for reference, within 2x memcpy of the %d conversions libswscale has: libswscale C %d, libswscale SIMD %d\n",
	       with, c, simd);
}

/* Every ordered pair of the 24 raw formats; the matrices; the verdict */
static void bench_pairs(int runs)
{
	static struct miss pass[ARRAY_SIZE(fmts)];
	static struct miss mc[ARRAY_SIZE(fmts) * ARRAY_SIZE(fmts)];
	static struct miss sw[ARRAY_SIZE(fmts) * ARRAY_SIZE(fmts)];
	static struct miss both[ARRAY_SIZE(fmts) * ARRAY_SIZE(fmts)];
	int i, o, np = 0, nmc = 0, nsw = 0, nboth = 0, conv = 0, with = 0;
	double r, c;

	if (ntfmts != (int)ARRAY_SIZE(fmts)) {
		fprintf(stderr, "bench_scale: fmts[] has %zu formats, tfmt.c %d\n",
			ARRAY_SIZE(fmts), ntfmts);
		exit(1);
	}
	header("vivi_scale_frame() at 1920x1080, all 24 x 24 ordered pairs (a format to itself: the passthrough)");
	for (i = 0; i < ntfmts; i++)
		for (o = 0; o < ntfmts; o++) {
			bench_job(&tfmts[i], &tfmts[o], same, VIVI_ASPECT_CROP,
				  runs, res[i][o]);
			print_row(i == o ? "passthrough" : "convert",
				  &tfmts[i], &tfmts[o], res[i][o]);
			fflush(stdout);
		}
	matrix("vivi / memcpy", T_MEMCPY);
	matrix("vivi / libswscale C (SIMD off)", T_SWS_C);
	matrix("vivi / libswscale SIMD", T_SWS_SIMD);
	families();
	for (i = 0; i < ntfmts; i++)
		for (o = 0; o < ntfmts; o++) {
			r = ratio(i, o, T_MEMCPY);
			c = ratio(i, o, T_SWS_C);
			if (i == o) {
				if (r > PASS_MAX)
					pass[np++] = (struct miss){ r, i, o };
				continue;
			}
			conv++;
			if (r > CONV_MAX)
				mc[nmc++] = (struct miss){ r, i, o };
			with += c >= 0;
			if (c > SWS_C_MAX)
				sw[nsw++] = (struct miss){ c, i, o };
			/* ranked by how far off the nearer miss is */
			if (r > CONV_MAX || c > SWS_C_MAX)
				both[nboth++] = (struct miss){
					max(r / CONV_MAX, c / SWS_C_MAX), i, o };
		}
	printf("\ntargets, the median of at least %d runs a pair (a quick pair more, up to %d in 0.1 s):\n",
	       runs, RUNS_MAX);
	verdict("passthrough <= 1.1x memcpy", pass, np, ntfmts, ntfmts);
	verdict("conversion <= 2x memcpy", mc, nmc, conv, 12);
	printf("(libswscale has %d of the %d conversions)\n", with, conv);
	verdict("conversion <= libswscale C", sw, nsw, with, 12);
	verdict("conversion, both (without libswscale: memcpy alone; ranked by the larger of /memcpy / 2 and /sws C)",
		both, nboth, conv, 12);
	printf("conversions that meet both:");
	for (i = 0, np = 0; i < ntfmts; i++)
		for (o = 0; o < ntfmts; o++)
			if (i != o && ratio(i, o, T_MEMCPY) <= CONV_MAX &&
			    ratio(i, o, T_SWS_C) <= SWS_C_MAX)
				printf("%s %s->%s %.2fx", np++ ? "," : "",
				       tfmts[i].name, tfmts[o].name,
				       ratio(i, o, T_MEMCPY));
	printf("%s\n", np ? " (/memcpy)" : " none");
	peers_2x(with);
}

int main(int argc, char **argv)
{
	bool all = argc > 1 && !strcmp(argv[1], "-a");
	int runs;

	/* not its notes that a path is unaccelerated or approximate */
	av_log_set_level(AV_LOG_ERROR);
	if (all) {
		argc--;
		argv++;
	}
	runs = argc > 1 ? atoi(argv[1]) : all ? 5 : 15;
	if (runs < 3 || runs > RUNS_MAX)
		runs = all ? 5 : 15;
	if (all)
		bench_pairs(runs);
	else
		bench_tables(runs);
	return 0;
}
