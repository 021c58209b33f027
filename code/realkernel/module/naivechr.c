// SPDX-License-Identifier: GPL-2.0
/*
 * naivechr.c - a platform driver with a character device (a misc device),
 * written the naive way or the fixed way.
 *
 * The workbook's second test module for Linux 6.1 (make real-kernel): stage
 * 5's naive driver on the real kernel.  The module registers the platform
 * device "naivechr" and its driver; probe() allocates the driver's data,
 * managed (it is freed by devres after remove(), as devm_kzalloc() memory
 * is), and registers /dev/naivechr.  A file opened before the driver is
 * unbound (echo naivechr > /sys/bus/platform/drivers/naivechr/unbind)
 * stays open after it:
 *
 *   fixed=0  the file reaches the data through file->private_data, which
 *            misc_open() points at the miscdevice inside it.  Nothing
 *            keeps the data for the file: unbind frees it, and a later
 *            read() copies its freed greeting to user space, a write()
 *            follows its freed pointer to the device's registers.
 *   fixed=1  the file holds a gate instead: a kref for the gate's memory
 *            and SRCU for the access to the data (what stage 5's
 *            revocable_provider does).  remove() clears the gate's
 *            pointer and waits for readers inside; read() and write()
 *            then find no data and return -ENODEV.
 *
 * Why the use-after-free is certain, not likely: the data comes from a
 * cache of its own, created with SLAB_POISON, SLAB_RED_ZONE and
 * SLAB_CONSISTENCY_CHECKS (slub_debug=FZP for this cache alone;
 * CONFIG_SLUB_DEBUG is on in Debian's kernel, and debug flags given to
 * kmem_cache_create() turn SLUB's debugging on by themselves).  At free
 * SLUB fills a poisoned object with POISON_FREE (0x6b, ASCII 'k') up to its
 * last byte (POISON_END, 0xa5) and keeps its free pointer outside the
 * object.  Debug flags keep the cache from being merged with another, so
 * only probe() allocates from it, and SLUB keeps the emptied slab on the
 * cache's partial list (fewer than min_partial slabs), so the page is not
 * handed back: the freed greeting reads "kkkk...", and the freed register
 * pointer is 0x6b6b6b6b6b6b6b6b, a non-canonical address whose
 * dereference is a general protection fault.  Debian's 6.1 has no KFENCE,
 * which could otherwise take the allocation into a pool of its own.
 *
 * The registers are a block of managed memory standing for what
 * devm_ioremap_resource() would map on real hardware.  The greeting is
 * formatted on the stack before the copy to user space: HARDENED_USERCOPY
 * (on in Debian) refuses a copy straight from an object of a cache that
 * whitelists no region for it.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>

static bool fixed;
module_param(fixed, bool, 0444);
MODULE_PARM_DESC(fixed, "0: the naive driver (use-after-free after unbind); 1: the fixed one (-ENODEV)");

/* What the device's registers would be; writes land in ctrl. */
struct naivechr_regs {
	u32 ctrl;
};

struct naivechr_gate;

/* The driver's data: one per bound device, freed by devres after remove(). */
struct naivechr_data {
	char greeting[24];
	struct naivechr_regs *regs;
	struct naivechr_gate *gate;	/* fixed=1 only */
	struct miscdevice misc;
};

/*
 * The fixed way's gate: an open file's reference to the data that the
 * driver can revoke.  kref keeps the gate's memory while a file or the
 * driver holds it; SRCU guards the data pointer.
 */
struct naivechr_gate {
	struct kref kref;
	struct srcu_struct srcu;
	struct naivechr_data __rcu *data;
};

static struct kmem_cache *naivechr_cache;
static struct platform_device *naivechr_pdev;

