# Stage 4's PCI slots are pci0 to pci3, written without leading zeros.
# Any other name is refused with EINVAL before a device is made, and a
# slot already in use with EEXIST.  The slots that exist work, each as
# itself: a device's remove file removes that device, and an unplug
# succeeds once.
insmod pcidev
plug pci01
expect fail EINVAL
plug pcifoo
expect fail EINVAL
plug pci
expect fail EINVAL
plug pci4
expect fail EINVAL
plug pci3
plug pci3
expect fail EEXIST
cat /sys/devices/pci3/vendor
echo 1 > /sys/devices/pci3/remove
cat /sys/devices/pci3/vendor
expect fail ENOENT
plug pci2
unplug pci2
expect ok
unplug pci2
expect fail ENODEV
rmmod pcidev
expect unloaded pcidev
