// SPDX-License-Identifier: GPL-2.0
/*
 * The pure MJPEG encoder of vivi.
 *
 * How a frame is coded:
 *
 * 1. vivi_jpeg_begin() scales the Annex K quantization tables as libjpeg's
 *    jpeg_quality_scaling() does (so a quality gives libjpeg's tables),
 *    turns them into reciprocals, derives the Huffman codes and writes
 *    SOI, JFIF APP0, DQT, SOF0, DHT and SOS.
 * 2. Each MCU row is four blocks per 16x8 pixels: Y' left, Y' right, Cb, Cr.
 *    A block whose 64 samples are equal has only a DC coefficient, known
 *    from a table, so test patterns mostly skip the DCT. Other blocks go
 *    through the LLM integer DCT (libjpeg's "islow" structure), a
 *    reciprocal quantizer and the Huffman coder.
 * 3. Bits collect in a 64-bit accumulator, stored eight bytes at a time
 *    unless one of them is 0xFF (then byte by byte, with stuffing), and
 *    never past the end of the output: -ENOSPC instead.
 *
 * Samples arrive in BT.601 limited range and are expanded to JFIF's full
 * range through a table on the way into the DCT. Frames whose width or
 * height is not a multiple of the MCU repeat their last column and line.
 */

#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/types.h>

#include "vivi_jpeg.h"

#define SCRATCH_ALIGN		64

/* Natural (row-major) index of each zigzag position */
static const u8 vivi_zigzag[64] = {
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

/* ITU T.81 Annex K.1, natural order: luminance, chrominance */
static const u8 vivi_std_quant[2][64] = {
	{
		16, 11, 10, 16, 24, 40, 51, 61,
		12, 12, 14, 19, 26, 58, 60, 55,
		14, 13, 16, 24, 40, 57, 69, 56,
		14, 17, 22, 29, 51, 87, 80, 62,
		18, 22, 37, 56, 68, 109, 103, 77,
		24, 35, 55, 64, 81, 104, 113, 92,
		49, 64, 78, 87, 103, 121, 120, 101,
		72, 92, 95, 98, 112, 100, 103, 99,
	}, {
		17, 18, 24, 47, 99, 99, 99, 99,
		18, 21, 26, 66, 99, 99, 99, 99,
		24, 26, 56, 99, 99, 99, 99, 99,
		47, 66, 99, 99, 99, 99, 99, 99,
		99, 99, 99, 99, 99, 99, 99, 99,
		99, 99, 99, 99, 99, 99, 99, 99,
		99, 99, 99, 99, 99, 99, 99, 99,
		99, 99, 99, 99, 99, 99, 99, 99,
	},
};

/* ITU T.81 Annex K.3: codes per length 1..16, then the symbols */
struct vivi_huff_spec {
	u8 bits[16];
	u8 nvals;
	const u8 *vals;
};

static const u8 vivi_dc_vals[12] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
};

static const u8 vivi_ac_lum_vals[162] = {
	0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12,
	0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
	0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08,
	0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
	0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16,
	0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
	0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39,
	0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
	0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
	0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
	0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79,
	0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
	0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
	0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
	0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
	0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4,
	0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
	0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea,
	0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
	0xf9, 0xfa,
};

static const u8 vivi_ac_chr_vals[162] = {
	0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21,
	0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
	0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91,
	0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
	0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34,
	0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
	0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38,
	0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
	0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
	0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78,
	0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96,
	0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
	0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
	0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
	0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2,
	0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
	0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9,
	0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
	0xf9, 0xfa,
};

/* DC luminance, DC chrominance, AC luminance, AC chrominance */
static const struct vivi_huff_spec vivi_huff[4] = {
	{ { 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 },
	  12, vivi_dc_vals },
	{ { 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 },
	  12, vivi_dc_vals },
	{ { 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d },
	  162, vivi_ac_lum_vals },
	{ { 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77 },
	  162, vivi_ac_chr_vals },
};

