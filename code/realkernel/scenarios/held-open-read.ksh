# The ksim side of make real-kernel's held-open-read
# (code/realkernel/scenarios/held-open-read.sh): cat opens the vendor file
# now and reads it once the delay point lets it, after the device is gone.
delay sysfs_read_file 500ms
insmod pcidev
plug pci0
cat /sys/devices/pci0/vendor &	#as: exec 3< /sys/devices/pci0/vendor
echo 1 > /sys/devices/pci0/remove
wait	#as: cat <&3
