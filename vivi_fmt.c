// SPDX-License-Identifier: GPL-2.0
/*
 * The format layer of vivi: formats, sizes, frame intervals and the
 * geometry of each buffer. The raw formats and their layouts are the
 * packer's table (vivi_pack.c); this file adds MJPEG in front of them.
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <media/v4l2-common.h>

#include "vivi_fmt.h"
#include "vivi_gen.h"
#include "vivi_jpeg.h"
#include "vivi_pack.h"

/*
 * The compressed formats, which ENUM_FMT lists first, as UVC cameras list
 * MJPEG; the raw ones follow in the packer's table order
 */
static const u32 vivi_fmt_compressed_table[] = { V4L2_PIX_FMT_MJPEG };

static_assert(ARRAY_SIZE(vivi_fmt_compressed_table) + VIVI_PACK_FORMATS <=
	      VIVI_MAX_FORMATS);

/*
 * The built-in sizes, smallest first. Browsers probe a fixed list of
 * common webcam sizes with TRY_FMT and take only exact matches
 * (libwebrtc's device_info_v4l2.cc), hence QCIF 176x144, CIF 352x288 and
 * 960x720 beside the usual ones.
 */
static const struct vivi_size vivi_sizes[] = {
	{ 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 },
	{ 640, 360 }, { 640, 480 }, { 800, 600 }, { 960, 720 },
	{ 1024, 768 }, { 1280, 720 }, { 1920, 1080 }, { 2560, 1440 },
	{ VIVI_MAX_WIDTH, VIVI_MAX_HEIGHT },
};

/*
 * The built-in frame intervals, shortest first, as ENUM_FRAMEINTERVALS
 * lists them. 12.5 fps is what many webcams (and vivid's webcam input)
 * offer at 720p.
 */
static const struct v4l2_fract vivi_intervals[] = {
	{ 1, 120 }, { 1, 60 }, { 1, 50 }, { 1, 30 }, { 1, 25 }, { 1, 15 },
	{ 2, 25 }, { 1, 10 }, { 1, 5 },
};

static_assert(ARRAY_SIZE(vivi_sizes) <= VIVI_MAX_SIZES);
static_assert(ARRAY_SIZE(vivi_intervals) <= VIVI_MAX_RATES);

/**
 * vivi_fmt_compressed() - true for a format of variable size (MJPEG)
 * @fourcc: V4L2_PIX_FMT_*
 *
 * Return: true if @fourcc is one of the compressed formats
 */
bool vivi_fmt_compressed(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vivi_fmt_compressed_table); i++)
		if (vivi_fmt_compressed_table[i] == fourcc)
			return true;
	return false;
}

/**
 * vivi_fmt_known() - true if vivi can offer a format
 * @fourcc: V4L2_PIX_FMT_*
 *
 * Return: true if @fourcc is MJPEG or a layout of the packer's table
 */
bool vivi_fmt_known(u32 fourcc)
{
	return vivi_fmt_compressed(fourcc) || vivi_layout_find(fourcc);
}

/**
 * vivi_fmt_check_table() - check that every format can be offered
 * @void: no arguments
 *
 * The MJPEG encoder's worst case must fit the largest buffer. A table
 * that breaks this is a bug, caught when the module loads.
 *
 * Return: 0, or -EINVAL after logging why.
 */
int vivi_fmt_check_table(void)
{
	size_t jpeg_max = vivi_jpeg_max_size(VIVI_MAX_WIDTH, VIVI_MAX_HEIGHT,
					     VIVI_JPEG_QUALITY_MAX);

	if (!jpeg_max || jpeg_max > VIVI_MAX_SIZEIMAGE) {
		pr_err("vivi: MJPEG needs %zu bytes, more than %u\n", jpeg_max,
		       VIVI_MAX_SIZEIMAGE);
		return -EINVAL;
	}
	return 0;
}

/**
 * vivi_fmt_list_all() - every format, in ENUM_FMT order
 * @list: filled in
 */
