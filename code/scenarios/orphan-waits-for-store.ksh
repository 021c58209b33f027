# Stage 2 has 2.6.20's orphaning of open files: removing an attribute
# waits for the read or write in flight on each of its open files, and
# marks them so that no show() or store() is called again.  slowdev's
# store() keeps the device busy for 300 ms and then writes to the device's
# memory; the driver frees that memory right after unregistering.
insmod slowdev
plug slow0
# Every close waits 500 ms before it drops what the file holds:
delay sysfs_release 500ms
# The store passes busy_ms_store as it starts its 300 ms (1 ms more, armed):
delay busy_ms_store 1ms
echo 300 > /sys/devices/slow0/busy_ms &
await busy_ms_store
# The unplug waits for the store, then frees slow0; the store finished in time.
unplug slow0
# The echo's close comes afterwards, and drops its kobject reference into freed memory.
wait
