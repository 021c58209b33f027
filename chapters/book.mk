# book.mk - the book (chapters/*.md -> build/book/) and the tour.
# Included by the top-level Makefile, which defines BUILD, SAN, STAGES, HELP, CHECK_TARGETS.
#
# Each chapter goes through pandoc once on its own, with code/tools/include.lua
# filling in the code it includes and the runs it shows; the result is
# build/book/json/CHAPTER.json, and a CHAPTER.d that lists every file the
# chapter pulled in, so a chapter is rebuilt only when one of them changes.
# Then the JSON of all chapters, in name order, goes through
# code/tools/book.lua (links between chapters, unique identifiers) into one
# self-contained HTML file and an EPUB.
#
# The book shows runs of the reference build, so it is built from build/,
# never from a sanitizer build.

BOOK_DIR := build/book
BOOK_NAME := lifetime-workbook
BOOK_HTML := $(BOOK_DIR)/$(BOOK_NAME).html
BOOK_EPUB := $(BOOK_DIR)/$(BOOK_NAME).epub
BOOK_PDF := $(BOOK_DIR)/$(BOOK_NAME).pdf
BOOK_CHAPTERS := $(sort $(wildcard chapters/*.md))
BOOK_JSON := $(patsubst chapters/%.md,$(BOOK_DIR)/json/%.json,$(BOOK_CHAPTERS))
# What a chapter may run: every stage's reference ksim and the demo stage.
BOOK_KSIMS := build/stage0/ksim $(foreach n,$(STAGES),build/stage$(n)/ksim)
# ...and the programs chapters run with cmd= (the schedule explorer, one mistake's).
BOOK_KSIMS += build/stage4/tests/test_explore build/mistake/stage4/remove-self-wakes-before-unbreak/test_explore
BOOK_KSIMS += build/stage5/tests/test_explore build/mistake/stage5/handle-per-file-as-first-merged/test_explore \
	build/mistake/stage5/provider-by-value/test_explore
BOOK_KSIMS += build/stage5/tests/test_chardev
BOOK_FILTERS := code/tools/include.lua code/tools/book.lua
BOOK_STYLE := code/tools/book.yaml code/tools/book.css
# pandoc 2.19 renamed --self-contained to --embed-resources --standalone, and
# pandoc 3.0 --epub-chapter-level to --split-level; the old names warn from
# then on.  Debian 12 has 2.17, Debian 13 3.1: the options follow the
# version, asked once when first used (after the deps step has installed pandoc).
PANDOC_VERSION = $(eval PANDOC_VERSION := $(shell pandoc --version 2>/dev/null | sed -n '1s/^pandoc[^ ]* //p'))$(PANDOC_VERSION)
# version_ge(A, B) - non-empty when version A is B or later.
version_ge = $(filter $(2),$(firstword $(shell printf '%s\n' $(2) $(1) | sort -V)))
PANDOC_EMBED = $(if $(call version_ge,$(PANDOC_VERSION),2.19),--embed-resources --standalone,--standalone --self-contained)
PANDOC_SPLIT = $(if $(call version_ge,$(PANDOC_VERSION),3.0),--split-level=1,--epub-chapter-level=1)
PANDOC_BOOK := pandoc --from json --lua-filter code/tools/book.lua \
	--metadata-file code/tools/book.yaml --toc --toc-depth=2 --number-sections \
	--css code/tools/book.css --fail-if-warnings

HELP += "book             the book: build/book/$(BOOK_NAME).html (one self-contained file), .epub and .pdf"
HELP += "check-book       the book builds, every include and run in it resolves, every figure exists"
HELP += "check-book-browser  open the HTML book in headless Chromium: every figure shown (not in check)"
HELP += "tour             the guided tour: every stage's scenarios, narrated; figures; the book"
.PHONY: book check-book check-book-browser tour

ifeq ($(SAN),)
# The chapters run scenarios that mostly sleep at delay points, so they are
# built side by side (-j); the stages first, one at a time, as make check
# builds them.
BOOK_JOBS := $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 6 ] && n=6; echo $$n)
.PHONY: book-stages
book-stages: build/.deps-ok $(BOOK_KSIMS)
	$(Q):
book:
	$(Q)$(MAKE) --no-print-directory book-stages build/.deps-book-ok
	$(Q)$(MAKE) --no-print-directory -j$(BOOK_JOBS) $(BOOK_HTML) $(BOOK_EPUB) $(BOOK_PDF)
	@echo "book: $(BOOK_HTML) ($$(du -k $(BOOK_HTML) | cut -f1) KiB), .epub ($$(du -k $(BOOK_EPUB) | cut -f1) KiB), .pdf ($$(du -k $(BOOK_PDF) | cut -f1) KiB)"

# One chapter: includes resolved, runs run.  The stages are order-only
# prerequisites: built first if missing or stale; the .d file then makes a
# changed ksim rebuild exactly the chapters that run it.
$(BOOK_DIR)/json/%.json: chapters/%.md code/tools/include.lua | build/.deps-ok $(BOOK_KSIMS)
	$(Q)mkdir -p $(@D)
	$(Q)t=$@.$$$$.tmp; BOOK_DEPS=$(@:.json=.d) BOOK_TARGET=$@ BOOK_BUILD=build \
		pandoc --from markdown --lua-filter code/tools/include.lua --to json -o $$t $< \
		&& mv $$t $@ || { rm -f $$t; echo "book: $< does not build; see the lines above" >&2; exit 1; }
	@echo "  BOOK    $<"
-include $(BOOK_JSON:.json=.d)

$(BOOK_HTML): $(BOOK_JSON) $(BOOK_FILTERS) $(BOOK_STYLE) $(wildcard figures/*.svg)
	$(Q)t=$@.$$$$.tmp.html; $(PANDOC_BOOK) $(PANDOC_EMBED) -o $$t $(BOOK_JSON) && mv $$t $@ \
		|| { rm -f $$t; echo "book: the chapters do not join into one book; see above" >&2; exit 1; }
	@echo "  HTML    $@"

$(BOOK_EPUB): $(BOOK_JSON) $(BOOK_FILTERS) $(BOOK_STYLE) $(wildcard figures/*.svg)
	$(Q)t=$@.$$$$.tmp.epub; $(PANDOC_BOOK) $(PANDOC_SPLIT) -o $$t $(BOOK_JSON) && mv $$t $@ \
		|| { rm -f $$t; echo "book: the EPUB does not build; see above" >&2; exit 1; }
	@echo "  EPUB    $@"

# The PDF is the HTML book printed by headless Chromium (code/tools/book-pdf.sh):
# a maintained engine in Debian 12 and 13 alike that renders the same page,
# SVG figures and all, and writes a tagged PDF (a structure tree a screen
# reader follows) with the book's title and an outline of its chapters and
# sections.  wkhtmltopdf did it before; Debian 13 no longer has it.
$(BOOK_PDF): $(BOOK_HTML) code/tools/book-pdf.sh | build/.deps-book-ok
	$(Q)code/tools/book-pdf.sh $(BOOK_HTML) $@
	@echo "  PDF     $@"

HELP += "check-tour-list  every run the tour announces is a scenarios.tsv row with the same exit (no runs)"
CHECK_TARGETS += check-tour-list
.PHONY: check-tour-list
check-tour-list:
	$(Q)code/tools/check-tour-list.sh $(STAGES)

CHECK_TARGETS += check-book
check-book: book build/.deps-book-check-ok
	$(Q)code/tools/check-book.sh $(BOOK_HTML) $(BOOK_CHAPTERS)

# Not in `make check`: the PDF needs Chromium already (BOOK_PACKAGES), but a
# browser that opens the book and looks at every figure adds little to what
# check-book reads from the HTML, and CI runs it after make check.
check-book-browser: book
	$(Q)code/tools/check-book-browser.sh $(BOOK_HTML) $(BOOK_DIR)/browser

# The tour builds what it needs itself, to tell a newcomer what it is doing;
# it only needs the packages first.
tour: build/.deps-ok build/.deps-book-ok
	$(Q)MAKE="$(MAKE)" STAGES="$(STAGES)" code/tools/tour.sh
else
book check-book check-book-browser tour:
	@echo "$@: the book and the tour show the plain reference build; run it without SAN=" >&2; exit 2
endif
