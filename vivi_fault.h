/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The faults a test can inject into a node's stream (vivi_inject.c): what
 * one frame suffers, the set-up steps that can be made to fail once, and
 * the knobs that arm them
 */
#ifndef _VIVI_FAULT_H_
#define _VIVI_FAULT_H_

#include <linux/types.h>

struct dentry;
struct v4l2_ctrl;
struct v4l2_ctrl_handler;
struct vivi_cap;

/**
 * enum vivi_fault - what an injected fault does to one frame
 * @VIVI_FAULT_NONE: delivered as usual
 * @VIVI_FAULT_DROP: not delivered; the sequence number skips it
 * @VIVI_FAULT_STALL: not delivered, during a stall
 * @VIVI_FAULT_CORRUPT: delivered with V4L2_BUF_FLAG_ERROR and its payload
 */
enum vivi_fault {
	VIVI_FAULT_NONE,
	VIVI_FAULT_DROP,
	VIVI_FAULT_STALL,
	VIVI_FAULT_CORRUPT,
};

/**
 * enum vivi_fail - the set-up steps that can be made to fail once
 * @VIVI_FAIL_REQBUFS: the next buffer allocation (REQBUFS, CREATE_BUFS)
 * @VIVI_FAIL_STREAMON: the next start of streaming
 * @VIVI_FAIL_COUNT: the number of steps
 */
enum vivi_fail {
	VIVI_FAIL_REQBUFS,
	VIVI_FAIL_STREAMON,
	VIVI_FAIL_COUNT,
};

/**
 * enum vivi_knob - the fault knobs, each a debugfs file (and an opt-in control)
 * @VIVI_KNOB_DROP_EVERY: &vivi_faults.drop_every
 * @VIVI_KNOB_DROP_PERCENT: &vivi_faults.drop_percent
 * @VIVI_KNOB_DROP_SEED: &vivi_faults.drop_seed
 * @VIVI_KNOB_CORRUPT_EVERY: &vivi_faults.corrupt_every
 * @VIVI_KNOB_STALL_MS: &vivi_faults.stall_ms; starts a stall
 * @VIVI_KNOB_FAIL_REQBUFS: &vivi_faults.fail for REQBUFS
 * @VIVI_KNOB_FAIL_STREAMON: &vivi_faults.fail for STREAMON
 * @VIVI_KNOB_SEQUENCE_START: &vivi_faults.sequence_start
 * @VIVI_KNOB_COUNT: the number of knobs
 */
enum vivi_knob {
	VIVI_KNOB_DROP_EVERY,
	VIVI_KNOB_DROP_PERCENT,
	VIVI_KNOB_DROP_SEED,
	VIVI_KNOB_CORRUPT_EVERY,
	VIVI_KNOB_STALL_MS,
	VIVI_KNOB_FAIL_REQBUFS,
	VIVI_KNOB_FAIL_STREAMON,
	VIVI_KNOB_SEQUENCE_START,
	VIVI_KNOB_COUNT,
};

/**
 * struct vivi_faults - the faults a test asked for, from debugfs
 * @drop_every: drop each frame whose sequence number is N - 1 modulo N;
 *	0 = off
 * @drop_percent: drop this share of frames, 0 to 100, picked by a hash of
 *	@drop_seed and the sequence number, so a run can be replayed
 * @drop_seed: see @drop_percent
 * @corrupt_every: like @drop_every, but the buffer comes back with
 *	V4L2_BUF_FLAG_ERROR
 * @stall_ms: the stall asked for, in ms; 0 once @stall_owner closes, or
 *	another file starts a stream
 * @stall_until_ns: no frame is delivered before this monotonic time
 * @stall_owner: the queue's owner (a &struct v4l2_fh) when the stall was
 *	set; only compared, never followed
 * @fail: a positive errno that the next such step returns, once; 0 = none
 * @sequence_start: the sequence number of the first frame of a stream
 * @ctrl: the control of each knob, with fault_controls=1; else NULL
 *
 * The values are guarded by &vivi_dev.slock; @ctrl is set at probe.
 */
struct vivi_faults {
	u32 drop_every;
	u32 drop_percent;
	u32 drop_seed;
	u32 corrupt_every;
	u32 stall_ms;
	u64 stall_until_ns;
	void *stall_owner;
	u32 fail[VIVI_FAIL_COUNT];
	u32 sequence_start;
	struct v4l2_ctrl *ctrl[VIVI_KNOB_COUNT];
};

/* vivi_inject.c: faults on demand */
enum vivi_fault vivi_inject_frame(struct vivi_cap *cap, u32 sequence,
				  u64 now_ns);
int vivi_inject_fail(struct vivi_cap *cap, enum vivi_fail which);
u32 vivi_inject_sequence_start(struct vivi_cap *cap);
void vivi_inject_stream_start(struct vivi_cap *cap);
void vivi_inject_release(struct vivi_cap *cap, void *fh);
void vivi_inject_debugfs(struct vivi_cap *cap, struct dentry *parent);
void vivi_inject_ctrls(struct vivi_cap *cap, struct v4l2_ctrl_handler *hdl);

#endif
