# Two files of one attribute held open across the unplug, one to read it
# and one to write it, with the mouse driver that frees in release(): from
# 2.6.20 (stage 2) on, the removal finds every open file of the node and
# each operation after it fails with ENODEV, however many are open.  The
# closes then let the kobject go, and the module unloads.
insmod mouse
plug mouse0
echo 3 > /sys/devices/mouse0/clicks
# Each opens its file now and reaches the operation later (read 200 ms, write 300 ms):
delay sysfs_read_file 200ms
delay sysfs_write_file 300ms
cat /sys/devices/mouse0/clicks &
echo 5 > /sys/devices/mouse0/clicks &
unplug mouse0
wait
rmmod mouse
expect unloaded mouse
