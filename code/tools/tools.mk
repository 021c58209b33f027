# tools.mk - trace2dot (trace -> Graphviz), tracegen (synthetic traces), their tests.
# Included by the top-level Makefile, which defines BUILD, CC, CFLAGS, CHECK_*.

T2D_SRCS := $(addprefix code/tools/,strtab.c tracefile.c refgraph.c dot_escape.c \
	dot_ref.c dot_life.c trace2dot.c)
T2D_HDRS := $(wildcard code/tools/*.h) code/kernel/trace.h code/kernel/kernel.h

$(BUILD)/tools/trace2dot: $(T2D_SRCS) $(T2D_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(T2D_SRCS)

$(BUILD)/tools/tracegen: code/tools/tracegen.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/tools/check_trace2dot: tests/tools/check_trace2dot.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(CHECK_LIBS)

# The tests run the built programs, so they get their paths, not a rebuild.
.PHONY: check-tools
check-tools: $(BUILD)/.deps-ok $(BUILD)/tools/trace2dot $(BUILD)/tools/tracegen \
		$(BUILD)/tools/check_trace2dot
	@TRACE2DOT=$(BUILD)/tools/trace2dot TRACEGEN=$(BUILD)/tools/tracegen \
	TRACE_DIR=tests/tools/traces TMPDIR=$(abspath $(BUILD))/tools \
	$(BUILD)/tools/check_trace2dot

# Not part of check: a million events, timed, and the collapsed figure rendered.
# bash for its time keyword: make's /bin/sh may have none.
T2D_BENCH := $(BUILD)/tools/bench-1m.trace
T2D_TIME := bash -c 'time "$$@"' time
.PHONY: bench-trace2dot
bench-trace2dot: $(BUILD)/.deps-ok $(BUILD)/tools/trace2dot $(BUILD)/tools/tracegen
	$(BUILD)/tools/tracegen -n 1000000 -o $(T2D_BENCH)
	@ls -l $(T2D_BENCH)
	@echo "== reference graph (collapsed) =="
	$(T2D_TIME) $(BUILD)/tools/trace2dot -o $(BUILD)/tools/bench-ref.dot $(T2D_BENCH)
	$(T2D_TIME) dot -Tsvg -o $(BUILD)/tools/bench-ref.svg $(BUILD)/tools/bench-ref.dot
	@echo "== lifelines (most eventful objects) =="
	$(T2D_TIME) $(BUILD)/tools/trace2dot --lifelines -o $(BUILD)/tools/bench-life.dot $(T2D_BENCH)
	$(T2D_TIME) neato -n2 -Tsvg -o $(BUILD)/tools/bench-life.svg $(BUILD)/tools/bench-life.dot

CHECK_TARGETS += check-tools
HELP += "check-tools      trace2dot's tests"
HELP += "bench-trace2dot  time trace2dot on a 1,000,000-event synthetic trace"
