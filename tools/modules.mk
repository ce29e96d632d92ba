# Building the loadable modules of one directory (docs/modules.md).
#
# Run by the top Makefile, once per module directory, never by hand:
#
#   make -f tools/modules.mk M=DIR ARCH=... BUILD=... CC=... LD=... \
#        PYTHON=... MODULE_CFLAGS='...' install
#
# from the top of the tree. DIR may be inside the tree or anywhere else
# (relative or absolute). What it does:
#
#   1. tools/kbuild.py reads DIR/Kbuild, or DIR/Makefile if there is no
#      Kbuild, into $(OBJ)/kbuild.mk: the modules and their objects;
#   2. each source is compiled with MODULE_CFLAGS plus KBUILD_MODNAME and
#      KBUILD_BASENAME into $(OBJ), where OBJ is build/ARCH/M/ followed by
#      DIR's path in the tree (or abs/ and its absolute path, for a
#      directory outside the tree): one per architecture, so that x86_64
#      and aarch64 objects of one directory never mix;
#   3. NAME.mod.c is generated, holding "name=NAME", the kernel
#      build's "vermagic=..." and "depends=..." (the modules whose
#      exports NAME uses: tools/depmod.py --depends, from this
#      directory's objects and the modules already installed) for
#      .modinfo (what Linux's modpost adds), and compiled;
#   4. `ld -r` links the objects and NAME.mod.o into $(OBJ)/NAME.ko;
#   5. `install` copies each .ko that changed to the staging tree
#      $(BUILD)/modules/lib/modules/, through a temporary file renamed
#      over the old one (see install below), and touches
#      $(BUILD)/modules.stamp, from which the top Makefile rebuilds
#      modules.dep (tools/depmod.py) and the root file system archive.

SHELL := /bin/bash
Q := $(if $(V),,@)

ifeq ($(strip $(M)),)
$(error tools/modules.mk: M=DIR is not set)
endif
SRC := $(patsubst %/,%,$(strip $(M)))
ifeq ($(wildcard $(SRC)/.),)
$(error M=$(M): no such directory)
endif
ABS_SRC := $(abspath $(SRC))
ifneq ($(filter $(CURDIR)/%,$(ABS_SRC)),)
OBJ := $(BUILD)/M/$(patsubst $(CURDIR)/%,%,$(ABS_SRC))
else
OBJ := $(BUILD)/M/abs$(ABS_SRC)
endif
# The top Makefile passes its INSTALL_MOD_PATH's lib/modules.
STAGING ?= $(BUILD)/modules/lib/modules
STAMP := $(BUILD)/modules.stamp

KBUILD_FILE := $(firstword $(wildcard $(SRC)/Kbuild $(SRC)/Makefile))
ifeq ($(KBUILD_FILE),)
$(error M=$(M): there is no Kbuild or Makefile listing its modules (obj-m += NAME.o))
endif

.PHONY: all install FORCE
all: modules
# Keep the generated NAME.mod.c (make would delete it as an intermediate
# file), and never keep a half-written target.
.SECONDARY:
.DELETE_ON_ERROR:

# The list of modules: remade when the Kbuild file changes, and then make
# starts again with it.
$(OBJ)/kbuild.mk: $(KBUILD_FILE) tools/kbuild.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/kbuild.py $(SRC) $(KBUILD_FILE) > $@.tmp && mv $@.tmp $@
include $(OBJ)/kbuild.mk

KOS := $(patsubst %,$(OBJ)/%.ko,$(KBUILD_MODULES))
SOURCE_OBJS := $(foreach m,$(KBUILD_MODULES),$(addprefix $(OBJ)/,$(KBUILD_OBJS_$(m))))
ALL_OBJS := $(SOURCE_OBJS) $(patsubst %,$(OBJ)/%.mod.o,$(KBUILD_MODULES))
# Each module and its objects, for tools/depmod.py: NAME=A.o,B.o ...
comma := ,
empty :=
space := $(empty) $(empty)
MODULE_GROUPS := $(foreach m,$(KBUILD_MODULES),\
	$(m)=$(subst $(space),$(comma),$(addprefix $(OBJ)/,$(KBUILD_OBJS_$(m)))))

.PHONY: modules
modules: $(KOS)

