# rmmod of the slot driver while a self-removing store waits in the window
# after it gave its active reference up (the delay point holds it there).
# No drain waits for such a store, so the unload goes ahead both times.
# First the PCI core's remove: all the store still runs is built in, and
# it finishes cleanly.  Then pcidev's eject, the same store written in the
# module: it returns into code that rmmod has unmapped.
delay sysfs_remove_self 200ms
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/remove &
await sysfs_remove_self
rmmod pcidev
wait
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/eject &
await sysfs_remove_self
rmmod pcidev
wait
echo not reached
