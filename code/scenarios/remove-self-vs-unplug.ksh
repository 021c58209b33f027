# The device is unplugged while its remove attribute is removing it.  The
# store has given up its active reference (it waits at the delay point),
# so the unplug does not wait for it and unregisters the device; the
# store's own reference on the device keeps the memory it still uses
# until it returns.  Without that get_device() this would be a
# use-after-free.
delay sysfs_remove_self 200ms
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/remove &
await sysfs_remove_self
unplug pci0
wait
ls /sys/devices
rmmod pcidev
