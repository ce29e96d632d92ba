# The rule for build/ARCH/include/generated/vermagic.h, the kernel build's
# identity (tools/mkvermagic.py), for any ARCH: included by the top
# Makefile, which builds the kernel and modules with it, and by
# tests/host/host.mk, whose host build of the loader compares with it.
ifndef VERMAGIC_MK_INCLUDED
VERMAGIC_MK_INCLUDED := 1
build/%/include/generated/vermagic.h: tools/mkvermagic.py FORCE
	@python3 tools/mkvermagic.py $* $@
.PHONY: FORCE
endif
