/* device.h - struct device: a kobject with a parent device and a release() (stage 3: an open file holds no reference). */
#ifndef KSIM_DEVICE_H
#define KSIM_DEVICE_H

#include <sysfs.h>

/*
 * struct device - what a driver embeds for each device it manages.
 *
 * release() is the driver's: it frees the structure that embeds the
 * device, and runs when the last reference goes.  An open sysfs file holds
 * none any more, so unless the driver (or a pending callback) keeps one,
 * that is inside device_unregister().
 */
struct device {
	struct kobject kobj;
	struct device *parent;
	void (*release)(struct device *dev);
	void *driver_data;
};

/* device_attribute - an attribute file with device-typed show/store. */
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf, size_t count);
};

/* DEVICE_ATTR(name, mode, show, store) - defines dev_attr_NAME (see __ATTR in sysfs.h). */
#define DEVICE_ATTR(_name, _mode, _show, _store) \
	struct device_attribute dev_attr_##_name = __ATTR(_name, _mode, _show, _store)

static inline struct device *kobj_to_dev(struct kobject *kobj)
{
	return container_of(kobj, struct device, kobj);
}
static inline const char *dev_name(const struct device *dev) { return dev->kobj.name; }
static inline void *dev_get_drvdata(const struct device *dev) { return dev->driver_data; }
static inline void dev_set_drvdata(struct device *dev, void *data) { dev->driver_data = data; }

void device_initialize(struct device *dev);
int device_add(struct device *dev, const char *fmt, ...) __printf(2, 3);
int device_register(struct device *dev, const char *fmt, ...) __printf(2, 3);
/* device_del - the device is gone: its sysfs directory goes, the object may stay. */
void device_del(struct device *dev);
/* device_unregister - device_del() and drop the registration reference. */
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
int device_create_file(struct device *dev, struct device_attribute *attr);
void device_remove_file(struct device *dev, struct device_attribute *attr);

#endif
