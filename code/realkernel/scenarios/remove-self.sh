# ksim: stage4 code/scenarios/remove-self.ksh
# An attribute that removes its own device with device_remove_file_self().
# Our module names its device and files as stage 4's PCI device, so the
# lines are stage 4's own.
modprobe selfremove way=self name=pci0
cat /sys/devices/pci0/vendor
echo 1 > /sys/devices/pci0/remove
cat /sys/devices/pci0/vendor
ls /sys/devices
rmmod selfremove	#as: rmmod pcidev
