# CONFIG_DEBUG_KOBJECT_RELEASE, and the driver that frees in release().
# mouse leaves the freeing to mouse_release(), so a late cleanup finds the
# memory where it was and frees it then.  The module stays loaded until
# the cleanup has run: its release() is code of the module.
config DEBUG_KOBJECT_RELEASE=y
insmod mouse
plug mouse0
unplug mouse0
# The last put only queued the cleanup: let the kernel's queued work run.
settle
rmmod mouse
