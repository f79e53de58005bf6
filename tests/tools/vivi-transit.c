// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-transit - a seeded sequence of stream transitions on one open file:
 * format (every one ENUM_FMT offers, MJPEG too), size, test pattern and
 * JPEG quality change between streams, so that state the driver keeps
 * across streams (its generator cache) must follow every change.
 *
 * Usage: vivi-transit [-x] [-s SEED] [-n STEPS] /dev/videoN
 *
 * Sets OSD Text to None, the frame stamp off and motion speed 0. The
 * first steps are fixed (the transitions a review found broken), the rest
 * follow from the seed (printed; -s replays it); -x leaves out the fixed
 * ones. Each step: S_FMT (G_FMT
 * must show exactly it), REQBUFS, STREAMON, two frames each within 5 s
 * of poll(), their bytesused and every pixel checked, STREAMOFF within
 * 10 s (a watchdog thread says so if not: a hung STREAMOFF sleeps
 * uninterruptibly), REQBUFS 0. The pixels are checked against the unit
 * tests' reference decoder and pattern definitions (tests/unit/tfmt.c),
 * never the driver's code: raw frames exactly, but within 2 columns of
 * a bar edge (chroma subsampling mixes the bars there); MJPEG decoded by
 * libjpeg, pixels at least 8 columns from a bar edge within a bound per
 * quality.
 * Prints one PASS/FAIL line per kind of check; a FAIL names the first
 * failing step. Exits 1 if anything failed.
 */
#include "vivi-tool.h"
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <unistd.h>
#include <jpeglib.h>
#include <linux/kernel.h>

#include "../unit/tfmt.h"

/* buffers asked for; the driver may raise it to its minimum */
#define NBUFS		3
#define MAX_BUFS	32
#define FRAMES		2
#define POLL_MS		5000
#define STREAMOFF_S	10
/* a hung STREAMOFF: after this the watchdog ends the run */
#define GIVE_UP_S	60
#define MAX_FMTS	64
#define MAX_SIZES	32

struct step {
	uint32_t fourcc;
	unsigned int w, h;
	unsigned int pattern;
	unsigned int quality;	/* MJPEG only */
};

/* the kinds of check, each with one result line */
enum { K_FORMAT, K_FRAMES, K_PIXELS, K_STREAMOFF, K_COUNT };

static const char *const kind_pass[K_COUNT] = {
	"every S_FMT took exactly its format and size",
	"every frame arrived within 5 s with the right bytesused",
	"every frame's pixels match the pattern",
	"every STREAMOFF returned within 10 s",
};

/* the first failure of each kind; the watchdog reports its kind early */
static char first_fail[K_COUNT][320];
static unsigned int n_fail[K_COUNT];
static int reported[K_COUNT];
static unsigned int steps_done;
/*
 * The MJPEG qualities, the largest pixel error allowed in bar interiors
 * and solids at each (the encoder's measured worst, 7, 3 and 1 over 48
 * frames, plus one), and the largest seen
 */
static const unsigned int jpeg_qualities[] = { 80, 95, 100 };
static const int jpeg_tol[] = { 8, 4, 2 };
static int jpeg_worst[3] = { -1, -1, -1 };
static unsigned long long seed;

static const char *path;
static int fd;

static const char *pattern_name(unsigned int p)
{
	static const char *const names[VIVI_PAT_COUNT] = {
		"75% bars", "100% bars", "bars+box", "checkerboard",
		"h-ramp", "v-ramp", "black", "white", "red", "green", "blue",
		"noise",
	};

	return p < VIVI_PAT_COUNT ? names[p] : "?";
}

static void step_name(const struct step *s, unsigned int i, char *out,
		      size_t n)
{
	int len = snprintf(out, n, "step %u: %.4s %ux%u %s", i,
			   (const char *)&s->fourcc, s->w, s->h,
			   pattern_name(s->pattern));

	if (s->fourcc == V4L2_PIX_FMT_MJPEG && len > 0 && (size_t)len < n)
		snprintf(out + len, n - len, " quality %u", s->quality);
}

static const struct step *cur_step;
static unsigned int cur_index;

static void __attribute__((format(printf, 2, 3)))
step_fail(int kind, const char *fmt, ...)
{
	char name[96];
	int len;
	va_list ap;

	if (n_fail[kind]++)
		return;
	step_name(cur_step, cur_index, name, sizeof(name));
	len = snprintf(first_fail[kind], sizeof(first_fail[0]), "%s: ", name);
	va_start(ap, fmt);
	vsnprintf(first_fail[kind] + len, sizeof(first_fail[0]) - len, fmt,
		  ap);
	va_end(ap);
}

