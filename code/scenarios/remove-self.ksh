# An attribute that removes its own device from inside its store(), the
# way kernfs_remove_self() allows since 2014 (stage 4: stages 1-3 have no
# pcidev module).  The store gives up its own active reference first, so
# the removal has nothing to wait for, and the echo returns with the
# device already gone: no callback, no kworker.
insmod pcidev
plug pci0
cat /sys/devices/pci0/vendor
echo 1 > /sys/devices/pci0/remove
# Gone when the echo returns, not some time later:
cat /sys/devices/pci0/vendor
expect fail ENOENT
ls /sys/devices
rmmod pcidev
expect unloaded pcidev