#define HUFF_DC(c)	((c) ? 1 : 0)
#define HUFF_AC(c)	((c) ? 3 : 2)
#define SYM_EOB		0x00
#define SYM_ZRL		0xf0
/* The largest coefficient magnitude baseline AC coding can carry */
#define AC_MAX		1023

/* One component class (luma or chroma): tables used per block. */
struct vivi_jpeg_comp {
	u32 recip[64];		/* zigzag order: 2^32 / (8 q) + 1 */
	u16 half[64];		/* zigzag order: 4 q, for rounding */
	s16 flat_dc[256];	/* quantized DC of a flat block of a sample */
	s16 lut[256];		/* limited-range sample to full range - 128 */
	u32 dc_code[12];	/* Huffman code << 8 | length */
	u32 ac_code[256];
	u8 quant[64];		/* zigzag order, as written in DQT */
};

/* The bit writer: valid bits are the low 64 - free of acc, MSB first. */
struct vivi_bw {
	u64 acc;
	u32 free;
	u8 *p;
	u8 *end;
	bool full;
};

struct vivi_jpeg {
	u32 w;
	u32 h;
	u32 row;		/* next MCU row */
	u32 rows;
	u32 mcus;		/* MCUs per row */
	int err;
	u8 *out;
	struct vivi_bw bw;
	s32 pred[3];
	struct vivi_jpeg_comp comp[2];
	u8 edge[3][8][16];	/* a padded MCU at the right or bottom edge */
};

size_t vivi_jpeg_scratch_size(void)
{
	return SCRATCH_ALIGN + sizeof(struct vivi_jpeg);
}

static struct vivi_jpeg *vivi_jpeg_state(void *scratch)
{
	return (struct vivi_jpeg *)PTR_ALIGN((u8 *)scratch, SCRATCH_ALIGN);
}

/* libjpeg's jpeg_quality_scaling() and jpeg_add_quant_table(), baseline */
static u32 vivi_quant_value(u32 basic, u32 quality)
{
	u32 scale = quality < 50 ? 5000 / quality : 200 - quality * 2;

	return clamp_t(u32, (basic * scale + 50) / 100, 1, 255);
}

/* Number of bits of |v|: the JPEG size category */
static inline u32 vivi_nbits(s32 v)
{
	return fls(v < 0 ? -v : v);
}

/* ---- Huffman tables ------------------------------------------------- */

/* Annex C: canonical codes from the counts per length */
static void vivi_huff_derive(const struct vivi_huff_spec *hs, u32 *code)
{
	u32 len, i, k = 0, c = 0;

	for (len = 1; len <= 16; len++, c <<= 1)
		for (i = 0; i < hs->bits[len - 1]; i++, k++, c++)
			code[hs->vals[k]] = c << 8 | len;
}

/* The code length of each symbol of @hs, 0 if absent */
static void vivi_huff_lengths(const struct vivi_huff_spec *hs, u8 *len)
{
	u32 l, i, k = 0;

	memset(len, 0, 256);
	for (l = 1; l <= 16; l++)
		for (i = 0; i < hs->bits[l - 1]; i++)
			len[hs->vals[k++]] = l;
}

/* ---- quantization --------------------------------------------------- */

static void vivi_comp_init(struct vivi_jpeg_comp *c, u32 tbl, u32 quality)
{
	u32 k, q, d, v;
	s32 full;

	for (k = 0; k < 64; k++) {
		q = vivi_quant_value(vivi_std_quant[tbl][vivi_zigzag[k]],
				     quality);
		c->quant[k] = q;
		/* the DCT output is 8 times the coefficient */
		d = 8 * q;
		c->recip[k] = (u32)(0x100000000ull / d) + 1;
		c->half[k] = d / 2;
	}
	for (v = 0; v < 256; v++) {
		/* BT.601 limited range to full, rounded half away from 0 */
		if (!tbl) {
			full = (clamp_t(s32, v, 16, 235) - 16) * 255 * 2 + 219;
			full = full / 438 - 128;
		} else {
			full = (clamp_t(s32, v, 16, 240) - 128) * 255 * 2;
			full = full >= 0 ? (full + 224) / 448 :
					   -((224 - full) / 448);
			full = clamp_t(s32, full, -128, 127);
		}
		c->lut[v] = full;
		/* DC of a flat block: 64 * sample / (8 q), rounded */
		d = 8 * c->quant[0];
		full *= 64;
		c->flat_dc[v] = full >= 0 ? (full + (s32)d / 2) / (s32)d :
					    -((-full + (s32)d / 2) / (s32)d);
	}
	vivi_huff_derive(&vivi_huff[HUFF_DC(tbl)], c->dc_code);
	vivi_huff_derive(&vivi_huff[HUFF_AC(tbl)], c->ac_code);
}

