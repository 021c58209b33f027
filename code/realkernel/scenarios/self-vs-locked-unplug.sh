# ksim: stage4 code/realkernel/scenarios/self-vs-locked-unplug.ksh
# PCI's remove file against a hotplug unplug, on our module: the unplug
# holds selfremove_lock across the device's removal (as pciehp holds
# pci_rescan_remove_lock); the store removes its own file with
# device_remove_file_self() and then takes the same lock (as remove_store()
# in drivers/pci/pci-sysfs.c does).  meet=1 makes them meet where it
# matters: the unplug sleeps in kernfs_drain() for the store, and then the
# store removes itself.  device_remove_file_self() gives the store's active
# reference back before it returns, and the store waits for the lock: the
# unplug in kernfs_drain(), the writer in mutex_lock(), both for good, and
# the hung-task detector reports both (after 2 s here).
echo 2 > /proc/sys/kernel/hung_task_timeout_secs
modprobe selfremove way=self name=pci0 meet=1
echo 1 > /sys/devices/pci0/remove &
echo 1 > /sys/module/selfremove/parameters/unplug
echo not reached
