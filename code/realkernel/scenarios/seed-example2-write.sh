# ksim: stage4 code/realkernel/scenarios/seed-example2-write.ksh
# Seed example 2, and then the held file is written, after every module of
# the disk's stack is gone: the write finds the attribute's node deactivated
# and fails with ENODEV, in kernfs, before any code of the gone modules
# could run.
modprobe sd_mod; modprobe ahci
mkfifo /tmp/in
cat > /sys/block/sda/device/delete < /tmp/in &
exec 4> /tmp/in
rmmod ahci; rmmod libata
rmmod libahci; rmmod libata; rmmod sd_mod; rmmod scsi_mod
echo 1 >&4 && wait
lsmod