/* naivechr_show - read(): the greeting, formatted on the stack, from *ppos. */
static ssize_t naivechr_show(struct naivechr_data *data, char __user *buf,
			     size_t count, loff_t *ppos)
{
	char line[sizeof(data->greeting) + 2];
	int len;

	len = scnprintf(line, sizeof(line), "%.*s\n",
			(int)sizeof(data->greeting), data->greeting);
	return simple_read_from_buffer(buf, count, ppos, line, len);
}

/* naivechr_poke - write(): the byte count, into the control register. */
static void naivechr_poke(struct naivechr_data *data, size_t count)
{
	WRITE_ONCE(data->regs->ctrl, count);
}

/* naivechr_file_data - the data around the miscdevice misc_open() put in private_data. */
static struct naivechr_data *naivechr_file_data(struct file *file)
{
	return container_of(file->private_data, struct naivechr_data, misc);
}

/* naivechr_read - the naive read: nothing says whether the data is still there. */
static ssize_t naivechr_read(struct file *file, char __user *buf, size_t count,
			     loff_t *ppos)
{
	return naivechr_show(naivechr_file_data(file), buf, count, ppos);
}

/* naivechr_write - the naive write: the same blind trust. */
static ssize_t naivechr_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	naivechr_poke(naivechr_file_data(file), count);
	return count;
}

static const struct file_operations naivechr_fops = {
	.owner = THIS_MODULE,
	.read = naivechr_read,
	.write = naivechr_write,
	.llseek = noop_llseek,
};

/* naivechr_gate_free - the kref release: the last file or the driver let go. */
static void naivechr_gate_free(struct kref *kref)
{
	struct naivechr_gate *gate = container_of(kref, struct naivechr_gate, kref);

	cleanup_srcu_struct(&gate->srcu);
	kfree(gate);
	pr_info("naivechr: the gate's last reference is gone: freed\n");
}

/*
 * The fixed way's open: misc_open() calls it under misc_mtx, which
 * misc_deregister() takes too, so the data is still bound here.
 */
static int fixedchr_open(struct inode *inode, struct file *file)
{
	struct naivechr_gate *gate = naivechr_file_data(file)->gate;

	kref_get(&gate->kref);
	file->private_data = gate;
	return 0;
}

/* fixedchr_release - the close drops the file's reference to the gate. */
static int fixedchr_release(struct inode *inode, struct file *file)
{
	struct naivechr_gate *gate = file->private_data;

	kref_put(&gate->kref, naivechr_gate_free);
	return 0;
}

/* fixedchr_read - the greeting, if the data is still there: inside an SRCU read section. */
static ssize_t fixedchr_read(struct file *file, char __user *buf, size_t count,
			     loff_t *ppos)
{
	struct naivechr_gate *gate = file->private_data;
	struct naivechr_data *data;
	ssize_t ret = -ENODEV;
	int idx;

	idx = srcu_read_lock(&gate->srcu);
	data = srcu_dereference(gate->data, &gate->srcu);
	if (data)
		ret = naivechr_show(data, buf, count, ppos);
	srcu_read_unlock(&gate->srcu, idx);
	return ret;
}

/* fixedchr_write - poke the registers, if the data is still there. */
static ssize_t fixedchr_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct naivechr_gate *gate = file->private_data;
	struct naivechr_data *data;
	ssize_t ret = -ENODEV;
	int idx;

	idx = srcu_read_lock(&gate->srcu);
	data = srcu_dereference(gate->data, &gate->srcu);
	if (data) {
		naivechr_poke(data, count);
		ret = count;
	}
	srcu_read_unlock(&gate->srcu, idx);
	return ret;
}

static const struct file_operations fixedchr_fops = {
	.owner = THIS_MODULE,
	.open = fixedchr_open,
	.release = fixedchr_release,
	.read = fixedchr_read,
	.write = fixedchr_write,
	.llseek = noop_llseek,
};

/* naivechr_free_data - the devres action that stands for devm_kzalloc()'s kfree(). */
static void naivechr_free_data(void *data)
{
	kmem_cache_free(naivechr_cache, data);
}

