// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - speed of the vivi pattern generator next to memcpy
 *
 * For each size, format and pattern: the median time of vivi_gen_fill()
 * over several frames, the median time of a memcpy() of the same number of
 * bytes (separate, pre-faulted source and destination of that size), timed
 * alternately with the fills, and their ratio.
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
	return 0;
}
