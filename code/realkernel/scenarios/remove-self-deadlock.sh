# ksim: code/scenarios/remove-self-deadlock.ksh
# The same attribute written the old way: device_remove_file() from inside
# its own store().  The writer waits in kernfs_drain() for the active
# reference it holds itself; the kernel's hung-task detector reports it.
modprobe selfremove way=old
echo 1 > /sys/devices/selfremove0/remove
echo not reached
