# Today's delete (stage 4), caught in the middle: the store has removed the
# disk and dropped its reference, and holds the module of the host template
# (libata) until that reference's release chain has run.  Meanwhile the
# drivers are unloaded: ahci goes, libata is refused until the store is out.
insmod scsi_mod; insmod sd_mod; insmod libata; insmod ahci
delay scsi_device_put 300ms
echo 1 > /sys/block/sda/device/delete &
await scsi_device_put
# The store waits between its two puts: libata is pinned by it.
lsmod
rmmod ahci; rmmod libata
wait
# The store is out: everything unloads.
rmmod libata; rmmod sd_mod; rmmod scsi_mod
expect unloaded scsi_mod
