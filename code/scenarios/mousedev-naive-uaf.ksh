# Stage 1's mouse-naive-uaf one layer down: a reader has /dev/mouse0 open
# while the mouse is unplugged.  mousedev_naive's data came from
# devm_kzalloc() at probe; the driver core frees it right after remove(),
# and the open file's private_data still points at it.
insmod mousedev_naive
plug mouse0
ioctl /dev/mouse0 1
cat /dev/mouse0
# The reader opens the device; the device answers its read 200 ms later:
delay mousedev_read 200ms
cat /dev/mouse0 &
await mousedev_read
unplug mouse0
wait