static void summary(void)
{
	int k;

	for (k = 0; k < K_COUNT; k++) {
		if (n_fail[k] && reported[k])
			printf("transit: %s: %u failures in %u steps\n",
			       kind_pass[k], n_fail[k], steps_done);
		else if (n_fail[k])
			result(0, kind_pass[k], "%u failures in %u steps, first %s",
			       n_fail[k], steps_done, first_fail[k]);
		else if (k == K_PIXELS)
			result(1, kind_pass[k],
			       "%u transitions, seed %llu; MJPEG's worst error at quality 80, 95, 100: %d, %d, %d (-1: none), bounds %d, %d, %d",
			       steps_done, seed, jpeg_worst[0], jpeg_worst[1],
			       jpeg_worst[2], jpeg_tol[0], jpeg_tol[1],
			       jpeg_tol[2]);
		else
			result(1, kind_pass[k], "%u transitions, seed %llu",
			       steps_done, seed);
	}
}

/* ---- the STREAMOFF watchdog ---- */

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond = PTHREAD_COND_INITIALIZER;
static int wd_armed;

/*
 * A STREAMOFF that does not return sleeps uninterruptibly: say so while
 * it hangs, and end the run once it is clearly stuck
 */
static void *watchdog(void *arg)
{
	struct timespec t;

	(void)arg;
	pthread_mutex_lock(&wd_lock);
	for (;;) {
		while (!wd_armed)
			pthread_cond_wait(&wd_cond, &wd_lock);
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_sec += STREAMOFF_S;
		while (wd_armed &&
		       pthread_cond_timedwait(&wd_cond, &wd_lock, &t) !=
		       ETIMEDOUT)
			;
		if (!wd_armed)
			continue;
		step_fail(K_STREAMOFF, "STREAMOFF blocked for %d s",
			  STREAMOFF_S);
		if (!reported[K_STREAMOFF]++)
			result(0, kind_pass[K_STREAMOFF], "first %s",
			       first_fail[K_STREAMOFF]);
		t.tv_sec += GIVE_UP_S - STREAMOFF_S;
		while (wd_armed &&
		       pthread_cond_timedwait(&wd_cond, &wd_lock, &t) !=
		       ETIMEDOUT)
			;
		if (!wd_armed)
			continue;
		printf("transit: STREAMOFF still blocked after %d s, giving up\n",
		       GIVE_UP_S);
		steps_done = cur_index + 1;
		summary();
		printf("transit: end\n");
		fflush(stdout);
		_exit(1);
	}
	return NULL;
}

static void wd_set(int armed)
{
	pthread_mutex_lock(&wd_lock);
	wd_armed = armed;
	pthread_cond_signal(&wd_cond);
	pthread_mutex_unlock(&wd_lock);
}

/* ---- controls ---- */

static void set_ctrl(uint32_t id, int32_t val, const char *what)
{
	struct v4l2_control c = { .id = id, .value = val };

	if (xioctl(fd, VIDIOC_S_CTRL, &c))
		die("%s: S_CTRL %s %d: %s", path, what, val, strerror(errno));
}

/* the id of the control called @name, or die */
static uint32_t ctrl_by_name(const char *name)
{
	struct v4l2_query_ext_ctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };

	while (!xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q)) {
		if (!strcmp(q.name, name))
			return q.id;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	die("%s: no control '%s'", path, name);
}

static void plain_frames(void)
{
	set_ctrl(ctrl_by_name("OSD Text"), 2, "OSD Text (None)");
	set_ctrl(ctrl_by_name("Frame Stamp"), 0, "Frame Stamp");
	set_ctrl(ctrl_by_name("Motion Speed"), 0, "Motion Speed");
}

/* ---- the steps ---- */

static uint32_t fmts[MAX_FMTS];
static unsigned int n_fmts;

static int offered(uint32_t fourcc)
{
	unsigned int i;

	for (i = 0; i < n_fmts; i++)
		if (fmts[i] == fourcc)
			return 1;
	return 0;
}

/* the discrete sizes of @fourcc; returns how many */
static unsigned int frame_sizes(uint32_t fourcc, unsigned int sz[][2])
{
	struct v4l2_frmsizeenum e = { .pixel_format = fourcc };

	while (e.index < MAX_SIZES && !xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &e) &&
	       e.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		sz[e.index][0] = e.discrete.width;
		sz[e.index][1] = e.discrete.height;
		e.index++;
	}
	return e.index;
}

