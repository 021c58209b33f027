/* mousedev_fops.c - the fixed mouse driver's file operations, every call through the revocable provider, and its hang-up. */
#include <exercise.h>
#include <mousedev.h>
#include <mutex.h>

int mousedev_open(struct inode *inode, struct file *file)
{
	TODO("mousedev_open", "take a reference of your own to the provider in mousedev_providers at iminor() less MOUSEDEV_MINOR_BASE, under mousedev_lock, which keeps the table's; the file keeps it in private_data");
	(void)inode; (void)file; return -ENODEV;
}

ssize_t mousedev_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	TODO("mousedev_read", "one access to the provider on a handle of your own: try_access, read the mouse with mousedev_wait_show() if it is still there, withdraw either way, and copy the text out after");
	(void)file; (void)buf; (void)len; (void)ppos; return -ENODEV;
}

int mousedev_release(struct inode *inode, struct file *file)
{
	TODO("mousedev_release", "the last close: drop the provider reference your open took");
	(void)inode; (void)file; return 0;
}

void mousedev_hangup(struct mousedev *m)
{
	TODO("mousedev_hangup", "the device is gone: mark the mouse dead where its sleeping readers test it, then wake them all");
	(void)m;
}