/* ---- the bit writer ------------------------------------------------- */

static inline void vivi_put_be64(u8 *d, u64 v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __swab64(v);
#endif
	memcpy(d, &v, sizeof(v));
}

/* One byte, stuffed, unless the output is full */
static void vivi_bw_byte(struct vivi_bw *bw, u8 b)
{
	if (bw->end - bw->p < (b == 0xff ? 2 : 1)) {
		bw->full = true;
		return;
	}
	*bw->p++ = b;
	if (b == 0xff)
		*bw->p++ = 0;
}

/* Store 64 bits: at once unless a byte needs stuffing or room is short */
static void vivi_bw_flush(struct vivi_bw *bw, u64 v)
{
	u64 t = ~v;
	int i;

	if (likely(!((t - 0x0101010101010101ull) & ~t &
		     0x8080808080808080ull) && bw->end - bw->p >= 8)) {
		vivi_put_be64(bw->p, v);
		bw->p += 8;
		return;
	}
	for (i = 56; i >= 0 && !bw->full; i -= 8)
		vivi_bw_byte(bw, v >> i);
}

/* Append the low @n (1..32) bits of @bits, which has no bits above them */
static inline void vivi_put(struct vivi_bw *bw, u32 bits, u32 n)
{
	if (likely(n < bw->free)) {
		bw->acc = bw->acc << n | bits;
		bw->free -= n;
		return;
	}
	n -= bw->free;
	vivi_bw_flush(bw, bw->acc << bw->free | (u64)bits >> n);
	/* the bits above the n new ones are shifted out before the next flush */
	bw->acc = bits;
	bw->free = 64 - n;
}

/* Pad the last byte with ones and store what is left */
static void vivi_bw_end(struct vivi_bw *bw)
{
	u32 n = 64 - bw->free, pad = (8 - n % 8) % 8;
	u64 v;

	if (pad)
		vivi_put(bw, (1u << pad) - 1, pad);
	n = 64 - bw->free;
	if (!n)
		return;
	v = bw->acc << bw->free;
	for (; n; n -= 8, v <<= 8)
		vivi_bw_byte(bw, v >> 56);
	bw->free = 64;
}

/* ---- blocks --------------------------------------------------------- */

/* Bits of the value @v of size @n: v, or v - 1 for negatives */
static inline u32 vivi_mag(s32 v, u32 n)
{
	return (u32)(v < 0 ? v - 1 : v) & ((1u << n) - 1);
}

static inline void vivi_code_dc(struct vivi_bw *bw,
				const struct vivi_jpeg_comp *c, s32 diff)
{
	u32 n = vivi_nbits(diff), code = c->dc_code[n];

	vivi_put(bw, (code >> 8) << n | vivi_mag(diff, n), (code & 0xff) + n);
}

/* A block that is only DC */
static inline void vivi_code_flat(struct vivi_bw *bw,
				  const struct vivi_jpeg_comp *c, s32 *pred,
				  u8 sample)
{
	s32 dc = c->flat_dc[sample];
	u32 eob = c->ac_code[SYM_EOB];

	vivi_code_dc(bw, c, dc - *pred);
	*pred = dc;
	vivi_put(bw, eob >> 8, eob & 0xff);
}

