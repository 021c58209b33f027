# tests/kernel/srcu.mk - sleepable RCU (code/kernel/srcu.c): readers, the flip, two grace periods, lockdep, bounded DFS.
KTEST_SRCU := $(BUILD)/tests/kernel/test_srcu
$(KTEST_SRCU): tests/kernel/test_srcu.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

# The negative control: the same tests against srcu.c built without the idle-index scan (SRCU_ONE_WAIT),
# where the straggler searches must fail, so they are known to catch the bug they were written for.
# It runs only those (the other tests are built but not run: hence -Wno-unused).
KTEST_SRCU_ONE_WAIT := $(BUILD)/tests/kernel/test_srcu_one_wait
$(KTEST_SRCU_ONE_WAIT): tests/kernel/test_srcu.c code/kernel/srcu.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -DSRCU_ONE_WAIT -Wno-unused -Itests/lib $(CHECK_CFLAGS) -o $@ $< code/kernel/srcu.c \
		$(filter-out $(BUILD)/kernel/srcu.o,$(KERNEL_OBJ)) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-srcu  SRCU: a reader in progress holds synchronize_srcu(), a later one does not, a straggler holds the next grace period (and does not without the idle-index scan), lockdep"
CHECK_TARGETS += check-kernel-srcu
.PHONY: check-kernel-srcu
check-kernel-srcu: $(BUILD)/.deps-ok $(KTEST_SRCU) $(KTEST_SRCU_ONE_WAIT)
	$(Q)tests/lib/runtests.sh check-kernel-srcu $(KTEST_SRCU) $(KTEST_SRCU_ONE_WAIT)
