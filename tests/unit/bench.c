// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - speed of the vivi pattern generator next to memcpy, and of
 * the canonical-line packer and unpacker
 *
 * For each size, format and pattern: the median time of vivi_gen_fill()
 * over several frames, the median time of a memcpy() of the same number of
 * bytes (separate, pre-faulted source and destination of that size), timed
 * alternately with the fills, and their ratio.
 *
 * Then for a few formats: the median time per frame of vivi_pack_lines()
 * from lines of the format's own kind of color and from the other kind
 * (R'G'B' for Y'CbCr formats, Y'CbCr for the others: a conversion per
 * pixel), and of vivi_unpack_lines() into the format's own kind, next to
 * the memcpy of the frame's bytes.
 *
 *   bench_bin [runs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>

#include "bench_util.h"
#include "tfmt.h"
#include "vivi_pack.h"
#include "vivi_unpack.h"

static const struct {
	u32 pattern;
	const char *name;
} pats[] = {
	{ VIVI_PAT_BARS75, "bars75" },
	{ VIVI_PAT_HRAMP, "hramp" },
	{ VIVI_PAT_CHECKER, "checker" },
	{ VIVI_PAT_NOISE, "noise" },
};

static double worst[2];	/* single-plane, multi-plane; noise left out */

/* Source and destination of the memcpy reference, pre-faulted */
struct mc_bufs {
	u8 *src;
	u8 *dst;
	size_t bytes;
};

static void mc_alloc(struct mc_bufs *m, size_t bytes)
{
	m->bytes = bytes;
	m->src = malloc(bytes);
	m->dst = malloc(bytes);
	if (!m->src || !m->dst) {
		perror("malloc");
		exit(2);
	}
	memset(m->src, 0x11, bytes);
	memset(m->dst, 0x22, bytes);
}

static void mc_free(struct mc_bufs *m)
{
	free(m->src);
	free(m->dst);
}

/*
 * Median times of @runs fills and of @runs copies, interleaved so that
 * both see the same machine (other load, frequency).
 */
static void time_both(const struct vivi_gen_frame *f, u32 pattern, int runs,
		      void *scratch, struct mc_bufs *m, u64 *gen, u64 *mc)
{
	struct vivi_gen_settings s;
	double tg[64], tm[64];
	u64 t0;
	int r;

	tset_default(&s, pattern);
	vivi_gen_fill(f, &s, 0, scratch);
	memcpy(m->dst, m->src, m->bytes);
	for (r = 0; r < runs; r++) {
		t0 = now_ns();
		if (vivi_gen_fill(f, &s, r, scratch)) {
			fprintf(stderr, "fill failed\n");
			exit(1);
		}
		tg[r] = now_ns() - t0;
		t0 = now_ns();
		memcpy(m->dst, m->src, m->bytes);
		/* keep the copy from being optimized away */
		__asm__ __volatile__("" : : "r"(m->dst) : "memory");
		tm[r] = now_ns() - t0;
	}
	*gen = median(tg, runs);
	*mc = median(tm, runs);
}

static void bench_format(const struct tfmt *tf, u32 w, u32 h, int runs,
			 void *scratch)
{
	struct vivi_gen_frame f;
	struct mc_bufs m;
	size_t bytes = 0;
	struct tbuf b;
	double ratio;
	unsigned int p;
	char sz[16];
	u64 mc, g;
	int k;

	tbuf_alloc(&b, tf, w, h, 0);
	tbuf_fill(&b, 0);
	tbuf_frame(&b, &f);
	for (k = 0; k < b.np; k++)
		bytes += (size_t)b.stride[k] * b.rows[k];
	mc_alloc(&m, bytes);
	snprintf(sz, sizeof(sz), "%ux%u", w, h);
	for (p = 0; p < ARRAY_SIZE(pats); p++) {
		time_both(&f, pats[p].pattern, runs, scratch, &m, &g, &mc);
		ratio = (double)g / mc;
		printf("%-9s  %-8s  %-7s  %12llu  %12llu  %6.2f\n", sz,
		       tf->name, pats[p].name, (unsigned long long)g,
		       (unsigned long long)mc, ratio);
		if (pats[p].pattern != VIVI_PAT_NOISE &&
		    ratio > worst[b.np > 1])
			worst[b.np > 1] = ratio;
	}
	mc_free(&m);
	tbuf_free(&b);
}

enum { C_PACK, C_PACK_CONV, C_UNPACK, C_MEMCPY, C_N };

/* One timed step of the canonical-line table; @k is enum above */
static int canon_step(int k, const struct vivi_gen_frame *f, u32 h,
		      struct vivi_lines *l, u32 native, void *scratch,
		      struct mc_bufs *m)
{
	switch (k) {
	case C_PACK:
		l->kind = native;
		return vivi_pack_lines(f, l, scratch);
	case C_PACK_CONV:
		l->kind = native == VIVI_CANON_RGB ? VIVI_CANON_YCC_LIM :
						     VIVI_CANON_RGB;
		return vivi_pack_lines(f, l, scratch);
	case C_UNPACK:
		l->kind = native;
		return vivi_unpack_lines(f, 0, h, l);
	default:
		memcpy(m->dst, m->src, m->bytes);
		__asm__ __volatile__("" : : "r"(m->dst) : "memory");
		return 0;
	}
}

/*
 * The canonical lines of 75% bars in @tf, packed and unpacked: median ms
 * per frame of each step, interleaved, and their ratio to memcpy
 */
static void bench_canon(const struct tfmt *tf, u32 w, u32 h, int runs)
{
	u32 native = tfmt_is_yuv(tf) ? VIVI_CANON_YCC_LIM : VIVI_CANON_RGB;
	void *scratch = malloc(vivi_pack_scratch_size(w));
	struct vivi_gen_settings s;
	struct vivi_gen_frame f;
	struct vivi_lines l;
	double t[C_N][64], ms[C_N];
	struct mc_bufs m;
	size_t bytes = 0;
	struct tbuf b;
	int k, r;
	u64 t0;

	tbuf_alloc(&b, tf, w, h, 0);
	tbuf_frame(&b, &f);
	for (k = 0; k < b.np; k++)
		bytes += (size_t)b.stride[k] * b.rows[k];
	mc_alloc(&m, bytes);
	l.stride = (size_t)w * 3;
	l.data = malloc(l.stride * h);
	tset_default(&s, VIVI_PAT_BARS75);
	if (!scratch || !l.data || tgen(&b, &s, 0) ||
	    canon_step(C_UNPACK, &f, h, &l, native, scratch, &m)) {
		fprintf(stderr, "canonical lines: setup failed\n");
		exit(1);
	}
	for (r = 0; r < runs; r++)
		for (k = 0; k < C_N; k++) {
			t0 = now_ns();
			if (canon_step(k, &f, h, &l, native, scratch, &m)) {
				fprintf(stderr, "canonical lines failed\n");
				exit(1);
			}
			t[k][r] = now_ns() - t0;
		}
	for (k = 0; k < C_N; k++)
		ms[k] = median(t[k], runs) / 1e6;
	printf("%4ux%-4u  %-8s  %8.3f  %8.3f  %8.3f  %8.3f  %6.1f  %6.1f  %6.1f\n",
	       w, h, tf->name, ms[C_PACK], ms[C_PACK_CONV], ms[C_UNPACK],
	       ms[C_MEMCPY], ms[C_PACK] / ms[C_MEMCPY],
	       ms[C_PACK_CONV] / ms[C_MEMCPY], ms[C_UNPACK] / ms[C_MEMCPY]);
	free(l.data);
	free(scratch);
	mc_free(&m);
	tbuf_free(&b);
}

static void bench_canon_all(const u32 (*sizes)[2], int nsizes, int runs)
{
	static const char *const names[] = {
		"YUYV", "NV12", "YUV420", "XRGB32",
	};
	unsigned int i;
	int z;

	printf("\ncanonical lines (75%% bars), ms per frame: pack from the format's own kind, pack converting from the other kind, unpack; and / memcpy\n");
	printf("%-9s  %-8s  %8s  %8s  %8s  %8s  %6s  %6s  %6s\n", "size",
	       "format", "pack", "pack cnv", "unpack", "memcpy", "pack/m",
	       "cnv/m", "unp/m");
	for (z = 0; z < nsizes; z++)
		for (i = 0; i < ARRAY_SIZE(names); i++)
			bench_canon(tfmt_find(names[i]), sizes[z][0],
				    sizes[z][1], runs);
}

int main(int argc, char **argv)
{
	static const u32 sizes[][2] = { { 1920, 1080 }, { 3840, 2160 } };
	int runs = argc > 1 ? atoi(argv[1]) : 15;
	unsigned int z;
	int i;

	if (runs < 3 || runs > 64)
		runs = 15;
	printf("%-9s  %-8s  %-7s  %12s  %12s  %6s\n", "size", "format",
	       "pattern", "gen ns", "memcpy ns", "ratio");
	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		u8 *scratch = malloc(vivi_gen_scratch_size(sizes[z][0]));

		for (i = 0; i < ntfmts; i++)
			bench_format(&tfmts[i], sizes[z][0], sizes[z][1], runs,
				     scratch);
		free(scratch);
	}
	printf("worst gen/memcpy, noise left out: single-plane %.2f (target 1.5), multi-plane %.2f (target 2.0)\n",
	       worst[0], worst[1]);
	bench_canon_all(sizes, ARRAY_SIZE(sizes), runs);
	return 0;
}
