# The ksim side of make real-kernel's self-vs-locked-unplug
# (code/realkernel/scenarios/self-vs-locked-unplug.sh), for now its
# set-up only: stage 4 has no delay point inside remove's store before
# device_remove_file_self(), so no script can hold the store there while
# "unplug pci0" (which holds pci_rescan_remove_lock across the removal)
# drains it.  The explorer's harness remove-vs-surprise-removal finds the
# same hang by searching schedules (tests/stage4/test_explore.c).
insmod pcidev
plug pci0
