# ksim: stage4 code/scenarios/seed-example2.ksh
# Seed example 2 with the file really held open.  The mail's
# "cat > .../delete &" typed at a terminal keeps the terminal as cat's
# input; in a script, a background job's input is /dev/null, and cat would
# exit at once.  A fifo that this shell keeps open for writing plays the
# terminal.
modprobe sd_mod; modprobe ahci
mkfifo /tmp/in
cat > /sys/block/sda/device/delete < /tmp/in &	#as: cat > /sys/block/sda/device/delete &
exec 4> /tmp/in
ls -l /proc/$!/fd/1
rmmod ahci; rmmod libata
kill %%
wait
lsmod
