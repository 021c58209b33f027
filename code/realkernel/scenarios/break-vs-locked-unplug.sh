# ksim: stage4 code/realkernel/scenarios/break-vs-locked-unplug.ksh
# The same meeting as self-vs-locked-unplug, with the store written
# as SCSI's delete (sdev_store_delete()) and s390's PCI recover
# (recover_store()) are: break the active protection by hand (which also
# pins the device until the unbreak), device_remove_file(), take the lock
# and remove the device, and unbreak only after the lock is let go.  The unplug's drain ends at the
# break, the unplug takes the device out and lets go of the lock, and the
# store finds the device already gone.  Nothing hangs; then the module
# unloads.
modprobe selfremove way=break name=pci0 meet=1
echo 1 > /sys/devices/pci0/remove &
echo 1 > /sys/module/selfremove/parameters/unplug
wait
ls /sys/devices
rmmod selfremove
