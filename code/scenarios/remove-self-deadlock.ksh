# An attribute whose store() removes its own device, there and then.
# Removal deactivates the attribute's node and waits for the operations
# inside it, and one of them is the very store() that waits: nothing can
# end the wait.  The hung-task watchdog reports it (exit status 4).
hung_timeout 1s
insmod selfremove
plug selfremove0
echo 1 > /sys/devices/selfremove0/remove
echo not reached
