# tests/kernel/lockdep.mk: the lock validator's reports, rules and cost, before any stage uses it.
KTEST_LOCKDEP := $(BUILD)/tests/kernel/test_lockdep
$(KTEST_LOCKDEP): tests/kernel/test_lockdep.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-lockdep  lockdep: circular and recursive locking reports, trylocks, subclasses, classes, cost"
CHECK_TARGETS += check-kernel-lockdep
.PHONY: check-kernel-lockdep
check-kernel-lockdep: $(BUILD)/.deps-ok $(KTEST_LOCKDEP)
	@tests/lib/runtests.sh check-kernel-lockdep $(KTEST_LOCKDEP)
