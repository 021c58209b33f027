# The delete attribute is scsi_mod's: scsi_mod's code created the file, so
# opening it pins scsi_mod (stage 2).  Hold it open, unload the drivers
# around it, then try scsi_mod itself.  Stage 1 lets scsi_mod go, and the
# last close calls into its unmapped code.  Stage 2 refuses - and the last
# close still crashes, one step further up: in the host's release, reading
# the template that went away with libata.
insmod scsi_mod; insmod sd_mod; insmod libata; insmod ahci
cat > /sys/block/sda/device/delete &
rmmod ahci; rmmod libata; rmmod sd_mod
lsmod
rmmod scsi_mod
kill %%
