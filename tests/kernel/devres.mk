# tests/kernel/devres.mk - managed resources (code/kernel/devres.c): released newest first after remove(); the naive chardev reads them freed.
KTEST_DEVRES := $(BUILD)/tests/kernel/test_devres
$(KTEST_DEVRES): tests/kernel/test_devres.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-devres  devm_ resources: released newest first, per device; a file open across the unplug reads freed devm_ memory (oops)"
CHECK_TARGETS += check-kernel-devres
.PHONY: check-kernel-devres
check-kernel-devres: $(BUILD)/.deps-ok $(KTEST_DEVRES)
	$(Q)tests/lib/runtests.sh check-kernel-devres $(KTEST_DEVRES)
