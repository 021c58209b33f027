# The same race with the mouse driver that frees in release(): the open file
# pins the kobject, so the read after unplug still works.  The price: the
# struct mouse outlives the mouse.
insmod mouse
plug mouse0
echo 3 > /sys/devices/mouse0/clicks
delay sysfs_read_file 200ms
cat /sys/devices/mouse0/clicks &
unplug mouse0
ls /sys/devices
wait