/* mostly up to 1280x720, for speed under TCG; one in 12 any size */
static void pick_size(struct rng *r, struct step *s)
{
	unsigned int sz[MAX_SIZES][2], n, small = 0, i, k;

	n = frame_sizes(s->fourcc, sz);
	if (!n)
		die("%s: no frame sizes for %.4s", path, (char *)&s->fourcc);
	for (i = 0; i < n; i++)
		small += sz[i][0] * sz[i][1] <= 1280 * 720;
	if (!small || !rnd(r, 12)) {
		k = rnd(r, n);
	} else {
		k = rnd(r, small);
		for (i = 0; sz[i][0] * sz[i][1] > 1280 * 720 || k--; i++)
			;
		k = i;
	}
	s->w = sz[k][0];
	s->h = sz[k][1];
}

static void random_step(struct rng *r, struct step *s)
{
	static const unsigned int raw[] = { 0, 1, 3, 6, 7, 8, 9, 10 };
	static const unsigned int jpeg[] = { 0, 1, 6, 7, 8, 9, 10 };

	s->fourcc = fmts[rnd(r, n_fmts)];
	pick_size(r, s);
	if (s->fourcc == V4L2_PIX_FMT_MJPEG) {
		s->pattern = jpeg[rnd(r, ARRAY_SIZE(jpeg))];
		s->quality = jpeg_qualities[rnd(r, ARRAY_SIZE(jpeg_qualities))];
	} else {
		s->pattern = raw[rnd(r, ARRAY_SIZE(raw))];
		s->quality = 0;
	}
}

/*
 * The review's transitions first: MJPEG, a raw format, MJPEG again left
 * the generator cache half valid (no frame, STREAMOFF hung); and Bayer to
 * MJPEG. A step whose format is not offered is left out.
 */
static const struct step fixed[] = {
	{ V4L2_PIX_FMT_MJPEG, 1024, 768, VIVI_PAT_BARS75, 95 },
	{ V4L2_PIX_FMT_RGB24, 640, 480, VIVI_PAT_CHECKER, 0 },
	{ V4L2_PIX_FMT_MJPEG, 1024, 768, VIVI_PAT_BARS75, 95 },
	{ V4L2_PIX_FMT_SBGGR8, 640, 480, VIVI_PAT_CHECKER, 0 },
	{ V4L2_PIX_FMT_MJPEG, 1280, 720, VIVI_PAT_BARS75, 95 },
};

/* ---- the pixel checks ---- */

static const struct tfmt *tfmt_of(uint32_t fourcc)
{
	int i;

	for (i = 0; i < ntfmts; i++)
		if (tfmts[i].fourcc == fourcc)
			return &tfmts[i];
	return NULL;
}

static int is_bars(unsigned int p)
{
	return p == VIVI_PAT_BARS75 || p == VIVI_PAT_BARS100;
}

/* 1 if a bar edge lies within @d columns of column @x */
static int near_edge(const struct step *s, unsigned int x, unsigned int d)
{
	int a[3], b[3];
	unsigned int lo = x > d ? x - d : 0;
	unsigned int hi = x + d < s->w ? x + d : s->w - 1;

	if (!is_bars(s->pattern))
		return 0;
	tpattern_rgb(s->pattern, s->w, s->h, lo, 0, a);
	tpattern_rgb(s->pattern, s->w, s->h, hi, 0, b);
	return memcmp(a, b, sizeof(a)) != 0;
}

/* rows a band decodes at once: even, so 4:2:0 chroma rows stay whole */
#define BAND	16

/* the planes of a raw frame at @base, as V4L2's single-plane API lays them */
static void frame_tbuf(struct tbuf *b, const struct tfmt *tf,
		       const struct v4l2_pix_format *pix, uint8_t *base)
{
	int i;

	tbuf_layout(b, tf, pix->width, pix->height);
	b->plane[0] = base;
	b->stride[0] = pix->bytesperline;
	for (i = 1; i < b->np; i++) {
		b->stride[i] = tf->kind == TK_PLANAR ? pix->bytesperline / 2 :
			       pix->bytesperline;
		b->plane[i] = b->plane[i - 1] +
			      (size_t)b->stride[i - 1] * b->rows[i - 1];
	}
}

