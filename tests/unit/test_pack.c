// SPDX-License-Identifier: GPL-2.0
/*
 * test_pack.c - the packer's layout table as the format layer uses it:
 * every raw format's bytesperline, sizeimage, plane strides and plane
 * offsets equal what the kernel's v4l2_format_info() table gave before the
 * format layer took them from the packer (the formula of v4l2-common.c
 * and the kernel's values, written out here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/videodev2.h>

#include "tutil.h"
#include "vivi_gen.h"
#include "vivi_pack.h"

/* The kernel's v4l2_format_info() entries of the raw formats vivi offers */
struct kinfo {
	u32 fourcc;
	const char *name;
	u32 comp_planes;
	u32 bpp[3];
	u32 hdiv;
	u32 vdiv;
};

static const struct kinfo kinfos[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_UYVY, "UYVY", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_YVYU, "YVYU", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_VYUY, "VYUY", 1, { 2 }, 2, 1 },
	{ V4L2_PIX_FMT_YUV420, "YUV420", 3, { 1, 1, 1 }, 2, 2 },
	{ V4L2_PIX_FMT_YVU420, "YVU420", 3, { 1, 1, 1 }, 2, 2 },
	{ V4L2_PIX_FMT_YUV422P, "YUV422P", 3, { 1, 1, 1 }, 2, 1 },
	{ V4L2_PIX_FMT_RGB24, "RGB24", 1, { 3 }, 1, 1 },
	{ V4L2_PIX_FMT_BGR24, "BGR24", 1, { 3 }, 1, 1 },
	{ V4L2_PIX_FMT_XRGB32, "XRGB32", 1, { 4 }, 1, 1 },
	{ V4L2_PIX_FMT_XBGR32, "XBGR32", 1, { 4 }, 1, 1 },
	{ V4L2_PIX_FMT_RGB565, "RGB565", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_RGB565X, "RGB565X", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_XRGB555, "XRGB555", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_GREY, "GREY", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_Y16, "Y16", 1, { 2 }, 1, 1 },
	{ V4L2_PIX_FMT_SBGGR8, "SBGGR8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SGBRG8, "SGBRG8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SGRBG8, "SGRBG8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_SRGGB8, "SRGGB8", 1, { 1 }, 1, 1 },
	{ V4L2_PIX_FMT_NV12, "NV12", 2, { 1, 2 }, 2, 2 },
	{ V4L2_PIX_FMT_NV21, "NV21", 2, { 1, 2 }, 2, 2 },
	{ V4L2_PIX_FMT_NV16, "NV16", 2, { 1, 2 }, 2, 1 },
	{ V4L2_PIX_FMT_NV61, "NV61", 2, { 1, 2 }, 2, 1 },
};

/* The sizes the driver offers (vivi_fmt.c), and two small ones */
static const u32 sizes[][2] = {
	{ 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 },
	{ 640, 360 }, { 640, 480 }, { 800, 600 }, { 960, 720 },
	{ 1024, 768 }, { 1280, 720 }, { 1920, 1080 }, { 2560, 1440 },
	{ 3840, 2160 }, { 34, 18 }, { 33, 17 },
};

/* vivi_fill_pix() and vivi_fmt_plane_layout() as they were */
static u32 kernel_geometry(const struct kinfo *k, u32 w, u32 h, u32 req,
			   u32 stride[3], u32 offset[3], u32 *size)
{
	u32 min_bpl = w * k->bpp[0];
	u32 bpl = req < min_bpl ? min_bpl : req > 2 * min_bpl ? 2 * min_bpl :
		  req;
	u32 p, lines;

	if (k->comp_planes > 1)
		bpl = ALIGN(bpl, k->hdiv);
	*size = bpl * h;
	memset(stride, 0, 3 * sizeof(*stride));
	memset(offset, 0, 3 * sizeof(*offset));
	stride[0] = bpl;
	for (p = 1; p < k->comp_planes; p++) {
		*size += bpl * k->bpp[p] / (k->bpp[0] * k->hdiv) *
			 DIV_ROUND_UP(h, k->vdiv);
		lines = p == 1 ? h : DIV_ROUND_UP(h, k->vdiv);
		stride[p] = bpl * k->bpp[p] / (k->bpp[0] * k->hdiv);
		offset[p] = offset[p - 1] + stride[p - 1] * lines;
	}
	return bpl;
}

static void test_geometry(void)
{
	u32 ks[3], ko[3], ps[3], po[3], ksize, psize, kbpl, pbpl, w, h, req;
	const struct vivi_layout *l;
	unsigned int i, z, r;

	for (i = 0; i < ARRAY_SIZE(kinfos); i++) {
		l = vivi_layout_at(i);
		if (!l || l->fourcc != kinfos[i].fourcc)
			tu_fail("table entry %u is not %s", i, kinfos[i].name);
		for (z = 0; l && z < ARRAY_SIZE(sizes); z++) {
			w = sizes[z][0];
			h = sizes[z][1];
			for (r = 0; r < 6; r++) {
				req = (u32[]){ 0, w * 3 + 1, w + 3, w * 2 + 1,
					       w * 8 + 5, 1 }[r];
				kbpl = kernel_geometry(&kinfos[i], w, h, req,
						       ks, ko, &ksize);
				pbpl = vivi_layout_stride(l, w, req);
				psize = vivi_layout_geometry(l, h, pbpl, ps,
							     po);
				if (kbpl != pbpl || ksize != psize ||
				    memcmp(ks, ps, sizeof(ks)) ||
				    memcmp(ko, po, sizeof(ko)))
					tu_fail("%ux%u bytesperline %u: kernel %u/%u, packer %u/%u",
						w, h, req, kbpl, ksize, pbpl,
						psize);
			}
		}
		tu_done("pack/geometry/%s", kinfos[i].name);
	}
	if (vivi_layout_at(ARRAY_SIZE(kinfos)))
		tu_fail("the table has more than %zu entries",
			ARRAY_SIZE(kinfos));
	tu_done("pack/geometry/table-order");
}

int main(void)
{
	test_geometry();
	return tu_failed ? 1 : 0;
}
