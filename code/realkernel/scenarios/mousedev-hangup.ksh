# The ksim side of make real-kernel's mousedev-hangup
# (code/realkernel/scenarios/mousedev-hangup.sh), on stage 5's mousedev.
# ksim's shell has no "exec 3<": cat opens /dev/mouse0 and reads it in
# the background; the delay point mousedev_wait holds the read inside its
# access, before it looks for a click, and the await stands for Linux's
# wait until the reader sleeps.  The unplug is the device's destruction,
# and the reader's ENODEV comes inside it (ksim runs these scripts on its
# non-preemptive scheduler: the woken reader runs before the unplug ends),
# as it comes inside Linux's kill and wait.
insmod mousedev	#as: modprobe uinput
plug mouse0	#as: uinput-mouse > /tmp/mouse.pid
delay mousedev_wait 400ms
cat /dev/mouse0 &	#as: cat <&3 &
await mousedev_wait	#as: uinput-mouse --await-read $!
unplug mouse0	#as: kill $(cat /tmp/mouse.pid) && wait
wait
cat /dev/mouse0	#as: cat /dev/input/mouse0
rmmod mousedev
