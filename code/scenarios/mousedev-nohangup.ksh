# mousedev-hangup on a driver whose remove() revokes without hanging up
# (modules/mousedev_nohangup.c).  The reader of mouse0 is inside its access
# when the mouse is unplugged, and then sleeps until a click.  The revoke
# waits for that access: SRCU lets a section sleep, and nothing wakes this
# one.  The hung-task watchdog reports the unplug, stuck behind the
# reader (exit status 4).
hung_timeout 1s
insmod mousedev_nohangup
plug mouse0
delay mousedev_wait 400ms
cat /dev/mouse0 &
await mousedev_wait
unplug mouse0
echo not reached
