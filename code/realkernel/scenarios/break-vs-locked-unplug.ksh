# The ksim side of make real-kernel's break-vs-locked-unplug
# (code/realkernel/scenarios/break-vs-locked-unplug.sh): the meeting of
# self-vs-locked-unplug, with the store written as SCSI's delete and
# s390's recover are (recover_store() in code/stage4/pci.c, which the
# slot driver pcirecover gives its devices).  Its break ends the unplug's
# drain; it removes its file, and waits for pci_rescan_remove_lock without
# an active reference; the unplug takes the device out and lets go; the
# store finds the device gone, and unbreaks.
hung_timeout 1s
delay pci_store_entry 300ms
insmod pcirecover
plug pci0
echo 1 > /sys/devices/pci0/recover &	#as: echo 1 > /sys/devices/pci0/remove &
await pci_store_entry
unplug pci0	#as: echo 1 > /sys/module/selfremove/parameters/unplug
wait
ls /sys/devices
rmmod pcirecover	#as: rmmod selfremove
