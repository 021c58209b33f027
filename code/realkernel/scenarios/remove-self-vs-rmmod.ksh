# The ksim side of make real-kernel's remove-self-vs-rmmod
# (code/realkernel/scenarios/remove-self-vs-rmmod.sh): pcidev's eject, a
# self-removing store in the module, held by the delay point in the window
# after the removal while rmmod unloads the module.
delay sysfs_remove_self 1s
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/eject &
await sysfs_remove_self
rmmod pcidev	#as: rmmod selfremove
wait
