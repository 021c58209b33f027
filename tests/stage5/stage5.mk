# tests/stage5/stage5.mk - stage 5's extra checks.
# The classic mistakes of stage 5, each a patch against the reference (tests/stage5/mistakes.tsv),
# and its correct variants (tests/stage5/variants.tsv): tests/lib/stage-checks.mk.
$(eval $(call STAGE_MISTAKES,5))
$(eval $(call STAGE_VARIANTS,5))
