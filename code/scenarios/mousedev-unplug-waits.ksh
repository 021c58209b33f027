# The fixed driver: a read is inside its access to the mouse when the
# mouse is unplugged.  remove() revokes the provider, and the revoke waits
# for the access in flight: the read ends with the count, and only then
# does the driver core free the mouse.  The window is the kernel's
# (srcu_read_unlock), where every access ends, whatever the driver's read
# does inside it.  The same reader's next read finds the provider
# revoked: ENODEV.  The last close frees the provider and the cdev and
# unpins the module, which then unloads.
insmod mousedev
plug mouse0
ioctl /dev/mouse0 1
ioctl /dev/mouse0 1
# The reader has the count but is still inside its access, 200 ms
# before it leaves it, when the mouse goes:
delay srcu_read_unlock 200ms
cat /dev/mouse0 &
await srcu_read_unlock
unplug mouse0
wait
cat /dev/mouse0
rmmod mousedev
