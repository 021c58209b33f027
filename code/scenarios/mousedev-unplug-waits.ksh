# The fixed driver: a read is inside the device when the mouse is
# unplugged.  remove() revokes the provider, and the revoke waits for the
# access in flight: the read ends with the count, and only then does the
# driver core free the mouse (with mousedev_naive this is the
# use-after-free of mousedev-naive-uaf).  The same reader's next read
# finds the provider revoked: ENODEV.  The last close frees the provider
# and the cdev and unpins the module, which then unloads.
insmod mousedev
plug mouse0
ioctl /dev/mouse0 1
ioctl /dev/mouse0 1
# The device answers the reader's read 200 ms after it asked:
delay mousedev_read 200ms
cat /dev/mouse0 &
await mousedev_read
unplug mouse0
wait
cat /dev/mouse0
rmmod mousedev
