// SPDX-License-Identifier: GPL-2.0
/*
 * bench_jpeg.c - speed of the vivi MJPEG encoder next to libjpeg-turbo
 *
 * For each size and picture, on the same raw frame at the same quality and
 * 4:2:2 subsampling, interleaved run by run, the median CPU time per frame
 * of:
 *   gen+enc  vivi_draw_mjpeg(): band drawing and encoding, as the driver does
 *            (for a photograph: a fed YUYV frame converted band by band)
 *   enc      vivi's encoder alone, from the pre-drawn YUV422P frame
 *   turbo    libjpeg-turbo's tjCompressFromYUVPlanes() from the same planes
 * vivi's code is built as the kernel builds it (no SIMD registers);
 * libjpeg-turbo uses its SIMD code.
 *
 * The pictures: vivi's 75% bars with text, and noise; with -p DIR also a
 * natural photograph, DIR/scaled-WxH.rgb and DIR/tiled-WxH.rgb (raw RGB24
 * that photo.py writes), made YUV422P and YUYV by vivi's converter.
 *
 *   bench_jpeg_bin [-p DIR] [runs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <turbojpeg.h>

#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tfmt.h"
#include "tutil.h"
#include "vivi_draw.h"
#include "vivi_jpeg.h"
#include "vivi_scale.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static void die(const char *what)
{
	fprintf(stderr, "bench_jpeg: %s\n", what);
	exit(1);
}

static u8 font[256 * 16];

struct job {
	u32 w, h, q;
	struct vivi_gen_settings s;
	struct vivi_source src;
	const u8 *pl[3];
	u32 st[3];
	u8 *out;
	size_t size;
	void *scratch;
	tjhandle tj;
};

static size_t run_gen(struct job *j)
{
	size_t n;

	if (vivi_draw_mjpeg(&j->src, j->w, j->h, j->q, j->out, j->size, &n,
			    j->scratch))
		die("vivi_draw_mjpeg failed");
	return n;
}

static size_t run_enc(struct job *j)
{
	const u8 *band[3];
	size_t n;
	u32 y;
	int c;

	if (vivi_jpeg_begin(j->scratch, j->w, j->h, j->q, j->out, j->size))
		die("begin failed");
	for (y = 0; y < j->h; y += 8) {
		for (c = 0; c < 3; c++)
			band[c] = j->pl[c] + (size_t)y * j->st[c];
		if (vivi_jpeg_encode_band(j->scratch, band, j->st))
			die("encode failed");
	}
	if (vivi_jpeg_finish(j->scratch, &n))
		die("finish failed");
	return n;
}

static size_t run_turbo(struct job *j)
{
	int strides[3] = { j->st[0], j->st[1], j->st[2] };
	unsigned long n = j->size;
	unsigned char *buf = j->out;

	if (tjCompressFromYUVPlanes(j->tj, (const unsigned char **)j->pl,
				    j->w, strides, j->h, TJSAMP_422, &buf,
				    &n, j->q, TJFLAG_NOREALLOC))
		die(tjGetErrorStr2(j->tj));
	return n;
}

/* Time the three on @j, interleaved; one table row */
static void time_job(struct job *j, const char *name, int runs)
{
	size_t (*const fn[3])(struct job *) = { run_gen, run_enc, run_turbo };
	u64 t[3][64], med[3], t0;
	size_t bytes[3];
	int r, k;

	j->size = vivi_jpeg_max_size(j->w, j->h, j->q);
	j->size = max_t(size_t, j->size, tjBufSize(j->w, j->h, TJSAMP_422));
	j->out = malloc(j->size);
	j->tj = tjInitCompress();
	if (!j->out || !j->tj)
		die("setup failed");
	memset(j->out, 0, j->size);
	/* warm up; the same still frame every run */
	for (k = 0; k < 3; k++)
		bytes[k] = fn[k](j);
	for (r = 0; r < runs; r++)
		for (k = 0; k < 3; k++) {
			t0 = now_ns();
			fn[k](j);
			t[k][r] = now_ns() - t0;
		}
	for (k = 0; k < 3; k++)
		med[k] = median(t[k], runs);
	printf("| %ux%u | %s | %.3f | %.3f | %.3f | %.2f | %.2f | %zu | %zu |\n",
	       j->w, j->h, name, med[0] / 1e6, med[1] / 1e6, med[2] / 1e6,
	       (double)med[0] / med[2], (double)med[1] / med[2], bytes[0],
	       bytes[2]);
	tjDestroy(j->tj);
	free(j->out);
}

static void job_planes(struct job *j, const struct tbuf *b)
{
	int k;

	for (k = 0; k < 3; k++) {
		j->pl[k] = b->plane[k];
		j->st[k] = b->stride[k];
	}
}