/* rows @y0.. of @b, as a tbuf of their own */
static void band_tbuf(struct tbuf *band, const struct tbuf *b, unsigned int y0)
{
	int i;

	*band = *b;
	band->h = b->h - y0 < BAND ? b->h - y0 : BAND;
	for (i = 0; i < b->np; i++) {
		unsigned int cy = i && b->tf->vsub == 2 ? y0 / 2 : y0;

		band->plane[i] += (size_t)cy * b->stride[i];
	}
}

/* compare the decoded band @d (rows y0..) with the pattern; 0 if it fails */
static int check_band(const struct step *s, const struct tfmt *tf,
		      const struct dpx *d, unsigned int y0, unsigned int rows,
		      const uint8_t *skip)
{
	unsigned int x, y;
	struct dpx e;
	int rgb[3];

	for (y = 0; y < rows; y++)
		for (x = 0; x < s->w; x++) {
			const struct dpx *got = &d[(size_t)y * s->w + x];

			if (skip[x])
				continue;
			tpattern_rgb(s->pattern, s->w, s->h, x, y0 + y, rgb);
			texpect(tf, x, y0 + y, rgb, &e);
			if (tdpx_match(got, &e))
				continue;
			step_fail(K_PIXELS, "%s pixel (%u,%u): got %d,%d,%d want %d,%d,%d",
				  tf->name, x, y0 + y, got->c[0], got->c[1],
				  got->c[2], e.c[0], e.c[1], e.c[2]);
			return 0;
		}
	return 1;
}

/* every pixel of a raw frame, every plane; 0 if it fails */
static int check_raw(const struct step *s, const struct v4l2_pix_format *pix,
		     uint8_t *mem, size_t len)
{
	const struct tfmt *tf = tfmt_of(s->fourcc);
	struct dpx *d = calloc((size_t)BAND * s->w, sizeof(*d));
	uint8_t *skip = calloc(s->w, 1);
	struct tbuf b, band;
	unsigned int x, y0;
	int ok = 1;

	if (!d || !skip)
		die("out of memory");
	if (!tf) {
		step_fail(K_PIXELS, "no reference decoder in tfmt.c");
		ok = 0;
		goto out;
	}
	frame_tbuf(&b, tf, pix, mem);
	if (b.plane[b.np - 1] + (size_t)b.stride[b.np - 1] * b.rows[b.np - 1] >
	    mem + len) {
		step_fail(K_PIXELS, "the planes need more than the %zu-byte buffer",
			  len);
		ok = 0;
		goto out;
	}
	for (x = 0; x < s->w; x++)
		skip[x] = near_edge(s, x, 2);
	for (y0 = 0; ok && y0 < s->h; y0 += BAND) {
		band_tbuf(&band, &b, y0);
		if (tdecode(&band, d)) {
			step_fail(K_PIXELS, "an X field is not all ones in rows %u..",
				  y0);
			ok = 0;
		} else {
			ok = check_band(s, tf, d, y0, band.h, skip);
		}
	}
out:
	free(skip);
	free(d);
	return ok;
}

struct jerr {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
};

static void jerr_exit(j_common_ptr c)
{
	struct jerr *e = (struct jerr *)c->err;

	c->err->format_message(c, e->msg);
	longjmp(e->jump, 1);
}

/* the largest channel error of decoded row @y against the pattern */
static int row_error(const struct step *s, const uint8_t *row, unsigned int y,
		     const uint8_t *skip, unsigned int *worst_x)
{
	unsigned int x;
	int rgb[3], i, err, worst = 0;

	for (x = 0; x < s->w; x++) {
		if (skip[x])
			continue;
		tpattern_rgb(s->pattern, s->w, s->h, x, y, rgb);
		for (i = 0; i < 3; i++) {
			err = abs(row[3 * x + i] - rgb[i]);
			if (err > worst) {
				worst = err;
				*worst_x = x;
			}
		}
	}
	return worst;
}

/* the worst pixel of a JPEG */
struct jworst {
	int err;
	unsigned int x, y;
};

/* decode @c's rows into @row one by one, each compared with the pattern */
static int jpeg_scan(struct jpeg_decompress_struct *c, const struct step *s,
		     uint8_t *row, const uint8_t *skip, struct jworst *w)
{
	unsigned int y, x = 0;
	int err;

	jpeg_read_header(c, TRUE);
	c->out_color_space = JCS_RGB;
	jpeg_start_decompress(c);
	if (c->output_width != s->w || c->output_height != s->h) {
		step_fail(K_PIXELS, "the JPEG is %ux%u", c->output_width,
			  c->output_height);
		return 0;
	}
	for (y = 0; y < s->h; y++) {
		jpeg_read_scanlines(c, &row, 1);
		err = row_error(s, row, y, skip, &x);
		if (err > w->err) {
			w->err = err;
			w->x = x;
			w->y = y;
		}
	}
	jpeg_finish_decompress(c);
	return 1;
}

