# tests/kernel/percpu.mk - per-CPU counters, RCU's grace period and percpu_ref (code/kernel/percpu*.c, rcu.c).
KTEST_PERCPU_REF := $(BUILD)/tests/kernel/test_percpu_ref
$(KTEST_PERCPU_REF): tests/kernel/test_percpu_ref.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-percpu-ref  per-CPU counters, the RCU grace period and percpu_ref (kill under load)"
CHECK_TARGETS += check-kernel-percpu-ref
.PHONY: check-kernel-percpu-ref
check-kernel-percpu-ref: $(BUILD)/.deps-ok $(KTEST_PERCPU_REF)
	$(Q)tests/lib/runtests.sh check-kernel-percpu-ref $(KTEST_PERCPU_REF)
