# Seed example 2 (the RFD mail, "sysfs attr grabbing the wrong kobject and module").
# A process holds the delete attribute open.  The device it belongs to hangs
# under a SCSI host that ahci and libata implement; the file pins the device
# (and, through its parents, the host) but not those modules.
insmod drivers/scsi/scsi_mod.ko; insmod drivers/scsi/sd_mod.ko; insmod drivers/ata/libata.ko; insmod drivers/ata/ahci.ko
cat > /sys/block/sda/device/delete &
rmmod ahci; rmmod libata
kill %%