void vivi_fmt_list_all(struct vivi_fmt_list *list)
{
	const struct vivi_layout *l;
	unsigned int i;

	list->count = 0;
	for (i = 0; i < ARRAY_SIZE(vivi_fmt_compressed_table); i++)
		list->fourcc[list->count++] = vivi_fmt_compressed_table[i];
	for (i = 0; (l = vivi_layout_at(i)); i++)
		list->fourcc[list->count++] = l->fourcc;
}

/**
 * vivi_fmt_offered() - true if @list holds @fourcc
 * @list: a device's formats
 * @fourcc: V4L2_PIX_FMT_*
 *
 * Return: true if the device offers @fourcc
 */
bool vivi_fmt_offered(const struct vivi_fmt_list *list, u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < list->count; i++)
		if (list->fourcc[i] == fourcc)
			return true;
	return false;
}

/* One entry of the formats= parameter; logs why it is refused */
static int vivi_fmt_list_add(struct vivi_fmt_list *list, const char *tok,
			     size_t len)
{
	char c[4] = { ' ', ' ', ' ', ' ' };
	u32 fcc;

	if (!len || len > 4) {
		pr_err("vivi: formats: bad entry '%.*s': a fourcc has 1 to 4 characters\n",
		       (int)len, tok);
		return -EINVAL;
	}
	memcpy(c, tok, len);
	fcc = v4l2_fourcc(c[0], c[1], c[2], c[3]);
	if (!vivi_fmt_known(fcc)) {
		pr_err("vivi: formats: unsupported format '%.*s'\n", (int)len,
		       tok);
		return -EINVAL;
	}
	if (vivi_fmt_offered(list, fcc)) {
		pr_err("vivi: formats: '%.*s' is listed twice\n", (int)len, tok);
		return -EINVAL;
	}
	list->fourcc[list->count++] = fcc;
	return 0;
}

/**
 * vivi_fmt_list_parse() - the formats of a "YUYV,NV12" list, in its order
 * @list: filled in
 * @spec: comma-separated fourccs; NULL or empty means every format
 *
 * Return: 0, or -EINVAL after logging the bad entry
 */
int vivi_fmt_list_parse(struct vivi_fmt_list *list, const char *spec)
{
	list->count = 0;
	if (!spec || !*spec) {
		vivi_fmt_list_all(list);
		return 0;
	}
	for (;;) {
		const char *end = strchrnul(spec, ',');
		int ret = vivi_fmt_list_add(list, spec, end - spec);

		if (ret)
			return ret;
		if (!*end)
			return 0;
		spec = end + 1;
	}
}

/**
 * vivi_modes_defaults() - the built-in sizes and rates
 * @m: filled in whole, whatever it held
 *
 * The 13 sizes and 9 rates of the tables above, the fast rates only at
 * small sizes, and the automatic power-on mode.
 */
void vivi_modes_defaults(struct vivi_modes *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->size, vivi_sizes, sizeof(vivi_sizes));
	m->n_sizes = ARRAY_SIZE(vivi_sizes);
	memcpy(m->interval, vivi_intervals, sizeof(vivi_intervals));
	m->n_intervals = ARRAY_SIZE(vivi_intervals);
	m->size_limits = true;
}

/**
 * vivi_fmt_size_suits() - true if a format can have a frame size
 * @fourcc: V4L2_PIX_FMT_*, one vivi has
 * @width: in pixels
 * @height: in lines
 *
 * Chroma shared by two pixels (4:2:2, 4:2:0) or a 2x2 Bayer tile needs an
 * even width, and vertical sharing an even height; MJPEG and the formats
 * with a sample a pixel take any size.
 *
 * Return: true if @fourcc can be @width x @height
 */
bool vivi_fmt_size_suits(u32 fourcc, u32 width, u32 height)
{
	const struct vivi_layout *l = vivi_layout_find(fourcc);
	bool odd_w = true, odd_h = true;
	unsigned int p;

	if (!l)
		return vivi_fmt_compressed(fourcc);
	for (p = 0; p < l->nplanes; p++) {
		if (l->pl[p].type != VIVI_PT_ENC)
			odd_w = false;
		if (l->pl[p].type == VIVI_PT_BAYER || l->pl[p].vsub > 1)
			odd_h = false;
	}
	return (odd_w || !(width & 1)) && (odd_h || !(height & 1));
}

