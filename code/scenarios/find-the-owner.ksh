# Find the owner.  Two files are held open: the SCSI disk's delete and the
# mouse's clicks.  Before you run it, predict for each file which module
# its open pins (lsmod's "Used by" counts go up by one), and which modules
# its last close may call into.  Then run it with --trace: each "mod_get"
# says what an open pinned (by=file:...), and each "open" event lists in
# needs= what kobject_owners() found the last close may reach.
insmod scsi_mod; insmod sd_mod; insmod libata; insmod ahci
insmod mouse
plug mouse0
lsmod
cat > /sys/block/sda/device/delete &
cat > /sys/devices/mouse0/clicks &
lsmod
kill %1
kill %2
wait
lsmod
