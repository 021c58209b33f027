# The fixed driver: an ioctl whose file was opened before the unplug and
# whose access comes after it.  The provider is revoked by then: ENODEV,
# and nothing of the mouse is touched.  A new open finds no node.
insmod mousedev
plug mouse0
ioctl /dev/mouse0 1
# The ioctl opens now and reaches the mouse 200 ms later:
delay mousedev_ioctl 200ms
ioctl /dev/mouse0 1 &
await mousedev_ioctl
unplug mouse0
wait
ioctl /dev/mouse0 1
rmmod mousedev
