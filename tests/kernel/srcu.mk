# tests/kernel/srcu.mk - sleepable RCU (code/kernel/srcu.c): readers, the flip, lockdep, every schedule at 2 preemptions.
KTEST_SRCU := $(BUILD)/tests/kernel/test_srcu
$(KTEST_SRCU): tests/kernel/test_srcu.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-srcu  SRCU: a reader in progress holds synchronize_srcu(), a later one does not, nesting, lockdep, dfs:2"
CHECK_TARGETS += check-kernel-srcu
.PHONY: check-kernel-srcu
check-kernel-srcu: $(BUILD)/.deps-ok $(KTEST_SRCU)
	$(Q)tests/lib/runtests.sh check-kernel-srcu $(KTEST_SRCU)
