# naive-chardev's write, a run of its own (naive-chardev.ksh's ends at the
# read's oops).  mousedev has no write: its ioctl is the call that writes
# into the driver's data (++clicks), as naivechr's write does into its
# registers.  The ioctl opens /dev/mouse0 now and reaches the mouse when
# the delay point mousedev_ioctl lets it, after the unplug.
insmod mousedev_naive	#as: modprobe naivechr
plug mouse0
delay mousedev_ioctl 200ms
ioctl /dev/mouse0 1 &	#as: exec 3<> /dev/naivechr
await mousedev_ioctl
unplug mouse0	#as: echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
wait	#as: echo 1 >&3
