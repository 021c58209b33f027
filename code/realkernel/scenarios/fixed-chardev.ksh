# The ksim side of make real-kernel's fixed-chardev
# (code/realkernel/scenarios/fixed-chardev.sh), on stage 5's mousedev.
# As in naive-chardev.ksh, a delay point holds each call of a file opened
# before the unplug until after it: chrdev_read the read, mousedev_ioctl
# the ioctl that stands for the write (mousedev has no write).  Linux
# uses one file for both; here each program opens its own, both before
# the unplug.  A fixed driver does not oops, so one run holds every row.
insmod mousedev	#as: modprobe naivechr fixed=1
plug mouse0
# mousedev's read waits for a first click (naivechr has its greeting from probe on):
ioctl /dev/mouse0 1
cat /dev/mouse0	#as: cat /dev/naivechr
delay chrdev_read 200ms
cat /dev/mouse0 &	#as: exec 3<> /dev/naivechr
delay mousedev_ioctl 400ms
ioctl /dev/mouse0 1 &
await chrdev_read
await mousedev_ioctl
unplug mouse0	#as: echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
wait %1	#as: cat <&3
wait %2	#as: echo 1 >&3
rmmod mousedev	#as: rmmod naivechr
