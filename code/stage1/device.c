/* device.c - the device layer over kobjects: registration, attributes, release. */
#include <stdarg.h>
#include <stdio.h>
#include <device.h>

/* device_release - the kobject's last reference is gone: hand over to the driver. */
static __noinline void device_release(struct kobject *kobj)
{
	struct device *dev = kobj_to_dev(kobj);

	if (!dev->release) {
		printk("Device '%s' does not have a release() function, it is broken and must be fixed.",
		       kobject_name(kobj));
		WARN_ON(1);
		return;
	}
	dev->release(dev);
}

static ssize_t dev_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->show ? da->show(kobj_to_dev(kobj), da, buf) : -EIO;
}

static ssize_t dev_attr_store(struct kobject *kobj, struct attribute *attr, const char *buf, size_t len)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->store ? da->store(kobj_to_dev(kobj), da, buf, len) : -EIO;
}

static const struct sysfs_ops dev_sysfs_ops = {
	.show = dev_attr_show,
	.store = dev_attr_store,
};

static const struct kobj_type device_ktype = {
	.release = device_release,
	.sysfs_ops = &dev_sysfs_ops,
};

void device_initialize(struct device *dev)
{
	kobject_init(&dev->kobj, &device_ktype);
}

static int device_vadd(struct device *dev, const char *fmt, va_list ap)
{
	char name[64];

	vsnprintf(name, sizeof(name), fmt, ap);
	/* For the trace: the code that runs on the last put is the driver's release. */
	dev->kobj.owner_code = (uintptr_t)dev->release;
	return kobject_add(&dev->kobj, dev->parent ? &dev->parent->kobj : NULL, "%s", name);
}

int device_add(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = device_vadd(dev, fmt, ap);
	va_end(ap);
	return err;
}

int device_register(struct device *dev, const char *fmt, ...)
{
	va_list ap;
	int err;

	device_initialize(dev);
	va_start(ap, fmt);
	err = device_vadd(dev, fmt, ap);
	va_end(ap);
	return err;
}

void device_del(struct device *dev)
{
	kobject_del(&dev->kobj);
}

void device_unregister(struct device *dev)
{
	device_del(dev);
	put_device(dev);
}

struct device *get_device(struct device *dev)
{
	return dev ? kobj_to_dev(kobject_get(&dev->kobj)) : NULL;
}

void put_device(struct device *dev)
{
	if (dev)
		kobject_put(&dev->kobj);
}

int device_create_file(struct device *dev, struct device_attribute *attr)
{
	return sysfs_create_file(&dev->kobj, &attr->attr);
}

void device_remove_file(struct device *dev, struct device_attribute *attr)
{
	sysfs_remove_file(&dev->kobj, &attr->attr);
}