/* naivechr_gate_create - the fixed way's gate for data, one reference: the driver's. */
static int naivechr_gate_create(struct naivechr_data *data)
{
	struct naivechr_gate *gate = kzalloc(sizeof(*gate), GFP_KERNEL);
	int err;

	if (!gate)
		return -ENOMEM;
	err = init_srcu_struct(&gate->srcu);
	if (err) {
		kfree(gate);
		return err;
	}
	kref_init(&gate->kref);
	RCU_INIT_POINTER(gate->data, data);
	data->gate = gate;
	return 0;
}

/* naivechr_gate_revoke - no new access finds the data, those inside have left. */
static void naivechr_gate_revoke(struct naivechr_gate *gate)
{
	rcu_assign_pointer(gate->data, NULL);
	synchronize_srcu(&gate->srcu);
	kref_put(&gate->kref, naivechr_gate_free);
}

/* naivechr_probe - the data, its devres free, the registers, and /dev/naivechr. */
static int naivechr_probe(struct platform_device *pdev)
{
	struct naivechr_data *data;
	int err;

	data = kmem_cache_zalloc(naivechr_cache, GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	err = devm_add_action_or_reset(&pdev->dev, naivechr_free_data, data);
	if (err)
		return err;
	data->regs = devm_kzalloc(&pdev->dev, sizeof(*data->regs), GFP_KERNEL);
	if (!data->regs)
		return -ENOMEM;
	strscpy(data->greeting, "hello from naivechr", sizeof(data->greeting));
	if (fixed) {
		err = naivechr_gate_create(data);
		if (err)
			return err;
	}
	data->misc.minor = MISC_DYNAMIC_MINOR;
	data->misc.name = "naivechr";
	data->misc.fops = fixed ? &fixedchr_fops : &naivechr_fops;
	data->misc.parent = &pdev->dev;
	err = misc_register(&data->misc);
	if (err) {
		if (fixed)
			naivechr_gate_revoke(data->gate);
		return err;
	}
	platform_set_drvdata(pdev, data);
	dev_info(&pdev->dev, "/dev/naivechr, the %s way\n", fixed ? "fixed" : "naive");
	return 0;
}

/* naivechr_remove - devres frees the data and the registers when this returns. */
static int naivechr_remove(struct platform_device *pdev)
{
	struct naivechr_data *data = platform_get_drvdata(pdev);

	misc_deregister(&data->misc);
	if (fixed)
		naivechr_gate_revoke(data->gate);
	dev_info(&pdev->dev, "removed; devres frees the data next\n");
	return 0;
}

static struct platform_driver naivechr_driver = {
	.probe = naivechr_probe,
	.remove = naivechr_remove,
	.driver = { .name = "naivechr" },
};

static int __init naivechr_init(void)
{
	int err;

	naivechr_cache = kmem_cache_create("naivechr_data", sizeof(struct naivechr_data), 0,
					   SLAB_POISON | SLAB_RED_ZONE | SLAB_CONSISTENCY_CHECKS,
					   NULL);
	if (!naivechr_cache)
		return -ENOMEM;
	err = platform_driver_register(&naivechr_driver);
	if (err)
		goto fail_cache;
	naivechr_pdev = platform_device_register_simple("naivechr", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(naivechr_pdev)) {
		err = PTR_ERR(naivechr_pdev);
		goto fail_driver;
	}
	return 0;

fail_driver:
	platform_driver_unregister(&naivechr_driver);
fail_cache:
	kmem_cache_destroy(naivechr_cache);
	return err;
}

static void __exit naivechr_exit(void)
{
	platform_device_unregister(naivechr_pdev);
	platform_driver_unregister(&naivechr_driver);
	kmem_cache_destroy(naivechr_cache);
}

module_init(naivechr_init);
module_exit(naivechr_exit);
MODULE_DESCRIPTION("A platform driver whose character device outlives its data, or does not (workbook test module)");
MODULE_LICENSE("GPL");
