# The ksim side of make real-kernel's naive-chardev
# (code/realkernel/scenarios/naive-chardev.sh), on stage 5's
# mousedev_naive.  ksim's shell has no "exec 3<>": cat opens /dev/mouse0
# now, and its read reaches the driver only when the delay point
# chrdev_read lets it, after the unplug, as a read of a file held open
# across the unbind does.  The write is naive-chardev-write.ksh's: this
# run ends at the read's oops.
insmod mousedev_naive	#as: modprobe naivechr
plug mouse0
cat /dev/mouse0	#as: cat /dev/naivechr
delay chrdev_read 200ms
cat /dev/mouse0 &	#as: exec 3<> /dev/naivechr
await chrdev_read
unplug mouse0	#as: echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
wait	#as: cat <&3
