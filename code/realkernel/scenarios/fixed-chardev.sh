# ksim: none
# Linux only until stage 5 (see predictions.tsv).  naive-chardev's lines
# against the fixed driver: the open file finds the data revoked.
modprobe naivechr fixed=1
cat /dev/naivechr
exec 3<> /dev/naivechr
echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
cat <&3
echo 1 >&3
exec 3>&-
rmmod naivechr