/* The sample of an 8x8 block if all 64 are equal, else -1 */
static inline int vivi_flat(const u8 *p, u32 stride)
{
	u64 first, row;
	u32 y;

	memcpy(&first, p, 8);
	if (first != (u64)p[0] * 0x0101010101010101ull)
		return -1;
	for (y = 1; y < 8; y++) {
		memcpy(&row, p + y * stride, 8);
		if (row != first)
			return -1;
	}
	return p[0];
}

#define CONST_BITS	13
#define PASS1_BITS	2
#define F_0_298631336	2446
#define F_0_390180644	3196
#define F_0_541196100	4433
#define F_0_765366865	6270
#define F_0_899976223	7373
#define F_1_175875602	9633
#define F_1_501321110	12299
#define F_1_847759065	15137
#define F_1_961570560	16069
#define F_2_053119869	16819
#define F_2_562915447	20995
#define F_3_072711026	25172

/*
 * One 8-point LLM DCT (Loeffler, Ligtenberg, Moschytz) over d[0], d[@s],
 * ... d[7 * @s]: even outputs scaled by 2^@up, odd ones descaled by
 * 2^@down (the rounding is folded into the shifts).
 */
static __always_inline void vivi_dct8(s32 *d, u32 s, u32 up, u32 down)
{
	s32 t0 = d[0] + d[7 * s], t7 = d[0] - d[7 * s];
	s32 t1 = d[s] + d[6 * s], t6 = d[s] - d[6 * s];
	s32 t2 = d[2 * s] + d[5 * s], t5 = d[2 * s] - d[5 * s];
	s32 t3 = d[3 * s] + d[4 * s], t4 = d[3 * s] - d[4 * s];
	s32 t10 = t0 + t3, t13 = t0 - t3, t11 = t1 + t2, t12 = t1 - t2;
	s32 rnd = 1 << (down - 1), z1, z2, z3, z4, z5;

	if (up) {
		d[0] = (t10 + t11) * (1 << up);
		d[4 * s] = (t10 - t11) * (1 << up);
	} else {
		/* the column pass: descale by PASS1_BITS, rounded */
		d[0] = (t10 + t11 + (1 << (PASS1_BITS - 1))) >> PASS1_BITS;
		d[4 * s] = (t10 - t11 + (1 << (PASS1_BITS - 1))) >>
			   PASS1_BITS;
	}
	z1 = (t12 + t13) * F_0_541196100 + rnd;
	d[2 * s] = (z1 + t13 * F_0_765366865) >> down;
	d[6 * s] = (z1 - t12 * F_1_847759065) >> down;

	z1 = t4 + t7;
	z2 = t5 + t6;
	z3 = t4 + t6;
	z4 = t5 + t7;
	z5 = (z3 + z4) * F_1_175875602 + rnd;
	t4 *= F_0_298631336;
	t5 *= F_2_053119869;
	t6 *= F_3_072711026;
	t7 *= F_1_501321110;
	z1 *= -F_0_899976223;
	z2 *= -F_2_562915447;
	z3 = z3 * -F_1_961570560 + z5;
	z4 = z4 * -F_0_390180644 + z5;
	d[7 * s] = (t4 + z1 + z3) >> down;
	d[5 * s] = (t5 + z2 + z4) >> down;
	d[3 * s] = (t6 + z2 + z3) >> down;
	d[s] = (t7 + z1 + z4) >> down;
}

