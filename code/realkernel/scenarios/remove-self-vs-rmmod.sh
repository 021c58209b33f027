# ksim: stage4 code/realkernel/scenarios/remove-self-vs-rmmod.ksh
# A self-removing store whose code is in a module, and an rmmod while the
# store is still running after the removal (delay_ms keeps it there).
# Nothing waits for that store any more: not the drain, and not the module
# refcount, which a sysfs write never takes.  The module is unloaded and
# the store returns into freed memory.  The window is 5 s, so that the
# rmmod comes inside it on a busy host too: there the guest's "sleep 0.3"
# and the start of rmmod once took longer than the 1 s it was.
modprobe selfremove way=self name=pci0 attr=eject delay_ms=5000
echo 1 > /sys/devices/pci0/eject &
sleep 0.3
rmmod selfremove
wait