/**
 * vivi_modes_def_size() - the power-on frame size
 * @m: the device's modes
 *
 * Return: @m's default size, or the offered size nearest 640x480
 */
struct vivi_size vivi_modes_def_size(const struct vivi_modes *m)
{
	const struct vivi_size *sz;

	if (m->def_size.width)
		return m->def_size;
	sz = v4l2_find_nearest_size(m->size, m->n_sizes, width, height,
				    VIVI_DEF_WIDTH, VIVI_DEF_HEIGHT);
	return *sz;
}

/**
 * vivi_modes_max_width() - the widest size offered
 * @m: the device's modes
 *
 * Return: the largest width of @m
 */
u32 vivi_modes_max_width(const struct vivi_modes *m)
{
	u32 w = 0;
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++)
		w = max(w, m->size[i].width);
	return w;
}

/**
 * vivi_modes_max_sizeimage() - the largest buffer a format of @m needs
 * @m: the device's modes
 *
 * A raw frame takes at most 8 bytes a pixel (4, stride doubled); MJPEG
 * its encoder's worst case at quality 100, which for small frames is
 * mostly headers.
 *
 * Return: bytes, the bound of CREATE_BUFS
 */
size_t vivi_modes_max_sizeimage(const struct vivi_modes *m)
{
	size_t most = 0;
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++) {
		u32 w = m->size[i].width, h = m->size[i].height;

		most = max3(most, (size_t)w * h * 8,
			    vivi_jpeg_max_size(w, h, VIVI_JPEG_QUALITY_MAX));
	}
	return most;
}

/**
 * vivi_fmt_size() - the frame size at @index, as ENUM_FRAMESIZES lists it
 * @m: the device's modes
 * @index: 0 for the smallest
 * @width: set to the width
 * @height: set to the height
 *
 * Return: false past the last size
 */
bool vivi_fmt_size(const struct vivi_modes *m, unsigned int index,
		   u32 *width, u32 *height)
{
	if (index >= m->n_sizes)
		return false;
	*width = m->size[index].width;
	*height = m->size[index].height;
	return true;
}

/**
 * vivi_fmt_size_offered() - true if @width x @height is a listed size
 * @m: the device's modes
 * @width: in pixels
 * @height: in lines
 *
 * Return: true for one of the discrete sizes
 */
bool vivi_fmt_size_offered(const struct vivi_modes *m, u32 width,
			   u32 height)
{
	unsigned int i;

	for (i = 0; i < m->n_sizes; i++)
		if (m->size[i].width == width && m->size[i].height == height)
			return true;
	return false;
}

/**
 * vivi_modes_add_size() - offer one more frame size, in its ENUM place
 * @m: the modes
 * @width: in pixels
 * @height: in lines
 *
 * ENUM_FRAMESIZES order is the smaller area first, then the narrower.
 *
 * Return: true if @m offers the size now, false if its list was full
 */
bool vivi_modes_add_size(struct vivi_modes *m, u32 width, u32 height)
{
	u64 area = (u64)width * height, sa;
	unsigned int i;

	if (vivi_fmt_size_offered(m, width, height))
		return true;
	if (m->n_sizes >= VIVI_MAX_SIZES)
		return false;
	for (i = m->n_sizes; i > 0; i--) {
		sa = (u64)m->size[i - 1].width * m->size[i - 1].height;
		if (sa < area || (sa == area && m->size[i - 1].width < width))
			break;
		m->size[i] = m->size[i - 1];
	}
	m->size[i].width = width;
	m->size[i].height = height;
	m->n_sizes++;
	return true;
}

static u32 vivi_max_fps(u32 width, u32 height)
{
	if (width * height <= 1280 * 720)
		return 120;
	if (width * height <= 1920 * 1080)
		return 60;
	return 30;
}

/**
 * vivi_fmt_interval_offered() - true if an interval is offered at a size
 * @m: the device's modes
 * @tpf: one of @m's intervals
 * @width: the frame width
 * @height: the frame height
 *
 * Return: false for a fast rate of the built-in table at a large size
 */
