# tests/kernel/ktest.mk: the test runner's own time limits (ktest.c): a hang and a spin run out of time, a starved test does not.
KTEST_KTEST := $(BUILD)/tests/kernel/test_ktest
$(KTEST_KTEST): tests/kernel/test_ktest.c $(BUILD)/tests/lib/ktest.o $(BUILD)/tests/lib/ktest_cpu.o $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(BUILD)/tests/lib/ktest.o $(BUILD)/tests/lib/ktest_cpu.o \
		$(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-ktest  the tests' time limit: a deadlock and a busy loop run out of time, a test starved by load does not"
CHECK_TARGETS += check-kernel-ktest
.PHONY: check-kernel-ktest
check-kernel-ktest: $(BUILD)/.deps-ok $(KTEST_KTEST)
	$(Q)tests/lib/runtests.sh check-kernel-ktest $(KTEST_KTEST)
