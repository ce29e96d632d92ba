# The fuzzer: every parser of outside input, fed by libFuzzer (clang's
# coverage-guided fuzzer) on the build machine. See docs/tests.md,
# "The fuzzer".
#
#   make fuzz-test   each target: replay its corpus, then a fixed, seeded
#                    run of FUZZ_RUNS_<target> inputs (part of make test)
#   make fuzz        long random campaigns: FUZZ_TIME seconds per target,
#                    all targets one after another or FUZZ_TARGETS=...
#
# Included by the top Makefile. Every name defined here starts with FUZZ_
# (or fuzz-), so that it cannot collide with the kernel's or the host
# tests' names.

FUZZ_CC     ?= clang
FUZZ_PYTHON ?= python3
FUZZ_BUILD  ?= build/fuzz
# -fsanitize=fuzzer gives every object libFuzzer's coverage counters and
# comparison tracing, and links libFuzzer's main(); the sanitizers turn a
# read past a buffer or an overflow into a crash the fuzzer can see.
# Two UBSan checks are left out because they compare pointers, whose
# values change from run to run (ASLR): traced, they would steer the
# mutations, and the same -seed would no longer give the same run. A
# null or wrapped pointer that is used still faults under ASan.
FUZZ_SAN    ?= -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	       -fno-sanitize=null,pointer-overflow
# -Wno-unknown-attributes: lib/string.c keeps GCC from turning its copy
# loops into calls to memcpy() itself (the optimize attribute), which clang
# does not know. Here such a call would reach the host's memcpy(), since
# ProbeOS's is renamed, so the guard is not needed.
FUZZ_CFLAGS ?= -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unknown-attributes \
	       -fno-builtin -fno-omit-frame-pointer $(FUZZ_SAN) \
	       -I. -Iarch/x86_64/include -MMD -MP
# libFuzzer's runtime comes from libclang-rt-14-dev, not from clang itself
# (make deps installs both). clang prints the bare name when it has no
# such file.
FUZZ_RUNTIME = $(shell $(FUZZ_CC) -print-file-name=libclang_rt.fuzzer-$(shell uname -m).a)

# make fuzz: seconds per target.
FUZZ_TIME ?= 1200
# make fuzz-test: a cap on each target's seconds, should a slow machine
# not finish its runs in time. On this project's machines the runs end
# well before it, so every run is the same; a run the cap stops is
# reported, and still passes if nothing crashed (docs/tests.md).
FUZZ_TEST_CAP ?= 30

# ---- Targets ----
#
# $(call FUZZ_TARGET,NAME,RUNS,SOURCES,FLAGS,SEEDS[,HARNESS]) declares the
# target NAME, whose harness is tests/fuzz/fuzz_NAME.c (or HARNESS, when
# several targets share one) and whose committed corpus is
# tests/fuzz/corpus/NAME/:
#   RUNS     inputs make fuzz-test runs in all, the corpus first; chosen
#            so that the target takes 10-20 s
#   SOURCES  the ProbeOS sources it links, compiled for this target alone
#   FLAGS    extra compiler flags for all of them (-D..., -I...); they
#            come first, so that an -I here wins over FUZZ_CFLAGS' own
#   SEEDS    extra seed files, as shell patterns (** allowed), e.g. build
#            output; a pattern that matches nothing is skipped
# Each target has its own objects (under $(FUZZ_BUILD)/NAME/), so that two
# targets may link sources that define the same names, or compile a
# source with different flags.
define FUZZ_TARGET
FUZZ_ALL += $(1)
FUZZ_RUNS_$(1) := $(2)
FUZZ_SEEDS_$(1) := $(5)
FUZZ_OBJS_$(1) := $(patsubst %.c,$(FUZZ_BUILD)/$(1)/%.o,$(3))

# The objects depend on the flags they were compiled with: a change of
# flags rebuilds them.
$(FUZZ_BUILD)/$(1)/cflags: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$$(FUZZ_CC) $$(FUZZ_CFLAGS) $(4)' | cmp -s - $$@ || \
		echo '$$(FUZZ_CC) $$(FUZZ_CFLAGS) $(4)' > $$@

# The ProbeOS sources get rename.h forced in (tests/host/rename.h); the
# harness, and host test code it links (tests/...), include it
# themselves, after their system headers.
$$(FUZZ_OBJS_$(1)): $(FUZZ_BUILD)/$(1)/%.o: %.c tests/host/rename.h \
		$(FUZZ_BUILD)/$(1)/cflags | fuzz-runtime
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$< (fuzz $(1))"
	$$(Q)$$(FUZZ_CC) $(4) $$(FUZZ_CFLAGS) \
		$$(if $$(filter tests/%,$$<),,-include tests/host/rename.h) -c $$< -o $$@

$(FUZZ_BUILD)/$(1)/fuzz_$(1).o: $(or $(6),tests/fuzz/fuzz_$(1).c) $(FUZZ_BUILD)/$(1)/cflags \
		| fuzz-runtime
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$<"
	$$(Q)$$(FUZZ_CC) $(4) $$(FUZZ_CFLAGS) -c $$< -o $$@

