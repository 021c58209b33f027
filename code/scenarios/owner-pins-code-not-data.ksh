# The owner pins a module's code, not a device's memory.  A reader holds
# the clicks file of a mouse driven by mouse_naive, which frees its struct
# mouse on unplug.  On stage 2 the open pinned mouse_naive, so rmmod is
# refused.  Unplugging is not a module matter: the mouse goes anyway, and
# the reader's show() reads the freed struct mouse.
insmod mouse_naive
plug mouse0
# The reader opens the file now and reaches show() 200 ms later:
delay sysfs_read_file 200ms
cat /sys/devices/mouse0/clicks &
await sysfs_read_file
rmmod mouse_naive
unplug mouse0
wait
