# A driver holds its own mutex across device_unregister(), and its show()
# takes the same mutex (mutexdev).  Two separate runs, one after the
# other: a read, then an unplug.  Nothing overlaps, so nothing waits and
# the script runs clean - unless lockdep watches.  The read recorded
# "s_active of state, then drv->lock"; the unplug takes drv->lock and then
# waits for s_active: the opposite order, a cycle, reported there and then.
insmod mutexdev
plug mutexdev0
cat /sys/devices/mutexdev0/state
unplug mutexdev0
rmmod mutexdev
