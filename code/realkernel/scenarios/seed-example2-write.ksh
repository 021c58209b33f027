# Seed example 2, and then a write through the held-open delete file after
# the disk's modules are unloaded: the ksim side of make real-kernel's
# seed-example2-write (code/realkernel/scenarios/seed-example2-write.sh).
# ksim's echo opens its file now and writes once the delay point lets it;
# on Linux, cat holds the file and writes what arrives through a fifo.
delay sysfs_write_file 500ms
insmod drivers/scsi/scsi_mod.ko; insmod drivers/scsi/sd_mod.ko; insmod drivers/ata/libata.ko; insmod drivers/ata/ahci.ko
echo 1 > /sys/block/sda/device/delete &	#as: cat > /sys/block/sda/device/delete < /tmp/in &
rmmod ahci; rmmod libata
rmmod sd_mod; rmmod scsi_mod
wait	#as: echo 1 >&4 && wait
