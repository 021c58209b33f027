# figures.mk - figures/: the book's Graphviz figures, drawn from traced scenario runs.
# Included by the top-level Makefile, which defines BUILD, SAN, HELP, CHECK_TARGETS.
#
# figures/figures.list names each figure (NAME STAGE SCENARIO [trace2dot options]);
# code/tools/mkfigures.sh runs the scenarios with --trace and writes NAME.dot.
# The DOT is the figure, committed: it depends only on the scenario and the
# code, and check-figures fails when it no longer matches them.  Its drawing,
# build/figures/NAME.svg, is made by code/tools/render-figure.sh with the
# Graphviz this machine has, which checks that it draws every node and edge:
# Debian 12's and 13's Graphviz draw the same DOT differently, so no SVG of
# ours is compared by its bytes, and none is committed (the book is built
# with Graphviz at hand: it is in DEB_PACKAGES).
# figures/bench-* are make bench's (code/bench/bench.mk): measured, not
# drawn from traces, so their SVGs are committed and neither target touches
# or compares them.
# Figures come from the plain reference build only: a sanitizer build prints
# its own reports instead of the simulated kernel's, so its traces differ.

FIG_LIST := figures/figures.list
FIG_STAGES := $(sort $(shell sed 's/\#.*//' $(FIG_LIST) 2>/dev/null | awk 'NF >= 4 { print $$2 }'))
# A figure may come from the schedule explorer (SCENARIO explore:MISTAKE:HARNESS:SCHEDULE).
FIG_EXPLORERS := $(sort $(shell sed 's/\#.*//' $(FIG_LIST) 2>/dev/null | \
	awk 'NF >= 4 && $$3 ~ /^explore:/ { split($$3, e, ":"); \
	  print (e[2] == "-" ? "build/stage" $$2 "/tests/test_explore" : "build/mistake/stage" $$2 "/" e[2] "/test_explore") }'))
FIG_DEPS := build/.deps-ok build/tools/trace2dot $(foreach n,$(FIG_STAGES),build/stage$(n)/ksim) $(FIG_EXPLORERS)
MKFIGURES := BUILD=build code/tools/mkfigures.sh $(FIG_LIST)
FIG_NAMES := $(shell sed 's/\#.*//' $(FIG_LIST) 2>/dev/null | awk 'NF >= 4 { print $$1 }')
# The drawings the book embeds (chapters/book.mk).
FIG_SVGS := $(patsubst %,build/figures/%.svg,$(FIG_NAMES))

build/figures/%.svg: figures/%.dot code/tools/render-figure.sh | build/.deps-ok
	$(Q)mkdir -p $(@D)
	$(Q)code/tools/render-figure.sh $< $@

HELP += "figures          rewrite figures/*.dot from traced runs of the scenarios (commit them) and draw them in build/figures/"
HELP += "check-figures    fail if figures/*.dot is stale, or this Graphviz does not draw each one whole (CI runs it)"
.PHONY: figures check-figures

ifeq ($(SAN),)
figures: $(FIG_DEPS)
	$(Q)rm -rf build/figures-new
	$(Q)$(MKFIGURES) build/figures-new build/figures-traces
	@# Rewrite only what changed, and drop figures the list no longer names.
	$(Q)for f in build/figures-new/*.dot; do \
	  cmp -s "$$f" "figures/$${f##*/}" || { cp "$$f" figures/ && echo "  FIG     figures/$${f##*/}"; }; done
	$(Q)for f in figures/*.dot; do \
	  [ ! -e "$$f" ] || [ -e "build/figures-new/$${f##*/}" ] || { rm "$$f" && echo "  RM      $$f"; }; done
	$(Q)$(MAKE) --no-print-directory -s $(FIG_SVGS)
	@echo "figures/ is up to date ($$(ls build/figures-new/*.dot | wc -l) figures, drawn in build/figures/ by $$(dot -V 2>&1 | sed 's/.*version \([^ ]*\).*/Graphviz \1/'))"

CHECK_TARGETS += check-figures
# The DOT, byte for byte (what the traces mean, as trace2dot draws them), then
# each drawn by this machine's Graphviz, which must keep every node and edge.
check-figures: $(FIG_DEPS)
	$(Q)rm -rf build/figures-fresh
	$(Q)$(MKFIGURES) build/figures-fresh build/figures-fresh-traces
	$(Q)stale=$$( { ls figures/*.dot build/figures-fresh/*.dot | sed 's|.*/||' | sort | uniq -u; \
	  for f in build/figures-fresh/*.dot; do [ ! -e "figures/$${f##*/}" ] || cmp -s "$$f" "figures/$${f##*/}" || echo "$${f##*/}"; done; } | sort -u); \
	  [ -z "$$stale" ] || { echo "$$stale" | head -20 | sed 's/^/  differs or is missing: /'; \
	    echo "check-figures: figures/ is stale: run make figures and commit" >&2; exit 1; }
	$(Q)for f in build/figures-fresh/*.dot; do code/tools/render-figure.sh "$$f" "$${f%.dot}.svg" || exit 1; done
	$(Q)tests/tools/render-figure-test.sh
	@echo "check-figures: figures/*.dot match the scenarios ($$(ls build/figures-fresh/*.dot | wc -l) figures)," \
	  "and $$(dot -V 2>&1 | sed 's/.*version \([^ ]*\).*/Graphviz \1/') draws every node and edge of each"
else
figures check-figures:
	@echo "$@: figures come from the plain build; run it without SAN=" >&2; exit 2
endif

# The book embeds the drawings (chapters/book.mk is read before this file).
$(BOOK_HTML) $(BOOK_EPUB): $(FIG_SVGS)