/* jpeg_scan(), 0 with a FAIL if libjpeg gives up on the data */
static int jpeg_decode(struct jpeg_decompress_struct *c, struct jerr *e,
		       const struct step *s, uint8_t *row,
		       const uint8_t *skip, struct jworst *w)
{
	if (setjmp(e->jump)) {
		step_fail(K_PIXELS, "libjpeg: %s", e->msg);
		return 0;
	}
	return jpeg_scan(c, s, row, skip, w);
}

/* @quality's index in jpeg_qualities[] */
static unsigned int quality_index(unsigned int quality)
{
	unsigned int q = 0;

	while (q < ARRAY_SIZE(jpeg_qualities) - 1 &&
	       jpeg_qualities[q] != quality)
		q++;
	return q;
}

/* decode one MJPEG frame, every pixel off the bar edges within its bound */
static int check_jpeg(const struct step *s, const uint8_t *mem, size_t used)
{
	struct jpeg_decompress_struct c;
	struct jworst w = { 0 };
	struct jerr e;
	uint8_t *row = malloc((size_t)s->w * 3), *skip = calloc(s->w, 1);
	const unsigned int q = quality_index(s->quality);
	unsigned int x;
	int ok = 0;

	if (!row || !skip)
		die("out of memory");
	for (x = 0; x < s->w; x++)
		skip[x] = near_edge(s, x, 8);
	c.err = jpeg_std_error(&e.mgr);
	e.mgr.error_exit = jerr_exit;
	jpeg_create_decompress(&c);
	jpeg_mem_src(&c, mem, used);
	if (!jpeg_decode(&c, &e, s, row, skip, &w))
		;
	else if (e.mgr.num_warnings)
		step_fail(K_PIXELS, "libjpeg: %ld warnings",
			  e.mgr.num_warnings);
	else if (w.err > jpeg_tol[q])
		step_fail(K_PIXELS, "pixel (%u,%u) off by %d, bound %d", w.x,
			  w.y, w.err, jpeg_tol[q]);
	else
		ok = 1;
	if (w.err > jpeg_worst[q])
		jpeg_worst[q] = w.err;
	jpeg_destroy_decompress(&c);
	free(row);
	free(skip);
	return ok;
}

/* bytesused: a raw frame is whole, a JPEG runs from SOI to EOI */
static int check_used(const struct step *s, const struct v4l2_buffer *b,
		      const uint8_t *mem, const struct v4l2_pix_format *pix)
{
	uint32_t n = b->bytesused;

	if (b->flags & V4L2_BUF_FLAG_ERROR) {
		step_fail(K_FRAMES, "frame %u has the ERROR flag", b->sequence);
		return 0;
	}
	if (s->fourcc != V4L2_PIX_FMT_MJPEG) {
		if (n == pix->sizeimage)
			return 1;
		step_fail(K_FRAMES, "bytesused %u, sizeimage %u", n,
			  pix->sizeimage);
		return 0;
	}
	if (n >= 4 && n <= pix->sizeimage && mem[0] == 0xff &&
	    mem[1] == 0xd8 && mem[n - 2] == 0xff && mem[n - 1] == 0xd9)
		return 1;
	step_fail(K_FRAMES, "bytesused %u (sizeimage %u), not SOI to EOI", n,
		  pix->sizeimage);
	return 0;
}

/* ---- one step ---- */

/* S_FMT, then G_FMT must show exactly @s; 0 if not */
static int step_format(const struct step *s, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = s->fourcc;
	f->fmt.pix.width = s->w;
	f->fmt.pix.height = s->h;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	if (xioctl(fd, VIDIOC_S_FMT, f)) {
		step_fail(K_FORMAT, "S_FMT: %s", strerror(errno));
		return 0;
	}
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(fd, VIDIOC_G_FMT, f))
		die("%s: G_FMT: %s", path, strerror(errno));
	if (f->fmt.pix.pixelformat == s->fourcc && f->fmt.pix.width == s->w &&
	    f->fmt.pix.height == s->h)
		return 1;
	step_fail(K_FORMAT, "G_FMT gives %.4s %ux%u",
		  (char *)&f->fmt.pix.pixelformat, f->fmt.pix.width,
		  f->fmt.pix.height);
	return 0;
}

