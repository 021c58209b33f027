# tests/kernel/module.mk: the module loader (insmod, rmmod, references) and the oops reports.
KTEST_MODULE := $(BUILD)/tests/kernel/test_module
$(KTEST_MODULE): tests/kernel/test_module.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-module  the module loader and oops reports: insmod/rmmod, stale calls, BUG/WARN"
CHECK_TARGETS += check-kernel-module
.PHONY: check-kernel-module
check-kernel-module: $(BUILD)/.deps-ok $(KTEST_MODULE) $(BUILD)/stage0/demo_a.so $(BUILD)/stage0/demo_b.so \
		$(BUILD)/stage0/nodelete/demo_a.so
	$(Q)KSIM_MODULE_DIR=$(BUILD)/stage0 tests/lib/runtests.sh check-kernel-module $(KTEST_MODULE)

# demo_a linked -z nodelete: dlclose() leaves it mapped, and rmmod must say so
# instead of fencing (and hiding) code that is still there.
$(BUILD)/stage0/nodelete/demo_a.so: tests/kernel/demo/modules/demo_a.c $(KERNEL_HDR) $(wildcard tests/kernel/demo/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/kernel/demo $(MODFLAGS) -shared -Wl,-z,nodelete -o $@ $<
