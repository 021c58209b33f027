# A file opened in a mode its attribute does not allow is refused at the
# open (EACCES), before any show() or store() runs; a directory is not a
# file (EISDIR); a name that is not there is ENOENT.  None of these failed
# opens may keep anything: the modules unload at the end, which removes
# every node (a leaked s_count or kobject reference is reported by the
# stage's check) and needs every module's count back at zero.
insmod scsi_mod
insmod sd_mod
insmod libata
insmod ahci
cat /sys/block/sda/device/delete
expect fail EACCES
echo 1 > /sys/block/sda/device/model
expect fail EACCES
cat /sys/block/sda/device
expect fail EISDIR
cat /sys/block/sda/device/no_such_file
expect fail ENOENT
cat /sys/block/sda/device/model
rmmod ahci
rmmod libata
rmmod sd_mod
rmmod scsi_mod
expect unloaded scsi_mod
