# Two processes hold the mouse's clicks file open across the unplug, one to
# read it and one to write it; each gets to its operation only after the
# mouse is gone.  mouse_naive frees its struct mouse on unplug, which was a
# use-after-free in stage 1.  With active references both operations fail
# with ENODEV and touch nothing of the mouse.
insmod mouse_naive
plug mouse0
echo 3 > /sys/devices/mouse0/clicks
# Each opens its file now and reaches the operation later (read 200 ms, write 300 ms):
delay sysfs_read_file 200ms
delay sysfs_write_file 300ms
cat /sys/devices/mouse0/clicks &
echo 5 > /sys/devices/mouse0/clicks &
unplug mouse0
wait
ls /sys/devices
rmmod mouse_naive
