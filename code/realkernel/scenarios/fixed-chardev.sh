# ksim: stage5 code/realkernel/scenarios/fixed-chardev.ksh
# naive-chardev's lines against the fixed driver: the open file finds the
# data revoked.  Stage 5 predicts it with its fixed mousedev.
modprobe naivechr fixed=1
cat /dev/naivechr
exec 3<> /dev/naivechr
echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
cat <&3
echo 1 >&3
exec 3>&-
rmmod naivechr
