# A store() that takes its time, and the unplug of its device in the middle.
# slowdev frees its device the moment it is unplugged, so the unplug must
# wait until the store() in flight has returned, and must let no new
# operation in while it waits.
insmod slowdev
plug slow0
# The device is busy for 800 ms inside store() (1 ms more at the point
# busy_ms_store, armed so that the shell can await the store there):
delay busy_ms_store 1ms
echo 800 > /sys/devices/slow0/busy_ms &
await busy_ms_store
# A reader opens the file now and gets to its read 300 ms later, mid-unplug:
delay sysfs_read_file 300ms
cat /sys/devices/slow0/busy_ms &
trace mark unplug
unplug slow0
trace mark unplugged
wait
