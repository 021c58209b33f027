# tests/kernel/cdev.mk - character devices (code/kernel/cdev.c): open by number, fops through private_data, cdev_del() waits for no file.
KTEST_CDEV := $(BUILD)/tests/kernel/test_cdev
$(KTEST_CDEV): tests/kernel/test_cdev.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-cdev  character devices: fops reach the driver through private_data; cdev_del() stops new opens, waits for no open file"
CHECK_TARGETS += check-kernel-cdev
.PHONY: check-kernel-cdev
check-kernel-cdev: $(BUILD)/.deps-ok $(KTEST_CDEV)
	$(Q)tests/lib/runtests.sh check-kernel-cdev $(KTEST_CDEV)
