# A reader holds the mouse's clicks file open while the mouse is unplugged.
# mouse_naive frees its struct mouse on unplug, with the kobject inside it,
# although the open file still holds a reference to that kobject.
insmod mouse_naive
plug mouse0
cat /sys/devices/mouse0/clicks
# The reader opens the file, then sleeps in sysfs_read_file() before show():
delay sysfs_read_file 200ms
cat /sys/devices/mouse0/clicks &
# Wait until it is there (it has found show() by then), then pull the mouse away:
await sysfs_read_file
unplug mouse0
wait
