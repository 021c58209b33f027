# The ksim side of make real-kernel's self-vs-locked-unplug
# (code/realkernel/scenarios/self-vs-locked-unplug.sh).  The delay point
# holds remove's store inside its active reference, before
# device_remove_file_self(), as the test module's meet=1 does; the
# unplug comes meanwhile and holds pci_rescan_remove_lock across the
# removal, as the module's unplug holds its mutex.  The unplug drains
# remove, which waits for the store.  The store wakes, and in
# sysfs_remove_self() breaks its protection under sysfs_mutex (the count
# reaches the bias and wakes the unplug), finds remove already shut and
# nothing inside, unlinks it and takes its count back, all without
# sleeping; only then does it block, on pci_rescan_remove_lock.  Run one
# task at a time (make check's controlled scheduler, Linux's one vCPU),
# the unplug runs again only then, finds the count one above the bias and
# sleeps again: both wait for ever.
hung_timeout 1s
delay pci_store_entry 300ms
insmod pcidev
plug pci0
echo 1 > /sys/devices/pci0/remove &
await pci_store_entry
unplug pci0	#as: echo 1 > /sys/module/selfremove/parameters/unplug
