# The fixed driver's read of a mouse never clicked waits for a click,
# asleep inside its access to the provider.  A click (the ioctl) wakes
# it; so does remove(), which hangs up before it revokes: it marks the
# mouse dead and wakes every reader asleep on it, and each returns ENODEV
# and leaves its access, so the revoke, waiting for them, can finish.
# mousedev-nohangup is the same script on a driver whose remove() does not
# hang up: the unplug never ends.
hung_timeout 1s
insmod mousedev
plug mouse0
plug mouse1
# Input: the reader of mouse1 waits until the click.
cat /dev/mouse1 &
poll /dev/mouse1
ioctl /dev/mouse1 1
wait
poll /dev/mouse1
# The hang-up: mouse0's reader is inside its access (held 400 ms before it
# looks for a click) when the mouse is unplugged.  A poll of a file held
# open across the unplug answers POLLHUP.
delay mousedev_wait 400ms
cat /dev/mouse0 &
await mousedev_wait
delay chrdev_poll 200ms
poll /dev/mouse0 &
await chrdev_poll
unplug mouse0
wait
echo unplugged
unplug mouse1
rmmod mousedev