$(FUZZ_BUILD)/fuzz_$(1): $(FUZZ_BUILD)/$(1)/fuzz_$(1).o $$(FUZZ_OBJS_$(1))
	@echo "  LD      $$@"
	$$(Q)$$(FUZZ_CC) $$(FUZZ_SAN) $$^ -o $$@

-include $$(FUZZ_OBJS_$(1):.o=.d) $(FUZZ_BUILD)/$(1)/fuzz_$(1).d
endef

# The shell's line editor and its parsing of a line into words and a redirection.
$(eval $(call FUZZ_TARGET,shell,200000,kernel/shell/line_editor.c kernel/shell/cmdline.c lib/string.c,,))

# The VFS's path walk (".", "..", relative paths, mounts, names of
# places) on ramfs trees, against a lexical model (tests/fuzz/fuzz_paths.c).
# tests/fuzz/host_cpu/ stands in for the CPU's registers: one CPU, whose
# interrupts cannot be turned off (asm/percpu.h, asm/irq.h there).
FUZZ_PATHS_SRCS := kernel/fs/vfs.c kernel/fs/mount.c kernel/fs/cwd.c kernel/fs/d_path.c \
	kernel/fs/dentry.c kernel/fs/ramfs.c lib/string.c lib/cpio.c tests/host/host_kernel.c
$(eval $(call FUZZ_TARGET,paths,100000,$(FUZZ_PATHS_SRCS),-Itests/fuzz/host_cpu,))

# grep's regular expressions, against the host C library's where they agree.
$(eval $(call FUZZ_TARGET,regex,600000,lib/regex.c lib/ctype.c lib/string.c,,))

# The function tracer's globs, against the host C library's fnmatch.
$(eval $(call FUZZ_TARGET,glob,1500000,lib/glob.c lib/ctype.c lib/string.c,,))

# The words of set_ftrace_filter and set_ftrace_notrace, and their globs.
$(eval $(call FUZZ_TARGET,ftrace_filter,1600000,kernel/trace/ftrace_filter_word.c lib/glob.c \
	lib/ctype.c lib/string.c,,))

# The ids written to set_ftrace_pid, cut into words however the writes
# split them.
$(eval $(call FUZZ_TARGET,ftrace_pid,400000,kernel/trace/tracefs_words.c kernel/trace/pid_list.c \
	kernel/trace/sorted_set.c lib/string.c lib/ctype.c,,))

# The shell's text tools: their options, numbers and patterns, and what
# they do with any text piped in.
$(eval $(call FUZZ_TARGET,text_cmds,600000,tests/host/text_cmds_host.c \
	kernel/shell/getopt.c kernel/shell/input.c kernel/shell/cmdline.c \
	lib/regex.c lib/ctype.c lib/string.c lib/format.c lib/errno.c,,))

# The module loader's load steps (tests/fuzz/fuzz_module.c), once per
# architecture, with the sources and flags of the host tests' loader
# (tests/host/host.mk), seeded with the .ko files the build makes and the
# broken ones of tools/mkbadmodules.py (`make test` makes both first).
FUZZ_MODULE_SRCS = $(HOST_LOADER_SRCS) kernel/module/elf_check.c kernel/module/modinfo.c \
	lib/string.c lib/format.c lib/sort.c \
	lib/errno.c arch/$(1)/module_reloc.c build/host/obj-$(1)/exports.c