bool vivi_fmt_interval_offered(const struct vivi_modes *m,
			       const struct v4l2_fract *tpf, u32 width,
			       u32 height)
{
	/* denominator / numerator > max fps, without dividing */
	return !m->size_limits ||
	       tpf->denominator <= (u64)tpf->numerator *
				   vivi_max_fps(width, height);
}

/**
 * vivi_fmt_interval() - the frame interval at @index for a size
 * @m: the device's modes
 * @index: 0 for the shortest interval offered at that size
 * @width: in pixels
 * @height: in lines
 * @tpf: set to the interval
 *
 * Return: false past the last interval
 */
bool vivi_fmt_interval(const struct vivi_modes *m, unsigned int index,
		       u32 width, u32 height, struct v4l2_fract *tpf)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->n_intervals; i++) {
		if (!vivi_fmt_interval_offered(m, &m->interval[i], width,
					       height))
			continue;
		if (n++ == index) {
			*tpf = m->interval[i];
			return true;
		}
	}
	return false;
}

static u64 vivi_interval_ns(const struct v4l2_fract *tpf)
{
	return div_u64((u64)tpf->numerator * NSEC_PER_SEC, tpf->denominator);
}

/**
 * vivi_fmt_snap_interval() - the offered interval closest to @tpf
 * @m: the device's modes
 * @tpf: the interval asked for; a zero fraction asks for the default rate
 * @width: the frame width
 * @height: the frame height
 *
 * Return: the closest interval in time per frame offered at that size
 */
struct v4l2_fract vivi_fmt_snap_interval(const struct vivi_modes *m,
					 const struct v4l2_fract *tpf,
					 u32 width, u32 height)
{
	static const struct v4l2_fract def = { 1, VIVI_DEF_FPS };
	struct v4l2_fract best = m->interval[m->n_intervals - 1];
	u64 want_ns, best_err = U64_MAX;
	unsigned int i;

	if (!tpf->numerator || !tpf->denominator)
		tpf = m->def_interval.denominator ? &m->def_interval : &def;
	want_ns = vivi_interval_ns(tpf);

	for (i = 0; i < m->n_intervals; i++) {
		u64 ns = vivi_interval_ns(&m->interval[i]);
		u64 err = ns > want_ns ? ns - want_ns : want_ns - ns;

		if (!vivi_fmt_interval_offered(m, &m->interval[i], width,
					       height))
			continue;
		if (err < best_err) {
			best_err = err;
			best = m->interval[i];
		}
	}
	return best;
}

/**
 * vivi_fps_x10() - ten times the frames per second of an interval, rounded
 * @tpf: the frame interval
 *
 * Return: ten times the rate in frames per second, 0 for a zero interval
 */
u32 vivi_fps_x10(const struct v4l2_fract *tpf)
{
	if (!tpf->numerator)
		return 0;
	return DIV_ROUND_CLOSEST(tpf->denominator * 10, tpf->numerator);
}

/*
 * Geometry from the packer's layout. An application may ask for a larger
 * bytesperline (see vivi_layout_stride()).
 */
static void vivi_fill_pix(struct v4l2_pix_format *pix,
			  const struct vivi_layout *l)
{
	u32 stride[3], offset[3];

	pix->bytesperline = vivi_layout_stride(l, pix->width,
					       pix->bytesperline);
	pix->sizeimage = vivi_layout_geometry(l, pix->height,
					      pix->bytesperline, stride,
					      offset);
}

/**
 * vivi_fmt_default_fourcc() - the power-on format
 * @list: the device's formats, at least one
 * @modes: the device's modes, which may name it
 *
 * Return: the configured default, else YUYV, the format every webcam
 * application handles, unless left out, else the first format
 */
u32 vivi_fmt_default_fourcc(const struct vivi_fmt_list *list,
			    const struct vivi_modes *modes)
{
	if (modes->def_fourcc && vivi_fmt_offered(list, modes->def_fourcc))
		return modes->def_fourcc;
	return vivi_fmt_offered(list, V4L2_PIX_FMT_YUYV) ? V4L2_PIX_FMT_YUYV :
							    list->fourcc[0];
}

/**
 * vivi_fmt_try_pix() - adjust @pix to the closest format vivi offers
 * @list: the device's formats
 * @modes: the device's sizes
 * @jpeg: the MJPEG worst case at the current quality
 * @pix: the format asked for; adjusted in place, as TRY_FMT does: the
 *	nearest of the device's sizes, then vivi_fmt_fill_pix()
 */
