// SPDX-License-Identifier: GPL-2.0
/*
 * tjpeg.c - MJPEG frames for the unit tests: encoded by vivi_draw_mjpeg,
 * decoded by libjpeg
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "tjpeg.h"
#include "tutil.h"
#include "vivi_draw.h"
#include "vivi_jpeg.h"

struct tdec_err {
	struct jpeg_error_mgr mgr;
	jmp_buf jb;
	int warnings;
	char msg[JMSG_LENGTH_MAX];
};

static void tdec_exit(j_common_ptr ci)
{
	struct tdec_err *e = (struct tdec_err *)ci->err;

	ci->err->format_message(ci, e->msg);
	longjmp(e->jb, 1);
}

static void tdec_emit(j_common_ptr ci, int level)
{
	struct tdec_err *e = (struct tdec_err *)ci->err;

	/* level -1 is a warning (corrupt data, extraneous bytes...) */
	if (level < 0 && !e->warnings++)
		ci->err->format_message(ci, e->msg);
}

int tdecode_jpeg(const u8 *jpg, size_t n, u32 w, u32 h, u8 *rgb,
		 struct tdec_info *info, const char *what)
{
	struct jpeg_decompress_struct ci;
	struct tdec_err err;
	JSAMPROW row;
	int i, k;

	memset(&err, 0, sizeof(err));
	ci.err = jpeg_std_error(&err.mgr);
	err.mgr.error_exit = tdec_exit;
	err.mgr.emit_message = tdec_emit;
	if (setjmp(err.jb)) {
		tu_fail("%s: libjpeg: %s", what, err.msg);
		jpeg_destroy_decompress(&ci);
		return -1;
	}
	jpeg_create_decompress(&ci);
	jpeg_mem_src(&ci, jpg, n);
	jpeg_read_header(&ci, TRUE);
	if (ci.image_width != w || ci.image_height != h ||
	    ci.num_components != 3 || ci.progressive_mode ||
	    ci.jpeg_color_space != JCS_YCbCr || ci.data_precision != 8) {
		tu_fail("%s: header %ux%u, %d components", what,
			ci.image_width, ci.image_height, ci.num_components);
		jpeg_destroy_decompress(&ci);
		return -1;
	}
	if (info) {
		info->jfif = ci.saw_JFIF_marker;
		info->sampling_ok = ci.comp_info[0].h_samp_factor == 2 &&
				    ci.comp_info[0].v_samp_factor == 1 &&
				    ci.comp_info[1].h_samp_factor == 1 &&
				    ci.comp_info[1].v_samp_factor == 1 &&
				    ci.comp_info[2].h_samp_factor == 1 &&
				    ci.comp_info[2].v_samp_factor == 1;
		for (i = 0; i < 2; i++)
			for (k = 0; k < 64; k++)
				info->q[i][k] = ci.quant_tbl_ptrs[i] ?
					ci.quant_tbl_ptrs[i]->quantval[k] : -1;
	}
	ci.out_color_space = JCS_RGB;
	ci.do_fancy_upsampling = FALSE;
	ci.dct_method = JDCT_ISLOW;
	jpeg_start_decompress(&ci);
	while (ci.output_scanline < h) {
		row = rgb + (size_t)ci.output_scanline * w * 3;
		jpeg_read_scanlines(&ci, &row, 1);
	}
	jpeg_finish_decompress(&ci);
	jpeg_destroy_decompress(&ci);
	if (err.warnings) {
		tu_fail("%s: libjpeg warned: %s", what, err.msg);
		return -1;
	}
	return 0;
}

u8 *tencode(const struct vivi_gen_settings *s, u32 frame, u32 w, u32 h,
	    u32 quality, size_t *n, const char *what)
{
	size_t max = vivi_jpeg_max_size(w, h, quality);
	struct vivi_source src = {
		.type = VIVI_SOURCE_PATTERN, .pattern = s, .frame = frame,
	};
	size_t ss = vivi_draw_scratch_size(w);
	u8 *out = malloc(max), *scratch = malloc(ss + 1);
	int ret;

	if (!out || !scratch) {
		perror("malloc");
		exit(2);
	}
	*n = 0;
	/* odd address: "any alignment" */
	ret = vivi_draw_mjpeg(&src, w, h, quality, out, max, n, scratch + 1);
	free(scratch);
	if (ret) {
		tu_fail("%s: vivi_draw_mjpeg returned %d", what, ret);
		free(out);
		return NULL;
	}
	if (*n > max || *n < 4 || out[*n - 2] != 0xff || out[*n - 1] != 0xd9)
		tu_fail("%s: %zu bytes (bound %zu), no EOI at the end", what,
			*n, max);
	return out;
}
