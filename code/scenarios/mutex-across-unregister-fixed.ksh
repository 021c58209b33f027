# The same two runs on the driver written right (mutexdev_fixed): the
# unplug takes the device out of the driver's state under drv->lock and
# unregisters it after letting go.  Only one order is ever taken -
# s_active, then drv->lock - and lockdep has nothing to report.
insmod mutexdev_fixed
plug mutexdev0
cat /sys/devices/mutexdev0/state
unplug mutexdev0
rmmod mutexdev_fixed
