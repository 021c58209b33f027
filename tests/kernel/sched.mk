# tests/kernel/sched.mk: the controlled scheduler as a reader relies on it (determinism, replay,
# deadlocks), on the demo stage, so that no student's exercise is ever in the way.
KTEST_SCHED := $(BUILD)/tests/kernel/test_sched
$(KTEST_SCHED): tests/kernel/test_sched.c $(filter-out $(BUILD)/tests/lib/explore%,$(TESTLIB_OBJ)) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(filter-out $(BUILD)/tests/lib/explore%,$(TESTLIB_OBJ)) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-sched  the controlled scheduler on the demo stage: same seed same run, replay, deadlocks at once, bad strategies"
CHECK_TARGETS += check-kernel-sched
.PHONY: check-kernel-sched
check-kernel-sched: $(BUILD)/.deps-ok $(KTEST_SCHED) $(BUILD)/stage0/ksim $(DEMO_MODS)
	$(Q)KSIM="$(RUN_PREFIX) $(BUILD)/stage0/ksim" $(SAN_ENV) tests/lib/runtests.sh check-kernel-sched $(KTEST_SCHED)
