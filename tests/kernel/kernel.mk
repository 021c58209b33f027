# tests/kernel: the simulated kernel's own mechanisms, before any stage exists.
KTEST_CORE := $(BUILD)/tests/kernel/test_core
$(KTEST_CORE): tests/kernel/test_core.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-core  the simulated kernel: kref, slab, rwsem, workqueue, watchdog, delay points, trace"
CHECK_TARGETS += check-kernel-core
.PHONY: check-kernel-core
check-kernel-core: $(BUILD)/.deps-ok $(KTEST_CORE)
	$(Q)tests/lib/runtests.sh check-kernel-core $(KTEST_CORE)
