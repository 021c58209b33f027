# Stage 4's PCI slots are pci0 to pci3, written without leading zeros.
# Any other name is refused with EINVAL before a device is made, and a
# slot already in use with EEXIST; the slots that exist work.
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
unplug pci3
rmmod pcidev
expect unloaded pcidev
