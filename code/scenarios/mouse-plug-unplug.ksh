# The plain case: a mouse comes and goes with no file open.  The unplug
# drops the last reference, so release() runs right there, inside it; a
# driver that touches its struct mouse after device_unregister() is
# reading freed memory, and the slab catches it (exit status 3).  Once the
# module is gone, a new mouse finds no driver: module_exit must have taken
# the driver off the bus, or the plug calls into the unloaded module.
insmod mouse
plug mouse0
unplug mouse0
plug mouse1
cat /sys/devices/mouse1/clicks
unplug mouse1
rmmod mouse
expect unloaded mouse
plug mouse2
expect fail ENODEV
