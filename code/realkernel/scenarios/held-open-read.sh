# ksim: stage4 code/realkernel/scenarios/held-open-read.ksh
# A file opened before its device goes and read after: ENODEV, from
# kernfs, without calling the driver's show().
modprobe selfremove way=self name=pci0
exec 3< /sys/devices/pci0/vendor
echo 1 > /sys/devices/pci0/remove
cat <&3