/* A full block: level shift and range expansion, DCT, quantization, code */
static void vivi_code_block(struct vivi_bw *bw,
			    const struct vivi_jpeg_comp *c, s32 *pred,
			    const u8 *p, u32 stride)
{
	s32 d[64];
	s16 q[64];
	u64 nz = 0;
	u32 i, k, n, r, code;
	s32 v;

	for (i = 0; i < 8; i++, p += stride)
		for (k = 0; k < 8; k++)
			d[i * 8 + k] = c->lut[p[k]];
	for (i = 0; i < 8; i++)
		vivi_dct8(d + i * 8, 1, PASS1_BITS, CONST_BITS - PASS1_BITS);
	for (i = 0; i < 8; i++)
		vivi_dct8(d + i, 8, 0, CONST_BITS + PASS1_BITS);

	for (k = 0; k < 64; k++) {
		v = d[vivi_zigzag[k]];
		n = v < 0 ? -v : v;
		n = ((u64)(n + c->half[k]) * c->recip[k]) >> 32;
		q[k] = v < 0 ? -(s32)n : (s32)n;
		nz |= (u64)(n != 0) << k;
	}

	vivi_code_dc(bw, c, q[0] - *pred);
	*pred = q[0];
	nz >>= 1;
	for (k = 1; nz; k++, nz >>= 1) {
		r = __ffs64(nz);
		k += r;
		nz >>= r;
		for (; r >= 16; r -= 16) {
			code = c->ac_code[SYM_ZRL];
			vivi_put(bw, code >> 8, code & 0xff);
		}
		v = clamp_t(s32, q[k], -AC_MAX, AC_MAX);
		n = vivi_nbits(v);
		code = c->ac_code[r << 4 | n];
		vivi_put(bw, (code >> 8) << n | vivi_mag(v, n),
			 (code & 0xff) + n);
	}
	if (k < 64) {
		code = c->ac_code[SYM_EOB];
		vivi_put(bw, code >> 8, code & 0xff);
	}
}

static inline void vivi_block(struct vivi_bw *bw,
			      const struct vivi_jpeg_comp *c, s32 *pred,
			      const u8 *p, u32 stride)
{
	int f = vivi_flat(p, stride);

	if (f >= 0)
		vivi_code_flat(bw, c, pred, f);
	else
		vivi_code_block(bw, c, pred, p, stride);
}

/* One MCU: two Y' blocks side by side, then Cb and Cr */
static void vivi_mcu(struct vivi_jpeg *j, struct vivi_bw *bw,
		     const u8 *const pl[3], const u32 st[3])
{
	vivi_block(bw, &j->comp[0], &j->pred[0], pl[0], st[0]);
	vivi_block(bw, &j->comp[0], &j->pred[0], pl[0] + 8, st[0]);
	vivi_block(bw, &j->comp[1], &j->pred[1], pl[1], st[1]);
	vivi_block(bw, &j->comp[1], &j->pred[2], pl[2], st[2]);
}

/* Copy a partial MCU into j->edge, repeating its last column and line */
static void vivi_edge_mcu(struct vivi_jpeg *j, const u8 *const plane[3],
			  const u32 stride[3], u32 mx, u32 lines)
{
	u32 c, x, y, n, x0;

	for (c = 0; c < 3; c++) {
		x0 = c ? mx * 8 : mx * 16;
		n = (c ? DIV_ROUND_UP(j->w, 2) : j->w) - x0;
		n = min(n, c ? 8u : 16u);
		for (y = 0; y < 8; y++) {
			const u8 *s = plane[c] + (size_t)min(y, lines - 1) *
				      stride[c] + x0;

			for (x = 0; x < 16; x++)
				j->edge[c][y][x] = s[min(x, n - 1)];
		}
	}
}

/* ---- frames --------------------------------------------------------- */

static void vivi_put_u16(u8 **p, u32 v)
{
	*(*p)++ = v >> 8;
	*(*p)++ = v;
}

