# ksim: stage4 code/scenarios/remove-self-deadlock.ksh
# The same attribute written the old way: device_remove_file() from inside
# its own store().  The writer waits in kernfs_drain() for the active
# reference it holds itself; the kernel's hung-task detector reports it.
# Report a task blocked for 2 s (ksim's script sets its watchdog likewise).
echo 2 > /proc/sys/kernel/hung_task_timeout_secs
modprobe selfremove way=old
echo 1 > /sys/devices/selfremove0/remove
echo not reached
