# ksim: none
# Linux only until stage 5 (see predictions.tsv): stage 4's ksim has no
# character devices.  A file of /dev/naivechr opened while the driver is
# bound, used after unbind: the naive driver reads its freed data.
modprobe naivechr
cat /dev/naivechr
exec 3<> /dev/naivechr
echo naivechr > /sys/bus/platform/drivers/naivechr/unbind
cat <&3
echo 1 >&3
