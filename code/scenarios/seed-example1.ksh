# Seed example 1 (the RFD mail, "sysfs_schedule_callback() not grabbing the owning module").
# The delete attribute asks sysfs_schedule_callback() to remove its device
# later, from a kworker.  The seed made the race reliable with msleep(100) in
# sysfs_schedule_callback_work(); the delay point stands in the same place.
delay sysfs_schedule_callback_work 100ms
insmod drivers/scsi/scsi_mod.ko; insmod drivers/scsi/sd_mod.ko; insmod drivers/ata/libata.ko; insmod drivers/ata/ahci.ko
echo 1 > /sys/block/sda/device/delete; rmmod ahci; rmmod libata; rmmod sd_mod; rmmod scsi_mod