/* The headers, up to SOS; returns the bytes written (at most 640) */
static size_t vivi_headers(const struct vivi_jpeg *j, u8 *out)
{
	static const u8 soi_app0[] = {
		0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0,
		1, 1, 0, 0, 1, 0, 1, 0, 0,
	};
	u8 *p = out;
	u32 i, t;

	memcpy(p, soi_app0, sizeof(soi_app0));
	p += sizeof(soi_app0);
	vivi_put_u16(&p, 0xffdb);
	vivi_put_u16(&p, 2 + 2 * 65);
	for (t = 0; t < 2; t++) {
		*p++ = t;
		memcpy(p, j->comp[t].quant, 64);
		p += 64;
	}
	vivi_put_u16(&p, 0xffc0);
	vivi_put_u16(&p, 8 + 3 * 3);
	*p++ = 8;
	vivi_put_u16(&p, j->h);
	vivi_put_u16(&p, j->w);
	*p++ = 3;
	for (i = 1; i <= 3; i++) {
		*p++ = i;
		*p++ = i == 1 ? 0x21 : 0x11;
		*p++ = i == 1 ? 0 : 1;
	}
	vivi_put_u16(&p, 0xffc4);
	vivi_put_u16(&p, 2 + 4 * 17 + 2 * 12 + 2 * 162);
	for (t = 0; t < 4; t++) {
		/* class 0 = DC, 1 = AC; table 0 = luma, 1 = chroma */
		*p++ = (t >> 1) << 4 | (t & 1);
		memcpy(p, vivi_huff[t].bits, 16);
		p += 16;
		memcpy(p, vivi_huff[t].vals, vivi_huff[t].nvals);
		p += vivi_huff[t].nvals;
	}
	vivi_put_u16(&p, 0xffda);
	vivi_put_u16(&p, 6 + 2 * 3);
	*p++ = 3;
	for (i = 1; i <= 3; i++) {
		*p++ = i;
		*p++ = i == 1 ? 0x00 : 0x11;
	}
	*p++ = 0;
	*p++ = 63;
	*p++ = 0;
	return p - out;
}

/* SOI..SOS, computed once: the DQT values do not change its size */
#define HEADER_BYTES	(20 + 4 + 2 * 65 + 19 + 4 + 4 * 17 + 2 * 12 + \
			 2 * 162 + 14)

static bool vivi_jpeg_args_ok(u32 width, u32 height, u32 quality)
{
	return width && height && width <= VIVI_JPEG_MAX_DIM &&
	       height <= VIVI_JPEG_MAX_DIM &&
	       quality >= VIVI_JPEG_QUALITY_MIN &&
	       quality <= VIVI_JPEG_QUALITY_MAX;
}

int vivi_jpeg_begin(void *scratch, u32 width, u32 height, u32 quality,
		    u8 *out, size_t size)
{
	struct vivi_jpeg *j;

	if (!scratch)
		return -EINVAL;
	j = vivi_jpeg_state(scratch);
	j->err = -EINVAL;
	if (!out || !vivi_jpeg_args_ok(width, height, quality))
		return -EINVAL;
	j->w = width;
	j->h = height;
	j->row = 0;
	j->rows = DIV_ROUND_UP(height, 8);
	j->mcus = DIV_ROUND_UP(width, 16);
	j->out = out;
	memset(j->pred, 0, sizeof(j->pred));
	vivi_comp_init(&j->comp[0], 0, quality);
	vivi_comp_init(&j->comp[1], 1, quality);
	if (size < HEADER_BYTES) {
		j->err = -ENOSPC;
		return -ENOSPC;
	}
	j->bw.acc = 0;
	j->bw.free = 64;
	j->bw.p = out + vivi_headers(j, out);
	j->bw.end = out + size;
	j->bw.full = false;
	j->err = 0;
	return 0;
}

int vivi_jpeg_encode_band(void *scratch, const u8 *const plane[3],
			  const u32 stride[3])
{
	struct vivi_jpeg *j;
	struct vivi_bw bw;
	const u8 *pl[3];
	u32 st[3], mx, full, lines, c;

	if (!scratch || !plane || !stride)
		return -EINVAL;
	j = vivi_jpeg_state(scratch);
	if (j->err)
		return j->err;
	if (j->row >= j->rows || !plane[0] || !plane[1] || !plane[2])
		return -EINVAL;
	lines = min(8u, j->h - j->row * 8);
	/* whole MCUs straight from the planes, the rest through edge[] */
	full = lines == 8 ? j->w / 16 : 0;
	bw = j->bw;
	for (mx = 0; mx < full; mx++) {
		pl[0] = plane[0] + mx * 16;
		pl[1] = plane[1] + mx * 8;
		pl[2] = plane[2] + mx * 8;
		vivi_mcu(j, &bw, pl, stride);
	}
	for (; mx < j->mcus; mx++) {
		vivi_edge_mcu(j, plane, stride, mx, lines);
		pl[0] = j->edge[0][0];
		pl[1] = j->edge[1][0];
		pl[2] = j->edge[2][0];
		for (c = 0; c < 3; c++)
			st[c] = sizeof(j->edge[c][0]);
		vivi_mcu(j, &bw, pl, st);
	}
	j->bw = bw;
	j->row++;
	if (bw.full)
		j->err = -ENOSPC;
	return j->err;
}

