// SPDX-License-Identifier: GPL-2.0
/*
 * Faults on demand: what the stream of a capture node does wrong when a
 * test asks, set through debugfs (vivi/videoN/faults/), where neither
 * applications nor v4l2-compliance see it, and with fault_controls=1 also
 * through controls of their own class. Every fault is off until written.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <media/v4l2-ctrls.h>

#include "vivi.h"

/* a stall longer than this is surely a typo */
#define VIVI_STALL_MAX_MS	60000

/* splitmix64's finalizer: a well-mixed hash of the seed and sequence */
static u64 vivi_inject_hash(u64 x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static bool vivi_inject_drop(const struct vivi_faults *f, u32 sequence)
{
	if (f->drop_every && sequence % f->drop_every == f->drop_every - 1)
		return true;
	if (!f->drop_percent)
		return false;
	return vivi_inject_hash(((u64)f->drop_seed << 32) | sequence) % 100 <
	       f->drop_percent;
}

/**
 * vivi_inject_frame() - what becomes of the frame due now
 * @cap: the streaming capture node
 * @sequence: its sequence number
 * @now_ns: the time it is handed over
 *
 * Called by the frame thread at each deadline; counts what it injects.
 *
 * Return: the fault to apply to this frame, VIVI_FAULT_NONE for none.
 */
enum vivi_fault vivi_inject_frame(struct vivi_cap *cap, u32 sequence,
				  u64 now_ns)
{
	struct vivi_faults *f = &cap->faults;
	enum vivi_fault ret = VIVI_FAULT_NONE;

	spin_lock_irq(&cap->node.vivi->slock);
	if (now_ns < f->stall_until_ns) {
		ret = VIVI_FAULT_STALL;
		cap->stats.stalled++;
	} else if (vivi_inject_drop(f, sequence)) {
		ret = VIVI_FAULT_DROP;
		cap->stats.injected_drops++;
	} else if (f->corrupt_every &&
		   sequence % f->corrupt_every == f->corrupt_every - 1) {
		ret = VIVI_FAULT_CORRUPT;
		cap->stats.corrupted++;
	}
	spin_unlock_irq(&cap->node.vivi->slock);
	return ret;
}

/**
 * vivi_inject_fail() - take a one-shot set-up failure, if one is armed
 * @cap: the capture node
 * @which: VIVI_FAIL_REQBUFS or VIVI_FAIL_STREAMON
 *
 * Return: 0, or the negative error the armed fault asks for (once).
 */
int vivi_inject_fail(struct vivi_cap *cap, enum vivi_fail which)
{
	int err;

	spin_lock_irq(&cap->node.vivi->slock);
	err = cap->faults.fail[which];
	cap->faults.fail[which] = 0;
	spin_unlock_irq(&cap->node.vivi->slock);
	return -err;
}

/**
 * vivi_inject_sequence_start() - the sequence number of a stream's first frame
 * @cap: the capture node
 *
 * Return: 0 unless a test asked to start near the 32-bit wrap
 */
u32 vivi_inject_sequence_start(struct vivi_cap *cap)
{
	u32 seq;

	spin_lock_irq(&cap->node.vivi->slock);
	seq = cap->faults.sequence_start;
	spin_unlock_irq(&cap->node.vivi->slock);
	return seq;
}

/* The knobs: their names, ranges, and the controls' names */

static const struct {
	const char *name;
	const char *ctrl_name;
	u64 max;
} vivi_knobs[VIVI_KNOB_COUNT] = {
	[VIVI_KNOB_DROP_EVERY] = {
		"drop_every", "Drop Every Nth Frame", U32_MAX },
	[VIVI_KNOB_DROP_PERCENT] = {
		"drop_percent", "Drop Percentage", 100 },
	[VIVI_KNOB_DROP_SEED] = {
		"drop_seed", "Drop Seed", U32_MAX },
	[VIVI_KNOB_CORRUPT_EVERY] = {
		"corrupt_every", "Corrupt Every Nth Frame", U32_MAX },
	[VIVI_KNOB_STALL_MS] = {
		"stall_ms", "Stall (ms)", VIVI_STALL_MAX_MS },
	[VIVI_KNOB_FAIL_REQBUFS] = {
		"fail_reqbufs", "Fail Next REQBUFS (errno)", MAX_ERRNO },
	[VIVI_KNOB_FAIL_STREAMON] = {
		"fail_streamon", "Fail Next STREAMON (errno)", MAX_ERRNO },
	[VIVI_KNOB_SEQUENCE_START] = {
		"sequence_start", "Sequence Start", U32_MAX },
};

/* the knob of a debugfs file, from its name (all files share one fops) */
static int vivi_knob_of(struct file *file)
{
	const char *name = file->f_path.dentry->d_name.name;
	int k;

	for (k = 0; k < VIVI_KNOB_COUNT; k++)
		if (!strcmp(name, vivi_knobs[k].name))
			return k;
	return -ENOENT;
}

static u32 *vivi_knob_field(struct vivi_faults *f, int k)
{
	switch (k) {
	case VIVI_KNOB_DROP_EVERY:
		return &f->drop_every;
	case VIVI_KNOB_DROP_PERCENT:
		return &f->drop_percent;
	case VIVI_KNOB_DROP_SEED:
		return &f->drop_seed;
	case VIVI_KNOB_CORRUPT_EVERY:
		return &f->corrupt_every;
	case VIVI_KNOB_STALL_MS:
		return &f->stall_ms;
	case VIVI_KNOB_FAIL_REQBUFS:
		return &f->fail[VIVI_FAIL_REQBUFS];
	case VIVI_KNOB_FAIL_STREAMON:
		return &f->fail[VIVI_FAIL_STREAMON];
	default:
		return &f->sequence_start;
	}
}

/* Set knob @k of @cap to @val (in range); a stall needs a stream */
static int vivi_knob_set(struct vivi_cap *cap, int k, u64 val)
{
	struct vivi_dev *vivi = cap->node.vivi;

	if (k == VIVI_KNOB_STALL_MS && val && !vb2_is_streaming(&cap->node.queue)) {
		v4l2_info(&vivi->v4l2_dev,
			  "faults/stall_ms: only while streaming\n");
		return -EBUSY;
	}
	spin_lock_irq(&vivi->slock);
	*vivi_knob_field(&cap->faults, k) = val;
	if (k == VIVI_KNOB_STALL_MS) {
		cap->faults.stall_until_ns = ktime_get_ns() +
					      val * NSEC_PER_MSEC;
		cap->faults.stall_owner = READ_ONCE(cap->node.queue.owner);
	}
	spin_unlock_irq(&vivi->slock);
	return 0;
}

/*
 * What knob @k has armed: a one-shot failure reads 0 once taken, a stall 0
 * once it has passed or its file closed
 */
static u32 vivi_knob_get(struct vivi_cap *cap, int k)
{
	struct vivi_faults *f = &cap->faults;
	u32 val;

	spin_lock_irq(&cap->node.vivi->slock);
	val = *vivi_knob_field(f, k);
	if (k == VIVI_KNOB_STALL_MS && ktime_get_ns() >= f->stall_until_ns)
		val = 0;
	spin_unlock_irq(&cap->node.vivi->slock);
	return val;
}

/* the stall is over; with &vivi_dev.slock held */
static void vivi_inject_unstall(struct vivi_faults *f)
{
	f->stall_ms = 0;
	f->stall_until_ns = 0;
	f->stall_owner = NULL;
}

/**
 * vivi_inject_stream_start() - a stream starts: forget another's stall
 * @cap: the capture node
 *
 * A stall belongs to the file that was streaming when it was set: another
 * file's stream starts unstalled. The same file may restart its stream in
 * the stall and stays stalled, as Chromium does after one second without a
 * frame (crbug.com/1010557), or a stall could never outlast that second.
 * The other knobs are settings, kept until written again. Called with the
 * queue's lock held.
 */
void vivi_inject_stream_start(struct vivi_cap *cap)
{
	spin_lock_irq(&cap->node.vivi->slock);
	if (cap->faults.stall_owner != cap->node.queue.owner)
		vivi_inject_unstall(&cap->faults);
	spin_unlock_irq(&cap->node.vivi->slock);
}

/**
 * vivi_inject_release() - a file closes: its stall is over
 * @cap: the capture node
 * @fh: the file's &struct v4l2_fh
 */
void vivi_inject_release(struct vivi_cap *cap, void *fh)
{
	spin_lock_irq(&cap->node.vivi->slock);
	if (cap->faults.stall_owner == fh)
		vivi_inject_unstall(&cap->faults);
	spin_unlock_irq(&cap->node.vivi->slock);
}

static ssize_t vivi_knob_read(struct file *file, char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	struct vivi_cap *cap = file->private_data;
	int k = vivi_knob_of(file);
	char buf[16];
	u32 val;

	if (k < 0)
		return k;
	val = vivi_knob_get(cap, k);
	return simple_read_from_buffer(ubuf, len, ppos, buf,
				       scnprintf(buf, sizeof(buf), "%u\n", val));
}

static ssize_t vivi_knob_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct vivi_cap *cap = file->private_data;
	struct vivi_dev *vivi = cap->node.vivi;
	int k = vivi_knob_of(file);
	u64 val;
	int ret;

	if (k < 0)
		return k;
	/* decimal, as docs/testing-apps.md writes them: "010" is ten, not eight */
	ret = kstrtou64_from_user(ubuf, len, 10, &val);
	if (ret || val > vivi_knobs[k].max) {
		v4l2_info(&vivi->v4l2_dev,
			  "faults/%s: takes a number from 0 to %llu\n",
			  vivi_knobs[k].name, vivi_knobs[k].max);
		return ret ?: -ERANGE;
	}
	/* through the control, if there is one, so that it stays in step */
	if (!cap->faults.ctrl[k])
		ret = vivi_knob_set(cap, k, val);
	else if (cap->faults.ctrl[k]->type == V4L2_CTRL_TYPE_INTEGER64)
		ret = v4l2_ctrl_s_ctrl_int64(cap->faults.ctrl[k], val);
	else
		ret = v4l2_ctrl_s_ctrl(cap->faults.ctrl[k], val);
	return ret ?: len;
}

