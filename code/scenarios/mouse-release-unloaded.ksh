# An open file keeps the mouse's kobject alive; nothing keeps the mouse
# module loaded.  When the file is closed at last, the last kobject_put()
# calls mouse_release(), which was unmapped with the module.
insmod mouse
plug mouse0
cat > /sys/devices/mouse0/clicks &
unplug mouse0
rmmod mouse
lsmod
kill %%
