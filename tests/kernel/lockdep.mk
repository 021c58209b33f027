# tests/kernel/lockdep.mk: the lock validator's reports, rules and cost, before any stage uses it.
KTEST_LOCKDEP := $(BUILD)/tests/kernel/test_lockdep
$(KTEST_LOCKDEP): tests/kernel/test_lockdep.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-lockdep  lockdep: circular and recursive locking reports, trylocks, subclasses, classes, lockdep_assert_held(), cost"
CHECK_TARGETS += check-kernel-lockdep
.PHONY: check-kernel-lockdep
check-kernel-lockdep: $(BUILD)/.deps-ok $(KTEST_LOCKDEP)
	$(Q)tests/lib/runtests.sh check-kernel-lockdep $(KTEST_LOCKDEP)

# The cost on the stages' real scenarios: CPU time with and without, one
# ratio.  A time, so outside make check (a busy machine must not fail it);
# make check counts what lockdep costs instead (test_lockdep).
HELP += "check-lockdep-cost  a timing, outside make check: stages 3 and 4's scenarios with lockdep and without, CPU time ratio at most 2"
.PHONY: check-lockdep-cost
check-lockdep-cost: $(BUILD)/.deps-ok $(BUILD)/stage3/ksim $(BUILD)/stage4/ksim
	$(Q)tests/lib/lockdep-cost.sh 1 "$(BUILD)/stage3/ksim --sched nonpreemptive:tests/stage3/scenarios.tsv" \
		"$(BUILD)/stage4/ksim --sched nonpreemptive:tests/stage4/scenarios.tsv"