static const struct file_operations vivi_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = vivi_knob_read,
	.write = vivi_knob_write,
	.llseek = default_llseek,
};

/**
 * vivi_inject_debugfs() - create the faults/ directory of a capture node
 * @cap: the capture node
 * @parent: the node's debugfs directory
 */
void vivi_inject_debugfs(struct vivi_cap *cap, struct dentry *parent)
{
	struct dentry *dir = debugfs_create_dir("faults", parent);
	int k;

	for (k = 0; k < VIVI_KNOB_COUNT; k++)
		debugfs_create_file(vivi_knobs[k].name, 0600, dir, cap,
				    &vivi_knob_fops);
}

/* The opt-in controls: a class of their own, apart from the camera's */

#define VIVI_CTRL_CLASS_FAULTS	0x00f10000
#define VIVI_CID_FAULTS_CLASS	(VIVI_CTRL_CLASS_FAULTS | 1)
#define VIVI_CID_FAULTS_BASE	(VIVI_CTRL_CLASS_FAULTS | 0x900)

static int vivi_inject_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vivi_cap *cap = ctrl->priv;

	return vivi_knob_set(cap, ctrl->id - VIVI_CID_FAULTS_BASE,
			     ctrl->type == V4L2_CTRL_TYPE_INTEGER64 ?
			     *ctrl->p_new.p_s64 : ctrl->val);
}

