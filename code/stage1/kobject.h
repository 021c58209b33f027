/* kobject.h - the driver model's refcounted object, and what sysfs shows of it. */
#ifndef KSIM_KOBJECT_H
#define KSIM_KOBJECT_H

#include <kref.h>
#include <trace.h>

struct kobject;
struct attribute;
struct sysfs_dirent;

/* sysfs_ops - how a kobject type reads and writes its attribute files. */
struct sysfs_ops {
	ssize_t (*show)(struct kobject *kobj, struct attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct attribute *attr, const char *buf, size_t len);
};

/*
 * kobj_type - what all kobjects of one kind share.  release() frees the
 * structure the kobject is embedded in; it is called when the last
 * reference is dropped, and only then.  It is code: if it lives in a
 * module, that module must still be loaded when the last reference goes.
 */
struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
};

struct kobject {
	const char *name;
	struct kobject *parent;
	struct kref kref;
	const struct kobj_type *ktype;
	struct sysfs_dirent *sd;	/* our directory in sysfs while we are added */
	uintptr_t owner_code;		/* the code the last put will run (for the trace), or 0 */
	uintptr_t release_reads;	/* other memory release() reads (for the trace), or 0 */
	char trace_name[TRACE_NAME_LEN];
};

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype);
/* kobject_add - name it, hold its parent, and give it a sysfs directory. */
int kobject_add(struct kobject *kobj, struct kobject *parent, const char *fmt, ...) __printf(3, 4);
/* kobject_add_at - the same, with no parent, at a fixed place: "/sys/block". */
int kobject_add_at(struct kobject *kobj, const char *path, const char *name);
/*
 * kobject_del - remove the sysfs directory; the object lives on.  Stages 1
 * and 2 keep the parent reference until release, as 2.6.22 did; stage 3
 * drops it here, as kernels since 2.6.25 do.
 */
void kobject_del(struct kobject *kobj);
struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
static inline const char *kobject_name(const struct kobject *kobj) { return kobj->name; }

/*
 * kobject_release - kref_put()'s release: called once, when the count
 * reaches zero.  It cleans up at once, or, with CONFIG_DEBUG_KOBJECT_RELEASE
 * (kconfig.h), has kobject_release_delayed() do it a second later.
 */
void kobject_release(struct kref *kref);
void kobject_release_delayed(struct kobject *kobj, void (*cleanup)(struct kobject *kobj));

#endif