FUZZ_MODULE_FLAGS = -Iarch/$(1)/include -Ibuild/$(1)/include $(HOST_LOADER_DEFS)
$(foreach a,$(HOST_LOADER_ARCHS),$(eval $(call FUZZ_TARGET,module_$(a),200000,\
	$(call FUZZ_MODULE_SRCS,$(a)),$(call FUZZ_MODULE_FLAGS,$(a)),\
	build/$(a)/M/**/*.ko build/$(a)/modules/lib/modules/bad/*.ko,tests/fuzz/fuzz_module.c)))
$(foreach a,$(HOST_LOADER_ARCHS),$(eval \
	$(FUZZ_OBJS_module_$(a)): build/$(a)/include/generated/vermagic.h))

# What modinfo reads of a module file (tests/fuzz/fuzz_modinfo.c), with
# the ELF check in front, seeded like the loader's targets.
$(eval $(call FUZZ_TARGET,modinfo,300000,kernel/module/modinfo.c kernel/module/elf_check.c \
	lib/string.c lib/format.c lib/errno.c,,build/*/M/**/*.ko build/*/modules/lib/modules/bad/*.ko))

# What modprobe reads of modules.dep (tests/fuzz/fuzz_modules_dep.c),
# seeded with the files the build writes.
$(eval $(call FUZZ_TARGET,modules_dep,200000,kernel/module/modules_dep.c lib/string.c,,\
	build/*/modules/lib/modules/modules.dep))

# The 9P2000.L client's checks of a server's replies
# (tests/fuzz/fuzz_ninep.c): each call, fed the input as its reply.
$(eval $(call FUZZ_TARGET,ninep,600000,lib/ninep.c lib/ninep_wire.c lib/string.c lib/errno.c,,))

# What a virtio device hands the driver (tests/fuzz/fuzz_virtqueue.c):
# its configuration (the 9p mount tag, read by kernel/virtio/virtio_9p.c,
# which the harness includes whole) and its answers in the used ring
# (kernel/virtio/virtqueue.c), from the fake device of
# tests/host/virtq_fake.c, which also stands in for the kernel services
# the queue calls. host_cpu/ as for the paths target.
FUZZ_VIRTQ_SRCS := kernel/virtio/virtqueue.c kernel/virtio/virtio.c tests/host/virtq_fake.c \
	tests/host/host_kernel.c lib/string.c lib/format.c lib/errno.c
$(eval $(call FUZZ_TARGET,virtqueue,100000,$(FUZZ_VIRTQ_SRCS),-Itests/fuzz/host_cpu,))

# A line written to kprobe_events (tests/fuzz/fuzz_probe_event.c): the
# line's parser, the argument compiler under it, and the programs it
# makes, run once; read for both architectures' registers, aarch64's
# from its own object, built with its headers as the host tests build it.
FUZZ_PROBE_EVENT_SRCS := kernel/trace/kprobe_event_parse.c kernel/trace/trace_probe.c \
	kernel/trace/probe_log.c kernel/trace/probe_types.c kernel/trace/probe_fetch.c \
	arch/x86_64/probe_regs.c tests/host/probe_event_host.c \
	lib/string.c lib/format.c lib/errno.c lib/ctype.c
$(eval $(call FUZZ_TARGET,probe_event,900000,$(FUZZ_PROBE_EVENT_SRCS),,))
FUZZ_AARCH64_REGS := $(FUZZ_BUILD)/probe_event/aarch64_probe_regs.o
$(FUZZ_AARCH64_REGS): arch/aarch64/probe_regs.c kernel/trace/probe_regs.h | fuzz-runtime
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(filter-out -Iarch/x86_64/include,$(FUZZ_CFLAGS)) -Iarch/aarch64/include \
		-Darch_probe_regs=aarch64_probe_regs -Darch_probe_arg_regs=aarch64_probe_arg_regs -include tests/host/rename.h -c $< -o $@
$(FUZZ_BUILD)/fuzz_probe_event: $(FUZZ_AARCH64_REGS)

# The text written to an event's filter file (tests/fuzz/fuzz_event_filter.c):
# the filter's parser, and its program run over a record of the input's
# bytes. host_cpu/ as for the paths target.
FUZZ_EVENT_FILTER_SRCS := kernel/trace/event_filter.c tests/host/filter_fields_host.c \
	tests/host/host_kernel.c lib/glob.c lib/ctype.c lib/string.c
$(eval $(call FUZZ_TARGET,event_filter,600000,$(FUZZ_EVENT_FILTER_SRCS),-Itests/fuzz/host_cpu,))

# The text written to an event's trigger file (tests/fuzz/fuzz_event_trigger.c):
# the trigger's parser, and the filter after its "if".
$(eval $(call FUZZ_TARGET,event_trigger,1000000,kernel/trace/event_trigger.c $(FUZZ_EVENT_FILTER_SRCS),-Itests/fuzz/host_cpu,))

# A hist trigger's attributes (tests/fuzz/fuzz_event_hist.c): the parser,
# the key packing and the per-CPU tables.
$(eval $(call FUZZ_TARGET,event_hist,2000000,kernel/trace/hist_parse.c kernel/trace/hist_map.c lib/sort.c lib/format.c $(FUZZ_EVENT_FILTER_SRCS),-Itests/fuzz/host_cpu,))

# ---- Running ----

FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_RUN := $(FUZZ_PYTHON) tests/fuzz/run_fuzz.py --build $(FUZZ_BUILD)
# --target NAME:RUNS, then --seeds NAME=PATTERN for each extra seed pattern.
fuzz-args = $(foreach t,$(1),--target $(t):$(FUZZ_RUNS_$(t)) \
	$(foreach p,$(FUZZ_SEEDS_$(t)),--seeds '$(t)=$(p)'))

.PHONY: fuzz fuzz-test fuzz-bins fuzz-runtime
fuzz-bins: $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_ALL))

fuzz-test: fuzz-bins
	$(Q)$(FUZZ_RUN) test --cap $(FUZZ_TEST_CAP) $(call fuzz-args,$(FUZZ_ALL))

fuzz: $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_TARGETS))
	$(Q)$(FUZZ_RUN) campaign --time $(FUZZ_TIME) $(call fuzz-args,$(FUZZ_TARGETS))

# Say what is missing before clang fails with a bare "cannot find" error.
fuzz-runtime:
	@[ -e "$(FUZZ_RUNTIME)" ] || { echo "$(FUZZ_CC) or libFuzzer's runtime" \
		"(libclang-rt-14-dev) is missing: run make deps" >&2; exit 1; }
