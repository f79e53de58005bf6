/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The packer of vivi: the one table of how each raw format lays out its
 * pixels in memory, and the code that writes pixels into that layout, from
 * lines of palette indices (the pattern's fast path) or from canonical
 * lines (struct vivi_lines: any picture). Pure: no locks, no allocation,
 * no printk.
 */
#ifndef _VIVI_PACK_H_
#define _VIVI_PACK_H_

#include <linux/types.h>

#include "vivi_color.h"

struct vivi_gen_frame;

/* Keeps all index arithmetic well inside 32 bits. */
#define VIVI_PACK_MAX_DIM	16384
/* The raw formats in the table */
#define VIVI_PACK_FORMATS	24

/**
 * enum vivi_plane_type - how the pixels of one plane are laid out
 * @VIVI_PT_ENC: bpp bytes a pixel, pre-encoded in the palette
 * @VIVI_PT_PACKED: 4:2:2 macropixels, off[] = bytes of Y'0, Cb, Y'1, Cr
 * @VIVI_PT_CHROMA: one chroma component, off[0] = 1 (Cb) or 2 (Cr)
 * @VIVI_PT_CHROMA2: interleaved chroma pairs, channels off[0], off[1]
 * @VIVI_PT_BAYER: off[] = channel (0 R, 1 G, 2 B) at even, odd x of
 *	even rows, then of odd rows
 */
enum vivi_plane_type {
	VIVI_PT_ENC,
	VIVI_PT_PACKED,
	VIVI_PT_CHROMA,
	VIVI_PT_CHROMA2,
	VIVI_PT_BAYER,
};

/**
 * enum vivi_enc_kind - what the pixels of a VIVI_PT_ENC plane hold
 * @VIVI_E_NONE: no such plane
 * @VIVI_E_Y: Y', one byte
 * @VIVI_E_RGB24: R', G', B' bytes
 * @VIVI_E_BGR24: B', G', R' bytes
 * @VIVI_E_XRGB32: 0xff, R', G', B' bytes
 * @VIVI_E_XBGR32: B', G', R', 0xff bytes
 * @VIVI_E_RGB565: little-endian 16 bits, R' 15..11, G' 10..5, B' 4..0
 * @VIVI_E_RGB565X: the same, big-endian
 * @VIVI_E_XRGB555: little-endian 16 bits, bit 15 set, R' 14..10, G' 9..5,
 *	B' 4..0
 * @VIVI_E_GREY: BT.601 luma of R'G'B', full range, one byte
 * @VIVI_E_Y16: the same in 16 bits, little-endian
 */
enum vivi_enc_kind {
	VIVI_E_NONE,
	VIVI_E_Y,
	VIVI_E_RGB24,
	VIVI_E_BGR24,
	VIVI_E_XRGB32,
	VIVI_E_XBGR32,
	VIVI_E_RGB565,
	VIVI_E_RGB565X,
	VIVI_E_XRGB555,
	VIVI_E_GREY,
	VIVI_E_Y16,
};

/**
 * struct vivi_plane_desc - the layout of one plane
 * @type: enum vivi_plane_type
 * @bpp: bytes a pixel of a VIVI_PT_ENC plane
 * @vsub: picture rows a plane line covers: 1, or 2 for 4:2:0 chroma
 * @off: byte offsets or channels, as @type says
 */
struct vivi_plane_desc {
	u8 type;
	u8 bpp;
	u8 vsub;
	u8 off[4];
};

/**
 * struct vivi_layout - how one raw format lies in memory
 * @fourcc: V4L2_PIX_FMT_*
 * @yuv: the samples are BT.601 limited Y'CbCr, else full-range R'G'B'
 *	(GREY and Y16: its luma)
 * @enc: enum vivi_enc_kind of the VIVI_PT_ENC plane, if any
 * @nplanes: planes in memory order
 * @pl: their layouts
 *
 * An entry of the one table of raw formats (vivi_layout_at()), in the
 * order ENUM_FMT lists them; constant.
 */
struct vivi_layout {
	u32 fourcc;
	bool yuv;
	u8 enc;
	u8 nplanes;
	struct vivi_plane_desc pl[3];
};

/**
 * struct vivi_pal - a palette in a format's color space
 * @c: Y', Cb, Cr or R', G', B' of each entry
 * @enc8: the first byte of a VIVI_PT_ENC pixel of each entry
 * @enc: the bytes of that pixel in memory order, first in bits 0..7,
 *	unused bytes zero
 * @pk: packed 4:2:2: Y'0, Y'1, and Cb | Cr, each in its macropixel place
 * @flat_chroma: every entry has the same Cb and Cr
 *
 * Lives in the caller's scratch; no lock.
 */
struct vivi_pal {
	u8 c[3][256];
	u8 enc8[256];
	u32 enc[256];
	u32 pk[3][256];
	bool flat_chroma;
};

/**
 * struct vivi_band - the frame lines one call draws
 * @l: the format's layout
 * @w: frame width
 * @h: frame height
 * @y0: first frame line drawn
 * @y1: one past the last
 *
 * Per-call state; no lock.
 */
struct vivi_band {
	const struct vivi_layout *l;
	u32 w;
	u32 h;
	u32 y0;
	u32 y1;
};

/**
 * struct vivi_lines - canonical lines: three 8-bit channels a pixel
 * @data: line i is frame line y0 + i of the rows it stands for; pixel x's
 *	channels are bytes 3 * x .. 3 * x + 2
 * @stride: bytes from one line to the next, at least 3 * width
 * @kind: enum vivi_canon: what the channels hold
 *
 * The caller's memory; no lock.
 */
struct vivi_lines {
	u8 *data;
	size_t stride;
	u32 kind;
};

const struct vivi_layout *vivi_layout_find(u32 fourcc);
const struct vivi_layout *vivi_layout_at(unsigned int i);
u32 vivi_layout_stride(const struct vivi_layout *l, u32 w, u32 req);
u32 vivi_layout_geometry(const struct vivi_layout *l, u32 h, u32 bpl,
			 u32 stride[3], u32 offset[3]);
u32 vivi_layout_canon(const struct vivi_layout *l);
u32 vivi_line_bytes(const struct vivi_plane_desc *pd, u32 w);
u32 vivi_x_offset(const struct vivi_plane_desc *pd, u32 x);

int vivi_band_init(struct vivi_band *b, const struct vivi_gen_frame *f);
void vivi_band_rows(const struct vivi_band *b,
		    const struct vivi_plane_desc *pd, u32 *r0, u32 *r1);

void vivi_pal_set(struct vivi_pal *p, const struct vivi_layout *l, u32 i,
		  const u8 *c, u32 kind);
void vivi_pal_done(struct vivi_pal *p, const struct vivi_layout *l, u32 n);
void vivi_convert(const struct vivi_pal *p, const struct vivi_plane_desc *pd,
		  u8 *d, const u8 *a, const u8 *b, u32 par, u32 n);

size_t vivi_pack_scratch_size(u32 width);
int vivi_pack_lines(const struct vivi_gen_frame *f,
		    const struct vivi_lines *src, void *scratch);

#endif
