# CONFIG_DEBUG_KOBJECT_RELEASE, and the driver that frees at once.
# mouse_naive frees its struct mouse right after device_unregister(), on
# the assumption that the last reference went with it and release() has
# run.  With the option on, the last put only queues the cleanup: it runs
# a second later, reads the kobject inside the freed mouse, and faults.
# Any holder of a reference (a get_device() elsewhere in the kernel) could
# have done the same; the option makes it happen every time.
config DEBUG_KOBJECT_RELEASE=y
insmod mouse_naive
plug mouse0
unplug mouse0
# The last put only queued the cleanup: let the kernel's queued work run.
settle