void vivi_fmt_try_pix(const struct vivi_fmt_list *list,
		      const struct vivi_modes *modes,
		      const struct vivi_jpeg_bound *jpeg,
		      struct v4l2_pix_format *pix)
{
	const struct vivi_size *sz;

	sz = v4l2_find_nearest_size(modes->size, modes->n_sizes, width,
				    height, pix->width, pix->height);
	pix->width = sz->width;
	pix->height = sz->height;
	vivi_fmt_fill_pix(list, modes, jpeg, pix);
}

/**
 * vivi_fmt_fill_pix() - adjust @pix to a format vivi offers, at its size
 * @list: the device's formats
 * @modes: the device's modes, for the default format
 * @jpeg: the MJPEG worst case at the current quality
 * @pix: the format asked for, at a size the caller chose (a listed one,
 *	or the HDMI input's timings); adjusted in place but for the size
 *
 * MJPEG's sizeimage is the encoder's worst case at the current quality:
 * the spec lets the driver ignore the application's value, and a smaller
 * one could not hold every frame.
 */
void vivi_fmt_fill_pix(const struct vivi_fmt_list *list,
		       const struct vivi_modes *modes,
		       const struct vivi_jpeg_bound *jpeg,
		       struct v4l2_pix_format *pix)
{
	if (!vivi_fmt_offered(list, pix->pixelformat))
		pix->pixelformat = vivi_fmt_default_fourcc(list, modes);
	pix->field = V4L2_FIELD_NONE;
	if (vivi_fmt_compressed(pix->pixelformat)) {
		pix->bytesperline = 0;
		pix->sizeimage = vivi_jpeg_bound_size(jpeg, pix->width,
						      pix->height);
	} else {
		vivi_fill_pix(pix, vivi_layout_find(pix->pixelformat));
	}

	/* MJPEG is no generator format: full range, as JFIF says */
	pix->colorspace = V4L2_COLORSPACE_SRGB;
	pix->xfer_func = V4L2_XFER_FUNC_SRGB;
	pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
	pix->quantization = vivi_gen_is_yuv(pix->pixelformat) ?
			    V4L2_QUANTIZATION_LIM_RANGE :
			    V4L2_QUANTIZATION_FULL_RANGE;
	pix->flags = 0;
	pix->priv = 0;
}

/**
 * vivi_fmt_default_pix() - the power-on format
 * @list: the device's formats
 * @modes: the device's sizes and its power-on mode
 * @jpeg: the MJPEG worst case at the current quality
 * @pix: set to the default format (YUYV, or the first) at the default size
 */
void vivi_fmt_default_pix(const struct vivi_fmt_list *list,
			  const struct vivi_modes *modes,
			  const struct vivi_jpeg_bound *jpeg,
			  struct v4l2_pix_format *pix)
{
	struct vivi_size sz = vivi_modes_def_size(modes);

	memset(pix, 0, sizeof(*pix));
	pix->pixelformat = vivi_fmt_default_fourcc(list, modes);
	pix->width = sz.width;
	pix->height = sz.height;
	vivi_fmt_try_pix(list, modes, jpeg, pix);
}

/**
 * vivi_fmt_plane_layout() - where the color planes of a buffer start
 * @pix: the negotiated format
 * @f: filled with fourcc, size, plane pointers and strides
 * @base: the buffer's kernel address
 *
 * Return: 0, or -EINVAL for a format the driver does not know.
 */
int vivi_fmt_plane_layout(const struct v4l2_pix_format *pix,
			  struct vivi_gen_frame *f, u8 *base)
{
	const struct vivi_layout *l = vivi_layout_find(pix->pixelformat);
	u32 offset[3];
	unsigned int p;

	if (!l)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->fourcc = pix->pixelformat;
	f->width = pix->width;
	f->height = pix->height;
	vivi_layout_geometry(l, pix->height, pix->bytesperline, f->stride,
			     offset);
	for (p = 0; p < l->nplanes; p++)
		f->plane[p] = base + offset[p];
	return 0;
}
