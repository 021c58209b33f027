# mousedev-enodev with mousedev_naive: the ioctl's file outlives the
# unplug, and its access writes into the mouse that devres freed.
insmod mousedev_naive
plug mouse0
delay mousedev_ioctl 200ms
ioctl /dev/mouse0 1 &
await mousedev_ioctl
unplug mouse0
wait
