# The ksim side of make real-kernel's break-vs-locked-unplug
# (code/realkernel/scenarios/break-vs-locked-unplug.sh), for now
# its set-up and the unload only: stage 4 has no store that breaks its
# active protection by hand, and no delay point to hold a store inside.
insmod pcidev
plug pci0
rmmod pcidev	#as: rmmod selfremove
