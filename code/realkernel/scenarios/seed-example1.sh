# ksim: stage4 code/scenarios/seed-example1.ksh
# Seed example 1, its second line verbatim, on Linux 6.1.  Its first line
# (insmod of four .ko files) cannot run verbatim: since 2007 scsi_common,
# libahci and sd_mod's checksum modules were split out, so modprobe loads
# the same four with what they need.  Then the 2007 line, and then what it
# takes to unload everything on 6.1: libahci first.
# Under heavy host load we once saw "rmmod ahci" refused: after the delete,
# libata's error handler detaches the ATA device asynchronously, and while
# it runs ahci is held.  The check then fails; this is a race of the real
# kernel, not of the model (see the chapter).
modprobe sd_mod; modprobe ahci
ls /sys/block
echo 1 > /sys/block/sda/device/delete; rmmod ahci; rmmod libata; rmmod sd_mod; rmmod scsi_mod
rmmod libahci; rmmod libata; rmmod scsi_mod
lsmod
