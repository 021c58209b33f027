# ksim: stage5 code/realkernel/scenarios/mousedev-hangup.ksh
# The kernel's own hang-up: a reader asleep in read() on /dev/input/mouse0
# when the mouse goes.  The mouse is a uinput device (uinput-mouse,
# code/realkernel/tools/); Debian builds mousedev into the kernel and
# uinput as a module.  The reader sleeps in mousedev_read() waiting for a
# packet; destroying the device (the last close of /dev/uinput, when its
# holder is killed) runs mousedev_mark_dead() and mousedev_hangup(), and
# the read returns ENODEV.  Stage 5 predicts it with its fixed mousedev,
# whose remove() hangs up before it revokes.  Loading, creating, opening
# and the wait for the sleep are set-up.
modprobe uinput
uinput-mouse > /tmp/mouse.pid
exec 3< /dev/input/mouse0
cat <&3 &
uinput-mouse --await-read $!
kill $(cat /tmp/mouse.pid) && wait
exec 3<&-
cat /dev/input/mouse0