# Objects depend on the flags they were compiled with, as the kernel's do,
# and on the commands here.
$(OBJ)/cflags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(MODULE_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(MODULE_CFLAGS)' > $@
$(ALL_OBJS): $(OBJ)/cflags tools/modules.mk

# Per module: its objects get its name (KBUILD_MODNAME, with - turned
# into _ as Linux does, since it is also used in C identifiers), and the
# .ko is its objects then NAME.mod.o linked into one relocatable object.
define module_rules
$(addprefix $(OBJ)/,$(KBUILD_OBJS_$(1))) $(OBJ)/$(1).mod.o: MODNAME := $(subst -,_,$(1))
$(OBJ)/$(1).ko: $(addprefix $(OBJ)/,$(KBUILD_OBJS_$(1))) $(OBJ)/$(1).mod.o
	@echo "  LD [M]  $$@"
	$(Q)$(LD) -r -o $$@ $$^
endef
$(foreach m,$(KBUILD_MODULES),$(eval $(call module_rules,$(m))))

MOD_CC = $(CC) $(MODULE_CFLAGS) -MMD -MP -DKBUILD_MODNAME='"$(MODNAME)"' \
	-DKBUILD_BASENAME='"$(subst -,_,$(basename $(notdir $@)))"'

$(OBJ)/%.o: $(SRC)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC [M]  $<"
	$(Q)$(MOD_CC) -c $< -o $@

# An assembly file says nothing about the stack unless it is told to;
# --noexecstack marks it as needing no executable stack, as C objects are.
$(OBJ)/%.o: $(SRC)/%.S
	@mkdir -p $(dir $@)
	@echo "  AS [M]  $<"
	$(Q)$(MOD_CC) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

# What Linux's modpost would add to the module: the kernel build it is
# for (build/ARCH/include/generated/vermagic.h, made by the top
# Makefile), which the loader checks, its name, and the modules it needs
# (which any object of the directory may export: each NAME.mod.c
# depends on all of them). In Linux's order: GCC lays the strings out
# last first, so that modinfo shows depends=, name=, vermagic=.
$(OBJ)/%.mod.c: tools/modules.mk tools/depmod.py $(SOURCE_OBJS)
	@mkdir -p $(dir $@)
	$(Q)depends=$$($(PYTHON) tools/depmod.py --depends $* --installed $(STAGING) $(MODULE_GROUPS)) && \
	printf '%s\n' '/* Generated by tools/modules.mk: what the loader and modinfo read of the module. */' \
		'#include <linux/module.h>' '#include <generated/vermagic.h>' '' \
		'MODULE_INFO(vermagic, VERMAGIC_STRING);' 'MODULE_INFO(name, KBUILD_MODNAME);' \
		"MODULE_INFO(depends, \"$$depends\");" > $@

$(OBJ)/%.mod.o: $(OBJ)/%.mod.c
	$(Q)$(MOD_CC) -c $< -o $@

-include $(ALL_OBJS:.o=.d)

# Copy the modules that changed into the staging tree; touch the stamp
# only then, so that an unchanged module rebuilds nothing downstream.
#
# Each copy is atomic: written to a temporary file in the staging
# directory itself, then renamed over NAME.ko (mv within one file system
# is rename(2)), never rewritten in place. The staging tree is read while
# it changes: `make run` shares the tree over virtio 9p, and a kernel
# running `insmod NAME` reads /host/build/ARCH/modules/lib/modules/NAME.ko
# while `make M=DIR modules` installs it. A copy over the old file would
# truncate it and write it again under the reader: the kernel could get
# a short file, or the first part of one build and the rest of the
# other, which may even pass the loader's checks. A rename switches the
# name from the old file to the new one at once: a lookup finds one or
# the other, whole, and a file already open (a 9P fid) stays the old one
# to its end. The new file is a new inode, hence a new 9P qid path, so
# that nothing caching by qid (nor GDB's lx-symbols, tools/gdb/probeos.py)
# takes it for the old one. The temporary name starts with a dot and
# does not end in .ko, so that no reader of the directory (insmod NAME,
# depmod.py, lx-symbols) takes it for a module; it is removed if the copy
# fails or make is interrupted.
install: $(KOS)
	@mkdir -p $(STAGING)
	$(Q)tmp=; trap 'rm -f "$$tmp"' EXIT; trap 'exit 1' HUP INT TERM; \
	for ko in $(KOS); do \
		name=$$(basename $$ko); dest=$(STAGING)/$$name; \
		if ! cmp -s $$ko $$dest; then \
			echo "  INSTALL /lib/modules/$$name"; \
			tmp=$(STAGING)/.$$name.tmp.$$$$; \
			cp $$ko $$tmp && mv -fT $$tmp $$dest && touch $(STAMP) || exit 1; \
		fi; \
	done

FORCE:
