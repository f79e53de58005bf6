// SPDX-License-Identifier: GPL-2.0
/*
 * The packer of vivi: the one pixel-layout table of the raw formats, and
 * lines packed into the planes of any of them: lines of palette indices
 * (vivi_convert(), the pattern path's fast way: every color of a line is
 * looked up, pre-converted and pre-encoded) or canonical lines of any
 * picture (vivi_pack_lines()), by the same rules.
 *
 * Layout notes: packed 4:2:2 lines are width * 2 bytes, so an odd width
 * ends with half a macropixel (the last Y' and the first chroma byte).
 * Chroma samples average the 8-bit chroma of the pixels they cover, rounded
 * half up; an odd last column or row covers just one pixel column or row.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/types.h>
#include <linux/videodev2.h>

#include "vivi_gen.h"
#include "vivi_pack.h"

#define P_ENC(b)	{ .type = VIVI_PT_ENC, .bpp = (b), .vsub = 1 }
#define P_PACKED(y0, u, y1, v) \
	{ .type = VIVI_PT_PACKED, .vsub = 1, .off = { y0, u, y1, v } }
#define P_CHROMA(c, vs)	{ .type = VIVI_PT_CHROMA, .vsub = (vs), .off = { c } }
#define P_CHROMA2(c0, c1, vs) \
	{ .type = VIVI_PT_CHROMA2, .vsub = (vs), .off = { c0, c1 } }
#define P_BAYER(a, b, c, d) \
	{ .type = VIVI_PT_BAYER, .vsub = 1, .off = { a, b, c, d } }

#define FMT_PACKED(fcc, y0, u, y1, v) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_NONE, 1, { P_PACKED(y0, u, y1, v) } }
#define FMT_PLANAR(fcc, c1, c2, vs) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_Y, 3, \
	  { P_ENC(1), P_CHROMA(c1, vs), P_CHROMA(c2, vs) } }
#define FMT_SEMI(fcc, c1, c2, vs) \
	{ V4L2_PIX_FMT_##fcc, true, VIVI_E_Y, 2, \
	  { P_ENC(1), P_CHROMA2(c1, c2, vs) } }
#define FMT_ENC(fcc, e, b) \
	{ V4L2_PIX_FMT_##fcc, false, e, 1, { P_ENC(b) } }
/* Channels 0 = R, 1 = G, 2 = B */
#define FMT_BAYER(fcc, a, b, c, d) \
	{ V4L2_PIX_FMT_##fcc, false, VIVI_E_NONE, 1, { P_BAYER(a, b, c, d) } }

/*
 * The raw formats, in the order ENUM_FMT lists them (after MJPEG, see
 * vivi_fmt.c). Channels of Y'CbCr formats: 0 = Y', 1 = Cb, 2 = Cr.
 */
static const struct vivi_layout vivi_layouts[] = {
	FMT_PACKED(YUYV, 0, 1, 2, 3),
	FMT_PACKED(UYVY, 1, 0, 3, 2),
	FMT_PACKED(YVYU, 0, 3, 2, 1),
	FMT_PACKED(VYUY, 1, 2, 3, 0),
	FMT_PLANAR(YUV420, 1, 2, 2),
	FMT_PLANAR(YVU420, 2, 1, 2),
	FMT_PLANAR(YUV422P, 1, 2, 1),
	FMT_ENC(RGB24, VIVI_E_RGB24, 3),
	FMT_ENC(BGR24, VIVI_E_BGR24, 3),
	FMT_ENC(XRGB32, VIVI_E_XRGB32, 4),
	FMT_ENC(XBGR32, VIVI_E_XBGR32, 4),
	FMT_ENC(RGB565, VIVI_E_RGB565, 2),
	FMT_ENC(RGB565X, VIVI_E_RGB565X, 2),
	FMT_ENC(XRGB555, VIVI_E_XRGB555, 2),
	FMT_ENC(GREY, VIVI_E_GREY, 1),
	FMT_ENC(Y16, VIVI_E_Y16, 2),
	FMT_BAYER(SBGGR8, 2, 1, 1, 0),
	FMT_BAYER(SGBRG8, 1, 2, 0, 1),
	FMT_BAYER(SGRBG8, 1, 0, 2, 1),
	FMT_BAYER(SRGGB8, 0, 1, 1, 2),
	FMT_SEMI(NV12, 1, 2, 2),
	FMT_SEMI(NV21, 2, 1, 2),
	FMT_SEMI(NV16, 1, 2, 1),
	FMT_SEMI(NV61, 2, 1, 1),
};

static_assert(ARRAY_SIZE(vivi_layouts) == VIVI_PACK_FORMATS);

const struct vivi_layout *vivi_layout_find(u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vivi_layouts); i++)
		if (vivi_layouts[i].fourcc == fourcc)
			return &vivi_layouts[i];
	return NULL;
}

/**
 * vivi_layout_at() - entry @i of the layout table
 * @i: 0..VIVI_PACK_FORMATS - 1
 *
 * Return: the entry, or NULL past the last one
 */
const struct vivi_layout *vivi_layout_at(unsigned int i)
{
	return i < ARRAY_SIZE(vivi_layouts) ? &vivi_layouts[i] : NULL;
}

u32 vivi_line_bytes(const struct vivi_plane_desc *pd, u32 w)
{
	switch (pd->type) {
	case VIVI_PT_ENC:
		return w * pd->bpp;
	case VIVI_PT_PACKED:
		return w * 2;
	case VIVI_PT_CHROMA:
		return DIV_ROUND_UP(w, 2);
	case VIVI_PT_CHROMA2:
		return DIV_ROUND_UP(w, 2) * 2;
	default:
		return w;
	}
}

/* Byte offset of even pixel @x in a line. */
u32 vivi_x_offset(const struct vivi_plane_desc *pd, u32 x)
{
	switch (pd->type) {
	case VIVI_PT_ENC:
		return x * pd->bpp;
	case VIVI_PT_PACKED:
		return x * 2;
	case VIVI_PT_CHROMA:
		return x / 2;
	default:
		return x;
	}
}

/**
 * vivi_layout_stride() - the stride of plane 0 of a buffer
 * @l: the layout
 * @w: frame width
 * @req: the stride asked for
 *
 * A larger stride than a line needs is honored up to twice that, and kept
 * even where chroma planes follow, so that theirs are exact.
 *
 * Return: the stride in bytes
 */
u32 vivi_layout_stride(const struct vivi_layout *l, u32 w, u32 req)
{
	u32 min_bpl = vivi_line_bytes(&l->pl[0], w);
	u32 bpl = clamp(req, min_bpl, 2 * min_bpl);

	return l->nplanes > 1 ? ALIGN(bpl, 2) : bpl;
}

/**
 * vivi_layout_geometry() - where the planes of a buffer lie
 * @l: the layout
 * @h: frame height
 * @bpl: plane 0's stride, from vivi_layout_stride()
 * @stride: set to the stride of each plane, 0 for unused entries
 * @offset: set to the offset of each plane from the buffer's start
 *
 * The planes follow each other; a chroma plane's stride is plane 0's
 * scaled as their lines are.
 *
 * Return: the bytes of the whole buffer
 */
u32 vivi_layout_geometry(const struct vivi_layout *l, u32 h, u32 bpl,
			 u32 stride[3], u32 offset[3])
{
	u32 pair0 = vivi_line_bytes(&l->pl[0], 2);
	u32 p, size = 0;

	memset(stride, 0, 3 * sizeof(*stride));
	memset(offset, 0, 3 * sizeof(*offset));
	for (p = 0; p < l->nplanes; p++) {
		stride[p] = bpl * vivi_line_bytes(&l->pl[p], 2) / pair0;
		offset[p] = size;
		size += stride[p] * DIV_ROUND_UP(h, l->pl[p].vsub);
	}
	return size;
}

/* The band lies in the frame, and 4:2:0 chroma lines start with it. */
static bool vivi_band_ok(const struct vivi_gen_frame *f,
			 const struct vivi_layout *l)
{
	if (!f->band_lines)
		return !f->band_y0;
	if (f->band_lines > f->height ||
	    f->band_y0 > f->height - f->band_lines)
		return false;
	return !(f->band_y0 & 1) || l->pl[l->nplanes - 1].vsub == 1;
}

/*
 * The band @f asks to draw, checked: a known format, a size within
 * VIVI_PACK_MAX_DIM, every plane there with a stride that holds a line.
 */
int vivi_band_init(struct vivi_band *b, const struct vivi_gen_frame *f)
{
	const struct vivi_layout *l = vivi_layout_find(f->fourcc);
	u32 i, w = f->width, h = f->height;

	if (!l || !w || !h || w > VIVI_PACK_MAX_DIM || h > VIVI_PACK_MAX_DIM)
		return -EINVAL;
	for (i = 0; i < l->nplanes; i++)
		if (!f->plane[i] ||
		    f->stride[i] < vivi_line_bytes(&l->pl[i], w))
			return -EINVAL;
	if (!vivi_band_ok(f, l))
		return -EINVAL;
	b->l = l;
	b->w = w;
	b->h = h;
	b->y0 = f->band_y0;
	b->y1 = f->band_lines ? f->band_y0 + f->band_lines : h;
	return 0;
}

/* The plane lines [*r0, *r1) that cover the band; plane line *r0 is first. */
void vivi_band_rows(const struct vivi_band *b,
		    const struct vivi_plane_desc *pd, u32 *r0, u32 *r1)
{
	*r0 = pd->vsub == 2 ? b->y0 / 2 : b->y0;
	*r1 = pd->vsub == 2 ? DIV_ROUND_UP(b->y1, 2) : b->y1;
}

static u32 vivi_quant(u32 v, u32 max)
{
	return (v * max + 127) / 255;
}

/* The 16 bits of a two-byte pixel of R'G'B' @c */
static u32 vivi_encode16(u32 kind, const u8 *c)
{
	u32 s = 299 * c[0] + 587 * c[1] + 114 * c[2];

	switch (kind) {
	case VIVI_E_RGB565:
	case VIVI_E_RGB565X:
		return vivi_quant(c[0], 31) << 11 | vivi_quant(c[1], 63) << 5 |
		       vivi_quant(c[2], 31);
	case VIVI_E_XRGB555:
		return 0x8000 | vivi_quant(c[0], 31) << 10 |
		       vivi_quant(c[1], 31) << 5 | vivi_quant(c[2], 31);
	default:
		return (257 * s + 500) / 1000;
	}
}

/* The four bytes of @v at @d, bits 0..7 first, as one store */
static inline void vivi_put32(u8 *d, u32 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab32(v);
#endif
	memcpy(d, &v, sizeof(v));
}

/*
 * @n pixels of native colors @c (three channels each) as pixels of a
 * VIVI_PT_ENC plane of kind @kind, into @d
 */
static void vivi_encode_line(u8 *d, u32 kind, const u8 *c, u32 n)
{
	u32 x, v;

	switch (kind) {
	case VIVI_E_Y:
		/* four at a time: one store */
		for (x = 0; x + 4 <= n; x += 4, c += 12)
			vivi_put32(d + x, c[0] | c[3] << 8 | c[6] << 16 |
				   (u32)c[9] << 24);
		for (; x < n; x++, c += 3)
			d[x] = c[0];
		break;
	case VIVI_E_GREY:
		for (x = 0; x < n; x++, c += 3)
			d[x] = (299 * c[0] + 587 * c[1] + 114 * c[2] + 500) /
			       1000;
		break;
	case VIVI_E_RGB24:
		memcpy(d, c, (size_t)n * 3);
		break;
	case VIVI_E_BGR24:
		for (x = 0; x < n; x++, c += 3, d += 3) {
			d[0] = c[2];
			d[1] = c[1];
			d[2] = c[0];
		}
		break;
	case VIVI_E_XRGB32:
		for (x = 0; x < n; x++, c += 3, d += 4) {
			d[0] = 0xff;
			memcpy(d + 1, c, 3);
		}
		break;
	case VIVI_E_XBGR32:
		for (x = 0; x < n; x++, c += 3, d += 4) {
			d[0] = c[2];
			d[1] = c[1];
			d[2] = c[0];
			d[3] = 0xff;
		}
		break;
	default:
		/* RGB565X is the one big-endian format */
		for (x = 0; x < n; x++, c += 3, d += 2) {
			v = vivi_encode16(kind, c);
			d[kind == VIVI_E_RGB565X] = v & 0xff;
			d[kind != VIVI_E_RGB565X] = v >> 8;
		}
		break;
	}
}

/* The kind of color @l's samples carry */
u32 vivi_layout_canon(const struct vivi_layout *l)
{
	return l->yuv ? VIVI_CANON_YCC_LIM : VIVI_CANON_RGB;
}

/* Entry @i of @p: color @c of kind @kind (enum vivi_canon) in @l's terms */
void vivi_pal_set(struct vivi_pal *p, const struct vivi_layout *l,
		  u32 i, const u8 *c, u32 kind)
{
	const struct vivi_plane_desc *pd = &l->pl[0];
	u8 n[3], e[4];

	vivi_color_convert(kind, vivi_layout_canon(l), c, n);
	p->c[0][i] = n[0];
	p->c[1][i] = n[1];
	p->c[2][i] = n[2];
	memset(e, 0, sizeof(e));
	if (l->enc != VIVI_E_NONE)
		vivi_encode_line(e, l->enc, n, 1);
	p->enc8[i] = e[0];
	p->enc[i] = e[0] | e[1] << 8 | e[2] << 16 | (u32)e[3] << 24;
	if (pd->type == VIVI_PT_PACKED) {
		p->pk[0][i] = (u32)n[0] << pd->off[0] * 8;
		p->pk[1][i] = (u32)n[0] << pd->off[2] * 8;
		p->pk[2][i] = (u32)n[1] << pd->off[1] * 8 |
			      (u32)n[2] << pd->off[3] * 8;
	}
}

void vivi_pal_done(struct vivi_pal *p, const struct vivi_layout *l,
		   u32 n)
{
	u32 i;

	p->flat_chroma = l->yuv;
	for (i = 1; i < n && p->flat_chroma; i++)
		p->flat_chroma = p->c[1][i] == p->c[1][0] &&
				 p->c[2][i] == p->c[2][0];
}

/* ---- conversion of index spans to plane bytes ----------------------- */

/* Store @v with its bits 0..7 at d[0], as one store on any CPU. */
static inline void vivi_put64(u8 *d, u64 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __swab64(v);
#endif
	memcpy(d, &v, sizeof(v));
}

/* The low @n bytes of @v, bits 0..7 first */
static void vivi_put_bytes(u8 *d, u64 v, u32 n)
{
	for (; n; n--, v >>= 8)
		*d++ = v;
}

/* t0[a[0]], t1[a[1]], t0[a[2]], ... as the bytes of a word */
static inline u64 vivi_pick8(const u8 *t0, const u8 *t1, const u8 *a)
{
	return (u64)t0[a[0]] | (u64)t1[a[1]] << 8 |
	       (u64)t0[a[2]] << 16 | (u64)t1[a[3]] << 24 |
	       (u64)t0[a[4]] << 32 | (u64)t1[a[5]] << 40 |
	       (u64)t0[a[6]] << 48 | (u64)t1[a[7]] << 56;
}

/*
 * A packed 4:2:2 macropixel from pixels a[0], a[1]. U and V never sit in
 * adjacent bytes, so both 9-bit sums fit in one addition.
 */
static inline u64 vivi_pair(const struct vivi_pal *p, const u8 *a,
			    u64 rnd, u64 mask)
{
	u64 uv = (u64)p->pk[2][a[0]] + p->pk[2][a[1]] + rnd;

	return p->pk[0][a[0]] | p->pk[1][a[1]] | ((uv >> 1) & mask);
}

/*
 * Convert @n pixels of index lines @a (and @b, the second row of 4:2:0
 * chroma; else == @a) into @d. @par is the row parity for Bayer. The span
 * starts at an even x; for an odd @n, a[n] and b[n] must repeat the last
 * pixel. Pixels are assembled into 64-bit words, stored at once: noise
 * converts every line, and byte stores would dominate its time.
 */
void vivi_convert(const struct vivi_pal *p, const struct vivi_plane_desc *pd,
		  u8 *d, const u8 *a, const u8 *b, u32 par, u32 n)
{
	const u32 *e = p->enc;
	const u8 *c0, *c1;
	u32 x, k, s0, s1;
	u64 v, w, rnd, mask;

	switch (pd->type) {
	case VIVI_PT_ENC:
		switch (pd->bpp) {
		case 1:
			for (x = 0; x + 8 <= n; x += 8)
				vivi_put64(d + x, vivi_pick8(p->enc8, p->enc8,
							     a + x));
			for (; x < n; x++)
				d[x] = p->enc8[a[x]];
			break;
		case 2:
			for (x = 0; x + 4 <= n; x += 4, d += 8)
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 16 |
					   (u64)e[a[x + 2]] << 32 |
					   (u64)e[a[x + 3]] << 48);
			for (; x < n; x++, d += 2)
				vivi_put_bytes(d, e[a[x]], 2);
			break;
		case 3:
			/* eight 3-byte pixels in three words */
			for (x = 0; x + 8 <= n; x += 8, d += 24) {
				v = e[a[x + 2]];
				w = e[a[x + 5]];
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 24 |
					   v << 48);
				vivi_put64(d + 8, v >> 16 |
					   (u64)e[a[x + 3]] << 8 |
					   (u64)e[a[x + 4]] << 32 | w << 56);
				vivi_put64(d + 16, w >> 8 |
					   (u64)e[a[x + 6]] << 16 |
					   (u64)e[a[x + 7]] << 40);
			}
			for (; x < n; x++, d += 3)
				vivi_put_bytes(d, e[a[x]], 3);
			break;
		default:
			for (x = 0; x + 2 <= n; x += 2, d += 8)
				vivi_put64(d, e[a[x]] | (u64)e[a[x + 1]] << 32);
			if (x < n)
				vivi_put_bytes(d, e[a[x]], 4);
			break;
		}
		break;
	case VIVI_PT_PACKED:
		/* per pixel pair: Y'0, Y'1 and the rounded CbCr average */
		s0 = pd->off[1] * 8;
		s1 = pd->off[3] * 8;
		rnd = 1ull << s0 | 1ull << s1;
		mask = 0xffull << s0 | 0xffull << s1;
		for (x = 0; x + 4 <= n; x += 4, d += 8)
			vivi_put64(d, vivi_pair(p, a + x, rnd, mask) |
				   vivi_pair(p, a + x + 2, rnd, mask) << 32);
		/* 1..3 pixels left; an odd n reads the pad a[n] */
		for (; x < n; x += 2, d += 4)
			vivi_put_bytes(d, vivi_pair(p, a + x, rnd, mask),
				       min(n - x, 2u) * 2);
		break;
	case VIVI_PT_CHROMA:
		c0 = p->c[pd->off[0]];
		for (k = 0; k < n; k += 2)
			*d++ = (c0[a[k]] + c0[a[k + 1]] + c0[b[k]] +
				c0[b[k + 1]] + 2) >> 2;
		break;
	case VIVI_PT_CHROMA2:
		c0 = p->c[pd->off[0]];
		c1 = p->c[pd->off[1]];
		for (k = 0; k < n; k += 2, d += 2) {
			d[0] = (c0[a[k]] + c0[a[k + 1]] + c0[b[k]] +
				c0[b[k + 1]] + 2) >> 2;
			d[1] = (c1[a[k]] + c1[a[k + 1]] + c1[b[k]] +
				c1[b[k + 1]] + 2) >> 2;
		}
		break;
	default:
		c0 = p->c[pd->off[par * 2]];
		c1 = p->c[pd->off[par * 2 + 1]];
		for (x = 0; x + 8 <= n; x += 8)
			vivi_put64(d + x, vivi_pick8(c0, c1, a + x));
		for (; x < n; x++)
			d[x] = x & 1 ? c1[a[x]] : c0[a[x]];
		break;
	}
}

/* ---- canonical lines to plane bytes --------------------------------- */

#define LINE_ALIGN	64

/* A line of native colors: 3 bytes a pixel */
static size_t vivi_native_bytes(u32 w)
{
	return ALIGN((size_t)w * 3, LINE_ALIGN);
}

/**
 * vivi_pack_scratch_size() - bytes of scratch vivi_pack_lines() needs
 * @width: the widest frame that will be packed
 *
 * Return: the size in bytes
 */
size_t vivi_pack_scratch_size(u32 width)
{
	u32 w = clamp_t(u32, width, 1, VIVI_PACK_MAX_DIM);

	return LINE_ALIGN + 2 * vivi_native_bytes(w);
}

/* Packed 4:2:2: per pixel pair Y'0, Y'1 and the rounded CbCr average */
static void vivi_pack_packed(const struct vivi_plane_desc *pd, u8 *d,
			     const u8 *a, u32 w)
{
	u32 y0 = pd->off[0], u = pd->off[1], y1 = pd->off[2], v = pd->off[3];
	u32 x;
	u8 m[4];

	for (x = 0; x + 1 < w; x += 2, a += 6, d += 4) {
		d[y0] = a[0];
		d[y1] = a[3];
		d[u] = (a[1] + a[4] + 1) >> 1;
		d[v] = (a[2] + a[5] + 1) >> 1;
	}
	if (x < w) {
		/* an odd last pixel: half a macropixel, paired with itself */
		m[y0] = a[0];
		m[y1] = a[0];
		m[u] = a[1];
		m[v] = a[2];
		memcpy(d, m, 2);
	}
}

/* Channel @c of pixels x, x + 1 of lines @a and @b, averaged, rounded */
static inline u8 vivi_quad(const u8 *a, const u8 *b, u32 c, u32 next)
{
	return (a[c] + a[c + next] + b[c] + b[c + next] + 2) >> 2;
}

/*
 * Chroma planes: each sample the rounded average of the pixel pair of
 * line @a and of line @b (the next row for 4:2:0, else @a again); an odd
 * last pixel pairs with itself
 */
static void vivi_pack_chroma(const struct vivi_plane_desc *pd, u8 *d,
			     const u8 *a, const u8 *b, u32 w)
{
	u32 c0 = pd->off[0], c1 = pd->off[1], x, next;

	for (x = 0; x < w; x += 2, a += 6, b += 6) {
		next = x + 1 < w ? 3 : 0;
		*d++ = vivi_quad(a, b, c0, next);
		if (pd->type == VIVI_PT_CHROMA2)
			*d++ = vivi_quad(a, b, c1, next);
	}
}

/* One line of plane @pd from native lines @a, @b; @par is the row parity */
static void vivi_pack_line(const struct vivi_layout *l,
			   const struct vivi_plane_desc *pd, u8 *d,
			   const u8 *a, const u8 *b, u32 par, u32 w)
{
	const u8 *off = pd->off + par * 2;
	u32 x;

	switch (pd->type) {
	case VIVI_PT_ENC:
		vivi_encode_line(d, l->enc, a, w);
		break;
	case VIVI_PT_PACKED:
		vivi_pack_packed(pd, d, a, w);
		break;
	case VIVI_PT_CHROMA:
	case VIVI_PT_CHROMA2:
		vivi_pack_chroma(pd, d, a, b, w);
		break;
	default:
		for (x = 0; x < w; x++)
			d[x] = a[3 * x + off[x & 1]];
		break;
	}
}

/* Frame row @y of @src in @b's native colors: the line itself, or @buf */
static const u8 *vivi_native_line(const struct vivi_band *b,
				  const struct vivi_lines *src, u32 y, u8 *buf)
{
	const u8 *line = src->data + (size_t)(y - b->y0) * src->stride;
	u32 native = vivi_layout_canon(b->l);

	if (src->kind == native)
		return line;
	vivi_color_line(src->kind, native, line, buf, b->w);
	return buf;
}

/* Frame rows @ya and @yb (the same, or the next for 4:2:0) into @f */
static void vivi_pack_rows(const struct vivi_gen_frame *f,
			   const struct vivi_band *b, const u8 *a,
			   const u8 *na, u32 ya, u32 yb)
{
	const struct vivi_plane_desc *pd;
	u32 p, r0, r1;
	u8 *d;

	for (p = 0; p < b->l->nplanes; p++) {
		pd = &b->l->pl[p];
		vivi_band_rows(b, pd, &r0, &r1);
		d = f->plane[p] + (size_t)(ya / pd->vsub - r0) * f->stride[p];
		vivi_pack_line(b->l, pd, d, a, na, ya & 1, b->w);
		if (pd->vsub == 1 && yb != ya)
			vivi_pack_line(b->l, pd, d + f->stride[p], na, na,
				       yb & 1, b->w);
	}
}

/**
 * vivi_pack_lines() - canonical lines into the planes of any raw format
 * @f: format, size and planes, and the band to fill, as vivi_gen_fill()
 *	takes them
 * @src: one canonical line for each frame line of the band, in order
 * @scratch: vivi_pack_scratch_size(@f->width) bytes, any alignment
 *
 * Each color goes into the format's own (vivi_color_convert()), then
 * into its layout. A chroma sample is the average of the pixels it covers
 * (two, or four in 4:2:0), rounded half up; an odd last column or row
 * covers one. A Bayer site takes its own channel of its pixel. The same
 * rules as the pattern's palette path: a picture packed either way is the
 * same. 4:2:0 bands start at an even line and end at one or at the
 * frame's end, so that each chroma line's rows are in the band.
 *
 * Return: 0, or -EINVAL for what vivi_gen_fill() refuses, an unknown
 * kind, a line stride below 3 * @f->width, or a 4:2:0 band that ends at an
 * odd line inside the frame.
 */
int vivi_pack_lines(const struct vivi_gen_frame *f,
		    const struct vivi_lines *src, void *scratch)
{
	struct vivi_band b;
	const u8 *a, *na;
	u32 y, yb, step;
	u8 *buf;

	if (!f || !src || !src->data || !scratch ||
	    src->kind >= VIVI_CANON_COUNT || vivi_band_init(&b, f) ||
	    src->stride < (size_t)b.w * 3)
		return -EINVAL;
	step = b.l->pl[b.l->nplanes - 1].vsub;
	if (step == 2 && (b.y1 & 1) && b.y1 != b.h)
		return -EINVAL;
	buf = PTR_ALIGN((u8 *)scratch, LINE_ALIGN);
	for (y = b.y0; y < b.y1; y += step) {
		yb = min(y + step - 1, b.h - 1);
		a = vivi_native_line(&b, src, y, buf);
		na = yb == y ? a : vivi_native_line(&b, src, yb, buf +
						    vivi_native_bytes(b.w));
		vivi_pack_rows(f, &b, a, na, y, yb);
	}
	return 0;
}
