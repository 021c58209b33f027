# ksim: stage5 code/realkernel/scenarios/naive-chardev.ksh code/realkernel/scenarios/naive-chardev-write.ksh
# A file of /dev/naivechr opened while the driver is bound, used after
# unbind: the naive driver reads its freed data.  Stage 5 predicts it with
# mousedev_naive; ksim's run ends at the read's oops, so the write's
# prediction is a second run (check.sh).
modprobe naivechr
cat /dev/naivechr
exec 3<> /dev/naivechr
echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
cat <&3
echo 1 >&3
