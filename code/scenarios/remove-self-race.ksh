# Two writers remove the same device at once.  Both give up their active
# reference and wait at the delay point; then one of them claims the
# removal and does it, and the other waits until it is complete.  The
# device is removed exactly once, and both echos succeed.
delay sysfs_remove_self 100ms
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/remove &
echo 1 > /sys/devices/pci0/remove &
wait
cat /sys/devices/pci0/vendor
expect fail ENOENT
ls /sys/devices
rmmod pcidev