int vivi_jpeg_finish(void *scratch, size_t *bytesused)
{
	struct vivi_jpeg *j;

	if (!scratch || !bytesused)
		return -EINVAL;
	j = vivi_jpeg_state(scratch);
	if (j->err)
		return j->err;
	if (j->row != j->rows)
		return -EINVAL;
	vivi_bw_end(&j->bw);
	if (j->bw.full || j->bw.end - j->bw.p < 2) {
		j->err = -ENOSPC;
		return -ENOSPC;
	}
	*j->bw.p++ = 0xff;
	*j->bw.p++ = 0xd9;
	*bytesused = j->bw.p - j->out;
	/* a second finish or band is an error */
	j->err = -EINVAL;
	return 0;
}

/* ---- the worst case ------------------------------------------------- */

/*
 * The level-shifted samples of a block lie in -128..127, and the DCT is
 * orthonormal, so the squares of a block's 64 coefficients add up to at
 * most 64 * 128^2 (Parseval). A coefficient that quantizes to a magnitude
 * of size s needs |F| >= (2^(s-1) - 1/2) q - 1 (the 1 covers the integer
 * DCT's error), so large values everywhere at once are impossible. The
 * most bits of a block under that energy budget are bounded by Lagrange:
 * for any lambda >= 0, bits <= lambda * budget + the most of (bits -
 * lambda * energy) over all blocks, found by a walk over the zigzag
 * positions as the Huffman coder takes them. The least of these over a
 * fixed set of lambdas is still a bound, and grows with the quality.
 */
#define BOUND_BUDGET	(64ull * 128 * 128)
#define BOUND_SHIFT	32
#define BOUND_LAMBDAS	48

/* Least energy of a coefficient that quantizes to size @s at step @q */
static u64 vivi_bound_energy(u32 s, u32 q)
{
	s64 f = ((2 * ((s64)1 << (s - 1)) - 1) * q - 2);

	/* in halves: (f / 2)^2, rounded down */
	return f > 0 ? (u64)(f * f) / 4 : 0;
}

/* A coefficient of size @s at step @q, less lambda = @l / 2^32 per energy */
static s64 vivi_bound_gain(u32 s, u32 q, u64 l)
{
	/* past the budget is as good as impossible */
	return ((s64)s << BOUND_SHIFT) -
	       (s64)(l * min_t(u64, vivi_bound_energy(s, q), BOUND_BUDGET + 1));
}

/* Most of (bits - lambda * energy) over the AC part, lambda = @l / 2^32 */
static s64 vivi_bound_ac(const u8 *acl, const u32 *q, const u8 *smax, u64 l)
{
	s64 g[65], best, b;
	u32 k, r, s;

	g[64] = 0;
	for (k = 63; k >= 1; k--) {
		best = (s64)acl[SYM_EOB] << BOUND_SHIFT;
		for (r = 0; r < 16 && k + r < 64; r++)
			for (s = 1; s <= smax[k + r]; s++) {
				b = ((s64)acl[r << 4 | s] << BOUND_SHIFT) +
				    vivi_bound_gain(s, q[k + r], l) +
				    g[k + r + 1];
				best = max(best, b);
			}
		if (k + 16 < 64)
			best = max(best, ((s64)acl[SYM_ZRL] << BOUND_SHIFT) +
					 g[k + 16]);
		g[k] = best;
	}
	return g[1];
}

/* Most bits one block of class @tbl can take at @quality */
static u32 vivi_block_bits(u32 tbl, u32 quality)
{
	u8 dcl[256], acl[256], smax[64];
	u32 q[64], k, s, dc = 0;
	u64 l = 1ull << BOUND_SHIFT, bits, best = U64_MAX;
	unsigned int i;

	vivi_huff_lengths(&vivi_huff[HUFF_DC(tbl)], dcl);
	vivi_huff_lengths(&vivi_huff[HUFF_AC(tbl)], acl);
	for (k = 0; k < 64; k++) {
		q[k] = vivi_quant_value(vivi_std_quant[tbl][vivi_zigzag[k]],
					quality);
		/* |8 F| <= 8192: the coefficient is at most 1024 / q */
		smax[k] = min_t(u32, fls(DIV_ROUND_UP(1024, q[k])), k ? 10 : 11);
	}
	/* a DC difference is at most twice the largest DC; not charged */
	for (s = 0; s <= min(smax[0] + 1u, 11u); s++)
		dc = max_t(u32, dc, dcl[s] + s);
	/* lambda from 1 down to 2^-16 bits per unit of energy */
	for (i = 0; i < BOUND_LAMBDAS; i++, l = l * 203 / 256) {
		s64 ac = vivi_bound_ac(acl, q, smax, l);
		u64 total = (u64)max_t(s64, ac, 0) + l * BOUND_BUDGET;

		bits = (total >> BOUND_SHIFT) + 1;
		best = min(best, bits);
	}
	return dc + best;
}

void vivi_jpeg_bound_init(struct vivi_jpeg_bound *b, u32 quality)
{
	quality = clamp_t(u32, quality, VIVI_JPEG_QUALITY_MIN,
			  VIVI_JPEG_QUALITY_MAX);
	b->quality = quality;
	b->block_bits[0] = vivi_block_bits(0, quality);
	b->block_bits[1] = vivi_block_bits(1, quality);
}

size_t vivi_jpeg_bound_size(const struct vivi_jpeg_bound *b, u32 width,
			    u32 height)
{
	u64 mcus, bits;

	if (!vivi_jpeg_args_ok(width, height, b->quality))
		return 0;
	mcus = (u64)DIV_ROUND_UP(width, 16) * DIV_ROUND_UP(height, 8);
	bits = mcus * (2 * b->block_bits[0] + 2 * b->block_bits[1]);
	/* every byte may be 0xff and stuffed; the padded last byte; EOI */
	return HEADER_BYTES + 2 * DIV_ROUND_UP(bits, 8) + 2 + 2;
}

size_t vivi_jpeg_max_size(u32 width, u32 height, u32 quality)
{
	struct vivi_jpeg_bound b;

	if (!vivi_jpeg_args_ok(width, height, quality))
		return 0;
	vivi_jpeg_bound_init(&b, quality);
	return vivi_jpeg_bound_size(&b, width, height);
}

/* A marker that may end entropy-coded data: not stuffing, RSTn or fill */
static bool vivi_jpeg_ends_scan(u8 m)
{
	return m && m != 0xff && (m < 0xd0 || m > 0xd7);
}

size_t vivi_jpeg_length(const u8 *p, size_t size)
{
	size_t i = 2, seg;
	u8 m;

	if (!p || size < 4 || p[0] != 0xff || p[1] != 0xd8)
		return 0;
	while (i + 2 <= size) {
		if (p[i] != 0xff)
			return 0;
		m = p[i + 1];
		if (m == 0xff) {		/* fill byte before a marker */
			i++;
			continue;
		}
		if (m == 0xd9)			/* EOI */
			return i + 2;
		/* SOI, TEM and RSTn stand alone, never between segments */
		if (m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7) ||
		    i + 4 > size)
			return 0;
		seg = (size_t)p[i + 2] << 8 | p[i + 3];
		if (seg < 2)
			return 0;
		i += 2 + seg;
		if (m != 0xda)			/* SOS: its scan follows */
			continue;
		while (i + 1 < size &&
		       !(p[i] == 0xff && vivi_jpeg_ends_scan(p[i + 1])))
			i++;
	}
	return 0;
}
