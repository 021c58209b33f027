/* kobject.c - naming, parenting and sysfs presence of a kobject. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kconfig.h>
#include <kobject.h>
#include <module.h>
#include <slab.h>
#include <sysfs.h>
#include <task.h>

void kobject_init(struct kobject *kobj, const struct kobj_type *ktype)
{
	memset(kobj, 0, sizeof(*kobj));
	kref_init(&kobj->kref);
	kobj->ktype = ktype;
}

/* The module whose code release() is: what the last put will call into. */
static const char *kobject_owner(const struct kobject *kobj)
{
	uintptr_t code = kobj->owner_code;

	if (!code && kobj->ktype)
		code = (uintptr_t)kobj->ktype->release;
	return code ? module_trace_name_of(code) : NULL;
}

/* Name the kobject, trace its birth, pin the parent, create the directory at_path or under the parent. */
static int kobject_add_internal(struct kobject *kobj, struct kobject *parent,
				const char *at_path, const char *name)
{
	const char *owner, *reads;
	int err;

	kobj->name = strdup(name);
	trace_name(kobj->trace_name, sizeof(kobj->trace_name), "kobject", name);
	trace_bind(kobj, kobj->trace_name);
	owner = kobject_owner(kobj);
	/* If release() will read a module's data, the trace shows it as a pointer there. */
	reads = kobj->release_reads ? module_trace_name_of(kobj->release_reads) : NULL;
	trace_event("create", kobj->trace_name, "count=%d%s%s%s%s%s%s", kref_read(&kobj->kref),
		    parent ? " parent=" : "", parent ? parent->trace_name : "",
		    owner ? " owner=" : "", owner ? owner : "",
		    reads ? " ref=" : "", reads ? reads : "");
	/*
	 * A child keeps its parent alive: the parent's release may not run
	 * first.  The trace charges that reference to the child, as
	 * kobject_cleanup() charges the matching put.
	 */
	if (parent) {
		const char *old = trace_by_set(kobj->trace_name);

		kobj->parent = kobject_get(parent);
		trace_by_set(old);
	} else {
		kobj->parent = NULL;
	}
	err = at_path ? sysfs_create_dir_at(kobj, at_path) : sysfs_create_dir(kobj);
	if (err) {
		kobject_put(kobj->parent);
		kobj->parent = NULL;
	}
	return err;
}

int kobject_add(struct kobject *kobj, struct kobject *parent, const char *fmt, ...)
{
	char name[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return kobject_add_internal(kobj, parent, NULL, name);
}

int kobject_add_at(struct kobject *kobj, const char *path, const char *name)
{
	return kobject_add_internal(kobj, NULL, path, name);
}

void kobject_del(struct kobject *kobj)
{
	sysfs_remove_dir(kobj);
}

/*
 * kobject_cleanup - the count reached zero: let the type free the object.
 * After release() the kobject's memory may be gone, so everything needed
 * afterwards (the name, the parent) is read before.
 */
static __noinline void kobject_cleanup(struct kobject *kobj)
{
	struct kobject *parent = kobj->parent;
	char *name = (char *)kobj->name;
	char tname[TRACE_NAME_LEN];

	memcpy(tname, kobj->trace_name, sizeof(tname));
	trace_event("release", tname, NULL);
	BUG_ON(!kobj->ktype || !kobj->ktype->release);
	kobj->ktype->release(kobj);
	free(name);
	/* The parent outlived its child; now it may go too. */
	if (parent) {
		const char *old = trace_by_set(tname);

		kobject_put(parent);
		trace_by_set(old);
	}
}

void kobject_release(struct kref *kref)
{
	struct kobject *kobj = container_of(kref, struct kobject, kref);

	if (config_debug_kobject_release)
		kobject_release_delayed(kobj, kobject_cleanup);
	else
		kobject_cleanup(kobj);
}