/* the controls read what is armed now, not the last value written */
static int vivi_inject_g_ctrl(struct v4l2_ctrl *ctrl)
{
	u32 val = vivi_knob_get(ctrl->priv, ctrl->id - VIVI_CID_FAULTS_BASE);

	if (ctrl->type == V4L2_CTRL_TYPE_INTEGER64)
		*ctrl->p_new.p_s64 = val;
	else
		ctrl->val = val;
	return 0;
}

static const struct v4l2_ctrl_ops vivi_inject_ctrl_ops = {
	.g_volatile_ctrl = vivi_inject_g_ctrl,
	.s_ctrl = vivi_inject_s_ctrl,
};

static const struct v4l2_ctrl_config vivi_inject_class = {
	.id = VIVI_CID_FAULTS_CLASS,
	.name = "vivi Fault Injection",
	.type = V4L2_CTRL_TYPE_CTRL_CLASS,
	.flags = V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
};

/**
 * vivi_inject_ctrls() - offer the fault knobs as controls too
 * @cap: the capture node whose faults they set
 * @hdl: the handler to add them to; errors are left in hdl->error
 *
 * Only with the fault_controls module parameter: applications show every
 * control, and v4l2-compliance sets them, so they are off by default. Each
 * is written on every set (EXECUTE_ON_WRITE), so that setting a stall or a
 * failure again arms it again, and reads what is armed (VOLATILE).
 */
void vivi_inject_ctrls(struct vivi_cap *cap, struct v4l2_ctrl_handler *hdl)
{
	struct v4l2_ctrl_config cfg = {
		.ops = &vivi_inject_ctrl_ops,
		.step = 1,
		.flags = V4L2_CTRL_FLAG_EXECUTE_ON_WRITE |
			 V4L2_CTRL_FLAG_VOLATILE,
	};
	int k;

	v4l2_ctrl_new_custom(hdl, &vivi_inject_class, NULL);
	for (k = 0; k < VIVI_KNOB_COUNT; k++) {
		cfg.id = VIVI_CID_FAULTS_BASE + k;
		cfg.name = vivi_knobs[k].ctrl_name;
		cfg.max = vivi_knobs[k].max;
		cfg.type = cfg.max > S32_MAX ? V4L2_CTRL_TYPE_INTEGER64 :
					       V4L2_CTRL_TYPE_INTEGER;
		cap->faults.ctrl[k] = v4l2_ctrl_new_custom(hdl, &cfg, cap);
	}
}