/* dequeue, check and requeue FRAMES frames; 0 once one fails */
static int step_frames(const struct step *s, const struct v4l2_pix_format *pix,
		       void **mem, size_t *len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct v4l2_buffer b;
	int i, r, ok;

	for (i = 0; i < FRAMES; i++) {
		r = poll(&p, 1, POLL_MS);
		if (r <= 0) {
			step_fail(K_FRAMES, "frame %d: %s", i,
				  r ? strerror(errno) : "none within 5 s");
			return 0;
		}
		mmap_buffer(&b, 0);
		if (xioctl(fd, VIDIOC_DQBUF, &b)) {
			step_fail(K_FRAMES, "frame %d: DQBUF: %s", i,
				  strerror(errno));
			return 0;
		}
		ok = check_used(s, &b, mem[b.index], pix);
		if (ok && s->fourcc == V4L2_PIX_FMT_MJPEG)
			check_jpeg(s, mem[b.index], b.bytesused);
		else if (ok)
			check_raw(s, pix, mem[b.index], len[b.index]);
		qbuf_mmap(fd, path, b.index);
	}
	return 1;
}

static void run_step(const struct step *s, unsigned int index)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_format f;
	void *mem[MAX_BUFS];
	size_t len[MAX_BUFS];
	unsigned int n, i;

	cur_step = s;
	cur_index = index;
	set_ctrl(V4L2_CID_TEST_PATTERN, s->pattern, "test pattern");
	if (s->fourcc == V4L2_PIX_FMT_MJPEG)
		set_ctrl(V4L2_CID_JPEG_COMPRESSION_QUALITY, s->quality,
			 "JPEG quality");
	if (!step_format(s, &f))
		return;
	n = reqbufs_mmap(fd, path, NBUFS);
	if (n > MAX_BUFS)
		die("%s: REQBUFS gave %u buffers", path, n);
	map_and_queue(fd, path, n, mem, len);
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		die("%s: STREAMON: %s", path, strerror(errno));
	step_frames(s, &f.fmt.pix, mem, len);
	wd_set(1);
	if (xioctl(fd, VIDIOC_STREAMOFF, &type))
		die("%s: STREAMOFF: %s", path, strerror(errno));
	wd_set(0);
	for (i = 0; i < n; i++)
		munmap(mem[i], len[i]);
	reqbufs_mmap(fd, path, 0);
}

int main(int argc, char **argv)
{
	unsigned int steps = 60, i;
	size_t k = 0;
	char name[96];
	struct rng r;
	pthread_t wd;
	struct step s;
	int opt, have_seed = 0;

	result_group = "transit";
	result_details_on_pass = 1;
	while ((opt = getopt(argc, argv, "xs:n:")) != -1) {
		if (opt == 'x') {
			k = ARRAY_SIZE(fixed);
		} else if (opt == 's') {
			seed = strtoull(optarg, NULL, 0);
			have_seed = 1;
		} else if (opt == 'n') {
			steps = parse_uint(optarg, "step count");
		} else {
			optind = argc;
			break;
		}
	}
	if (optind != argc - 1)
		die("usage: vivi-transit [-x] [-s SEED] [-n STEPS] /dev/videoN");
	path = argv[optind];
	if (!have_seed)
		seed = (unsigned long long)time(NULL) * 1000003ULL ^ getpid();
	printf("transit: seed %llu, %u steps on %s (replay: vivi-transit %s-s %llu -n %u %s)\n",
	       seed, steps, path, k ? "-x " : "", seed, steps, path);
	fflush(stdout);
	r.s = seed;
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	n_fmts = enum_formats(fd, fmts, MAX_FMTS);
	if (!n_fmts)
		die("%s: no formats", path);
	plain_frames();
	if (pthread_create(&wd, NULL, watchdog, NULL))
		die("pthread_create failed");
	for (i = 0; i < steps; i++) {
		while (k < ARRAY_SIZE(fixed) && !offered(fixed[k].fourcc))
			k++;
		if (k < ARRAY_SIZE(fixed))
			s = fixed[k++];
		else
			random_step(&r, &s);
		step_name(&s, i, name, sizeof(name));
		printf("transit: %s\n", name);
		fflush(stdout);
		run_step(&s, i);
		steps_done = i + 1;
	}
	close(fd);
	summary();
	printf("transit: end\n");
	return result_failures ? 1 : 0;
}