static void bench(u32 w, u32 h, u32 pattern, const char *name, int runs)
{
	struct tbuf b;
	struct job j;

	memset(&j, 0, sizeof(j));
	j.w = w;
	j.h = h;
	j.q = VIVI_JPEG_QUALITY_DEF;
	tset_default(&j.s, pattern);
	if (pattern != VIVI_PAT_NOISE) {
		j.s.font = font;
		j.s.text[0] = "000012 00:00:00.400";
		j.s.text[1] = "1920x1080 30fps MJPG";
		j.s.text[2] = "B128 C128 S128 H0";
	}
	j.src.type = VIVI_SOURCE_PATTERN;
	j.src.pattern = &j.s;
	tbuf_alloc(&b, tfmt_find("YUV422P"), w, h, 0);
	if (tgen(&b, &j.s, 0))
		die("draw failed");
	job_planes(&j, &b);
	j.scratch = malloc(vivi_draw_scratch_size(w));
	if (!j.scratch)
		die("setup failed");
	time_job(&j, name, runs);
	free(j.scratch);
	tbuf_free(&b);
}

/* @rgb (RGB24) into @b's format by vivi's converter, as the driver would */
static void convert(const struct tbuf *rgb, struct tbuf *b, const char *fmt)
{
	struct vivi_gen_frame f, g;
	void *scratch = malloc(vivi_scale_scratch_size(rgb->w, rgb->w));

	tbuf_alloc(b, tfmt_find(fmt), rgb->w, rgb->h, 0);
	tbuf_frame(rgb, &f);
	tbuf_frame(b, &g);
	if (!scratch || vivi_scale_frame(&f, &g, VIVI_ASPECT_CROP, scratch))
		die("conversion failed");
	free(scratch);
}

/* A photograph fed as YUYV; 0, or -1 if its file is missing */
static int bench_photo(const char *dir, const char *how, u32 w, u32 h,
		       int runs)
{
	struct tbuf rgb, yuv, yuyv;
	struct vivi_gen_frame fed;
	char path[4096], name[64];
	struct job j;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%ux%u.rgb", dir, how, w, h);
	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	tbuf_alloc(&rgb, tfmt_find("RGB24"), w, h, 0);
	n = fread(rgb.plane[0], 1, (size_t)w * h * 3, f);
	fclose(f);
	if (n != (size_t)w * h * 3)
		die("photograph: short file");
	convert(&rgb, &yuv, "YUV422P");
	convert(&rgb, &yuyv, "YUYV");
	memset(&j, 0, sizeof(j));
	j.w = w;
	j.h = h;
	j.q = VIVI_JPEG_QUALITY_DEF;
	/* no text, no stamp: the fed picture alone */
	tset_default(&j.s, VIVI_PAT_BARS75);
	tbuf_frame(&yuyv, &fed);
	j.src.type = VIVI_SOURCE_FED;
	j.src.pattern = &j.s;
	j.src.fed = &fed;
	j.src.aspect = VIVI_ASPECT_CROP;
	job_planes(&j, &yuv);
	j.scratch = malloc(vivi_draw_fed_scratch_size(w, w));
	if (!j.scratch)
		die("setup failed");
	snprintf(name, sizeof(name), "photograph, %s", how);
	time_job(&j, name, runs);
	free(j.scratch);
	tbuf_free(&yuyv);
	tbuf_free(&yuv);
	tbuf_free(&rgb);
	return 0;
}

int main(int argc, char **argv)
{
	static const u32 sizes[][2] = { { 1280, 720 }, { 1920, 1080 } };
	const char *photo = NULL;
	unsigned int z;
	int runs, bad = 0;

	if (argc > 2 && !strcmp(argv[1], "-p")) {
		photo = argv[2];
		argc -= 2;
		argv += 2;
	}
	runs = argc > 1 ? atoi(argv[1]) : 21;
	if (runs < 3 || runs > 64)
		runs = 21;
	tu_make_font(font);
	printf("MJPEG 4:2:2, quality %d, median of %d interleaved runs, ms of CPU time per frame\n\n",
	       VIVI_JPEG_QUALITY_DEF, runs);
	printf("| size | pattern | vivi gen+enc | vivi enc | libjpeg-turbo | gen+enc / turbo | enc / turbo | vivi bytes | turbo bytes |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		bench(sizes[z][0], sizes[z][1], VIVI_PAT_BARS75,
		      "75% bars + text", runs);
		bench(sizes[z][0], sizes[z][1], VIVI_PAT_NOISE, "noise", runs);
	}
	printf("\ntargets: 75%% bars <= 1.0, noise <= 4.0 (gen+enc / turbo)\n");
	if (!photo)
		return 0;
	printf("\nA natural photograph (%s/): fed as YUYV, fed+enc = vivi_draw_mjpeg() of the fed frame\n\n",
	       photo);
	printf("| size | picture | vivi fed+enc | vivi enc | libjpeg-turbo | fed+enc / turbo | enc / turbo | vivi bytes | turbo bytes |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		bad |= bench_photo(photo, "scaled", sizes[z][0], sizes[z][1],
				   runs);
		bad |= bench_photo(photo, "tiled", sizes[z][0], sizes[z][1],
				   runs);
	}
	printf("\ntarget: photograph <= 1.5 (enc / turbo, the same planes)\n");
	return bad ? 1 : 0;
}
