# The delete callback of seed example 1, watched from lsmod.  With the fix
# of April 2007 the pending callback holds a reference on scsi_mod, the
# module its function lives in, and drops it once the function has run.
# Here the drivers are unloaded only after that, so everything unloads.
delay sysfs_schedule_callback_work 100ms
insmod scsi_mod; insmod sd_mod; insmod libata; insmod ahci
echo 1 > /sys/block/sda/device/delete
# Pending: scsi_mod is used by sd_mod, libata and the callback.
lsmod
expect modref scsi_mod 3
# Let the queued work run (flush_scheduled_work()): the callback, then its module_put().
settle
# Done: only sd_mod and libata are left.
expect modref scsi_mod 2
rmmod ahci; rmmod libata; rmmod sd_mod; rmmod scsi_mod
expect unloaded scsi_mod
