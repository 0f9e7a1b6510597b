# tpsim -- GNU make build.  Everything goes to $(BUILD) (default build/).
#
#   make            build/bin/tpsim, build/lib/libcuda.so.1
#   make test       every test; ends with "N passed, M failed"
#   make test-slurm tpsim sweep --slurm on a single-node Slurm cluster it starts (root)
#   make demo       runs a built-in example end to end
#   make bench      speed table (functional-mode throughput)
#   make fuzz       libFuzzer targets (clang); make fuzz-run FUZZ_SECONDS=N
#   make SAN=1 BUILD=build-san test     tests under ASan+UBSan
#   make DEBUG=1    assertions on (TP_DEBUG), -O0

BUILD   ?= build
CC      ?= cc
ifeq ($(CC),cc)
CC      := gcc
endif
OPT     ?= -O2
WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -g -fPIC -fvisibility=hidden $(WARN)
ifdef DEBUG
OPT     := -O0
CFLAGS_BASE += -DTP_DEBUG
endif
ifdef SAN
CFLAGS_BASE += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DTP_DEBUG
LDSAN   := -fsanitize=address,undefined
# The CUDA programs `tpsim run` starts are not built with ASan, but a
# sanitized libcuda.so.1 needs its runtime: cli/run.c preloads this one.
SAN_RT  := $(shell $(CC) -print-file-name=$(if $(findstring clang,$(CC)),libclang_rt.asan-x86_64.so,libasan.so))
endif
CFLAGS  ?=
ALL_CFLAGS := $(CFLAGS_BASE) $(OPT) $(CFLAGS)
LDLIBS  := -lm -lpthread -ldl

CORE_DIRS := base ptx exec regmutex gpu mem vector
CORE_SRC  := $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c))
API_SRC   := $(wildcard api/*.c)
CLI_SRC   := $(wildcard cli/*.c)
GEN_SRC   := $(BUILD)/gen/configs.c

CORE_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRC)) $(BUILD)/obj/gen/configs.o
API_OBJ   := $(patsubst %.c,$(BUILD)/obj/%.o,$(API_SRC))
CLI_OBJ   := $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRC))

TPSIM     := $(BUILD)/bin/tpsim
LIBCORE   := $(BUILD)/lib/libtpsim.a
LIBCUDA   := $(BUILD)/lib/libcuda.so.1

UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

.PHONY: all test test-slurm demo bench fuzz fuzz-run clean unit ptx-regen
all: $(TPSIM) $(LIBCUDA)

# Quiet by default; `make V=1` shows the commands.
ifndef V
Q := @
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/gen/configs.c: $(wildcard configs/*.cfg) tools/embed_configs.sh
	@mkdir -p $(dir $@)
	$(Q)sh tools/embed_configs.sh configs > $@

$(BUILD)/obj/gen/configs.o: $(BUILD)/gen/configs.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Ibase -c $< -o $@

$(LIBCORE): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)ar rcs $@ $^

$(BUILD)/obj/cli/run.o: ALL_CFLAGS += $(if $(SAN_RT),-DTP_SAN_PRELOAD='"$(SAN_RT)"')
# A sanitizer's shadow memory would count against tpsim sweep's memory limit
# per point (RLIMIT_DATA): sanitizer builds do not set it.
$(BUILD)/obj/cli/sweep_run.o: ALL_CFLAGS += $(if $(SAN),-DTP_SAN_BUILD)

$(TPSIM): $(CLI_OBJ) $(LIBCORE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(LIBCORE) $(LDSAN) $(LDLIBS)

# libcuda.so.1: the driver API.  It carries the whole core inside it, so it
# needs no other library of the build at run time; libzstd and liblz4 decode
# the compressed PTX of nvcc's fatbinaries (api/fatbin.c).
$(LIBCUDA): $(API_OBJ) $(LIBCORE) api/libcuda.map
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=api/libcuda.map \
	    -o $@ $(API_OBJ) $(LIBCORE) $(LDSAN) $(LDLIBS) -lzstd -llz4
	@ln -sf libcuda.so.1 $(BUILD)/lib/libcuda.so

# libcudart.so.13: the CUDA runtime API, a client of libcuda.so.1 (found next
# to it through the $$ORIGIN run path), exporting every symbol under the
# version node nvcc-built programs import (cudart/libcudart.map).  Of the
# core it takes only base/'s helpers.
RT_SRC    := $(wildcard cudart/*.c)
RT_OBJ    := $(patsubst %.c,$(BUILD)/obj/%.o,$(RT_SRC))
LIBCUDART := $(BUILD)/lib/libcudart.so.13
$(LIBCUDART): $(RT_OBJ) $(LIBCORE) $(LIBCUDA) cudart/libcudart.map
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=cudart/libcudart.map \
	    -o $@ $(RT_OBJ) $(LIBCORE) -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN' $(LDSAN) $(LDLIBS)
	@ln -sf libcudart.so.13 $(BUILD)/lib/libcudart.so
all: $(LIBCUDART)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIBCORE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -o $@ $< $(LIBCORE) $(LDSAN) $(LDLIBS)

# The kernel suite's host runner is a plain driver-API program: it is built
# against CUDA's own cuda.h when the toolkit is installed (proving that
# programs compiled against it run on tpsim), else against api/include/cuda.h.
CUDA_INC  ?= $(firstword $(wildcard /usr/local/cuda/include) api/include)

# tests/harness: what the whole-kernel driver-API programs share (th_: the
# context, modules from a PTX directory, checked calls, buffers, launches,
# comparisons, arguments): the kernel runner, polybench, ubench, rmbench and
# wpbench link it.  It is compiled against the same cuda.h as they are.
TH_OBJ    := $(BUILD)/obj/tests/harness/harness.o
TH_DEP    := $(TH_OBJ) tests/harness/harness.h $(LIBCUDA)
$(TH_OBJ): tests/harness/harness.c tests/harness/harness.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -c $< -o $@
# Links $@ (two directories below $(BUILD)) from its .c files and the harness.
TH_LINK    = $(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -Itests/harness -o $@ $(filter %.c,$^) $(TH_OBJ) \
	    -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../../lib' $(LDSAN) -lm

KRUN_SRC  := $(wildcard tests/kernels/*.c)
KRUN_BIN  := $(if $(KRUN_SRC),$(BUILD)/tests/kernels/runner)
$(BUILD)/tests/kernels/runner: $(KRUN_SRC) $(wildcard tests/kernels/*.h) $(TH_DEP)
	@mkdir -p $(dir $@)
	$(TH_LINK) -Itests/kernels

unit: $(UNIT_BIN) $(KRUN_BIN)

# The tensor-core tests' host program (tests/tensor: nvcc-built kernels with
# committed PTX, checked against the CPU), built like the kernel runner.
TRUN_SRC  := $(wildcard tests/tensor/*.c)
TRUN_BIN  := $(if $(TRUN_SRC),$(BUILD)/tests/tensor/runner)
$(BUILD)/tests/tensor/runner: $(TRUN_SRC) $(LIBCUDA)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -o $@ $(TRUN_SRC) -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../../lib' $(LDSAN) -lm
unit: $(TRUN_BIN)

# The validation workloads' host programs (tests/polybench: PolyBench-style
# kernels checked against the CPU; tests/ubench: microbenchmarks that time
# themselves; tests/hardware: the textbook kernels timed on a real RTX 2060,
# tools/validate.sh --hardware), plain driver-API programs built like the
# kernel runner.
VALID_BIN := $(BUILD)/tests/polybench/polybench $(BUILD)/tests/ubench/ubench $(BUILD)/tests/hardware/hwbench \
	     $(BUILD)/tests/sample/sampwork
$(VALID_BIN): $(BUILD)/tests/%: tests/%.c $(TH_DEP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(TH_LINK)
unit: $(VALID_BIN)

# The RegMutex experiments' host program (experiments/regmutex/rmbench.c):
# 18 benchmarks' inputs, launches and CPU checks; built like the validation
# runners, run by experiments/regmutex/run.sh and tests/regmutex/.
RMBENCH := $(BUILD)/experiments/regmutex/rmbench
$(RMBENCH): experiments/regmutex/rmbench.c experiments/common/hotspot_ref.h $(TH_DEP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(TH_LINK)
unit: $(RMBENCH)

# tpsim-launch: a generic driver-API runner (tools/launch.c) -- one PTX
# kernel with its arguments from the command line, e.g. a sweep's point.
LAUNCH := $(BUILD)/bin/tpsim-launch
$(LAUNCH): tools/launch.c $(LIBCUDA)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -o $@ $< -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../lib' $(LDSAN)
all: $(LAUNCH)

# tests/check/t_checks: the correctness checks through the driver API (run
# by tests/check/run_check.sh), built like the programs above.
CHECK_BIN := $(BUILD)/tests/check/t_checks
$(CHECK_BIN): tests/check/t_checks.c tests/api/api_test.h tests/unit/tt.h $(LIBCUDA)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -o $@ $< -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../../lib' $(LDSAN) -lm
unit: $(CHECK_BIN)

# The WarpPool experiments' host program (experiments/warppool/wpbench.c: one
# kernel per benchmark the paper's figures name, checked against the CPU),
# built like the validation workloads.
WPB_BIN := $(BUILD)/experiments/warppool/wpbench
$(WPB_BIN): experiments/warppool/wpbench.c $(TH_DEP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(TH_LINK)
unit: $(WPB_BIN)

# tests/api: driver-API test programs, built like the kernel runner (against
# CUDA's own cuda.h when installed) and run by tests/api/run_api.sh; t_mem
# and t_launch are built a second time as per-thread default stream programs
# (ptds/).  When NVIDIA's cuda.h is installed, abi_check compares
# api/include/cuda.h with it, in both stream modes: abi_list.sh lists our
# header's constants, types, members, name mappings and prototypes,
# abi_dump (built against ours) prints their values, and abi_check (built
# against NVIDIA's) static_asserts that they agree.
API_TEST_SRC := $(wildcard tests/api/t_*.c)
API_TEST_DIR := $(BUILD)/tests/api
API_TEST_BIN := $(patsubst tests/api/%.c,$(API_TEST_DIR)/%,$(API_TEST_SRC))
API_PTDS_BIN := $(API_TEST_DIR)/ptds/t_mem $(API_TEST_DIR)/ptds/t_launch
API_TEST_DEP := tests/api/api_test.h tests/unit/tt.h $(LIBCUDA)
API_PTDS     := -DCUDA_API_PER_THREAD_DEFAULT_STREAM
$(API_TEST_BIN): $(API_TEST_DIR)/%: tests/api/%.c $(API_TEST_DEP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(CUDA_INC) -o $@ $< -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../../lib' \
	    $(LDSAN) -lm -lpthread -ldl
# libtpcaller.so: a shared library that calls the driver as NVIDIA's closed
# libraries do (tests/api/caller_lib.c); t_fail loads it from its directory.
$(API_TEST_DIR)/libtpcaller.so: tests/api/caller_lib.c $(LIBCUDA)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -shared -I$(CUDA_INC) -o $@ $< -L$(BUILD)/lib -lcuda -Wl,-rpath,'$$ORIGIN/../../lib' \
	    $(LDSAN) -ldl
$(API_TEST_DIR)/t_fail: $(API_TEST_DIR)/libtpcaller.so
$(API_PTDS_BIN): $(API_TEST_DIR)/ptds/%: tests/api/%.c $(API_TEST_DEP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(API_PTDS) -I$(CUDA_INC) -o $@ $< -L$(BUILD)/lib -lcuda \
	    -Wl,-rpath,'$$ORIGIN/../../../lib' $(LDSAN) -lm -lpthread
NV_CUDA_H := $(wildcard /usr/local/cuda/include/cuda.h)
API_ABI   := $(if $(NV_CUDA_H),$(API_TEST_DIR)/abi_check $(API_TEST_DIR)/ptds/abi_check)
$(API_TEST_DIR)/abi_list.h: api/include/cuda.h tests/api/abi_list.sh
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sh tests/api/abi_list.sh api/include/cuda.h $(API_TEST_DIR)
$(API_TEST_DIR)/abi_dump: tests/api/abi_dump.c $(API_TEST_DIR)/abi_list.h
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Iapi/include -I$(API_TEST_DIR) -o $@ $< $(LDSAN)
$(API_TEST_DIR)/ptds/abi_dump: tests/api/abi_dump.c $(API_TEST_DIR)/abi_list.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(API_PTDS) -Iapi/include -I$(API_TEST_DIR) -o $@ $< $(LDSAN)
$(API_TEST_DIR)/abi_ours.h $(API_TEST_DIR)/ptds/abi_ours.h: %/abi_ours.h: %/abi_dump
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$< > $@.tmp && mv $@.tmp $@
$(API_TEST_DIR)/abi_check: tests/api/abi_check.c $(API_TEST_DIR)/abi_ours.h $(NV_CUDA_H)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(dir $(NV_CUDA_H)) -I$(API_TEST_DIR) -o $@ $< $(LDSAN)
$(API_TEST_DIR)/ptds/abi_check: tests/api/abi_check.c $(API_TEST_DIR)/ptds/abi_ours.h $(NV_CUDA_H)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(API_PTDS) -I$(dir $(NV_CUDA_H)) -I$(API_TEST_DIR)/ptds -I$(API_TEST_DIR) -o $@ $< $(LDSAN)

unit: $(API_TEST_BIN) $(API_PTDS_BIN) $(API_ABI)

# tests/cudart: the runtime without nvcc (t_rt: a C program that registers
# its own fatbinaries, built against tpsim's cuda_runtime_api.h), the
# fatbinary reader on committed nvcc outputs (t_fatbin) and the ABI of
# tpsim's runtime header (rt_abi, built against ours and, when installed,
# NVIDIA's); run by tests/cudart/run_cudart.sh.
RT_TEST_DIR := $(BUILD)/tests/cudart
NV_RT_H     := $(wildcard /usr/local/cuda/include/cuda_runtime_api.h)
RT_TEST_BIN := $(RT_TEST_DIR)/t_rt $(RT_TEST_DIR)/t_fatbin $(RT_TEST_DIR)/rt_abi_ours \
               $(if $(NV_RT_H),$(RT_TEST_DIR)/rt_abi_nv)
$(RT_TEST_DIR)/t_rt: tests/cudart/t_rt.c tests/unit/tt.h cudart/include/cuda_runtime_api.h cudart/rt_errors.def \
                     $(LIBCUDART)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Icudart/include -o $@ $< -L$(BUILD)/lib -lcudart -Wl,-rpath,'$$ORIGIN/../../lib' \
	    $(LDSAN) -lzstd -llz4 -ldl
$(RT_TEST_DIR)/t_fatbin: tests/cudart/t_fatbin.c api/fatbin.c api/fatbin.h tests/unit/tt.h $(LIBCORE)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< api/fatbin.c $(LIBCORE) $(LDSAN) $(LDLIBS) -lzstd -llz4
$(RT_TEST_DIR)/rt_abi.h: cudart/include/cuda_runtime_api.h tests/cudart/rt_abi_list.sh
	@mkdir -p $(dir $@)
	$(Q)sh tests/cudart/rt_abi_list.sh $< $@
$(RT_TEST_DIR)/rt_abi_ours: tests/cudart/rt_abi.c $(RT_TEST_DIR)/rt_abi.h cudart/rt_errors.def
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Icudart/include -I$(RT_TEST_DIR) -o $@ $< $(LDSAN)
$(RT_TEST_DIR)/rt_abi_nv: tests/cudart/rt_abi.c $(RT_TEST_DIR)/rt_abi.h cudart/rt_errors.def $(NV_RT_H)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(dir $(NV_RT_H)) -I$(RT_TEST_DIR) -o $@ $< $(LDSAN)
unit: $(RT_TEST_BIN)

# tools/doccheck: runs the command blocks of the docs marked runnable and
# checks the numbers quoted beside them (tests/docs/run_docs.sh).
DOCCHECK := $(BUILD)/tests/doccheck
$(DOCCHECK): tools/doccheck.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LDSAN) -lm
unit: $(DOCCHECK)

test: all unit
	@BUILD=$(BUILD) sh tests/run.sh

demo: all
	@sh tests/demo.sh $(BUILD)

$(BUILD)/bench/bench: tests/bench/bench.c $(LIBCORE)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I. -o $@ $< $(LIBCORE) $(LDSAN) $(LDLIBS)

# SAMPLE_CHECK_ARGS=--quick: the sampled-vs-full table's short form (about 40 s; .ci/run uses it)
bench: all $(BUILD)/bench/bench $(BUILD)/tests/sample/sampwork
	@$(BUILD)/bench/bench tests/bench/bench.ptx
	@echo; echo "sampled vs full (tools/sample_check.sh: sampled timing, docs/TIMING.md; GTX 480 model, CPU seconds)"
	@BUILD=$(BUILD) sh tools/sample_check.sh $(SAMPLE_CHECK_ARGS)

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 60
# The core is compiled once with coverage instrumentation (fuzzer-no-link)
# into an archive every target links, so `make -j fuzz` builds in parallel.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined -I.
FUZZ_OBJ := $(patsubst %.c,$(BUILD)/fuzzobj/%.o,$(CORE_SRC) $(GEN_SRC))
$(BUILD)/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(BUILD)/fuzz/libfuzzcore.a: $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(Q)ar rcs $@ $^
$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libfuzzcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/fuzz/libfuzzcore.a -lm -lpthread -lzstd -llz4
# The sweep-file parser lives in cli/ (it is the tpsim sweep command's): its
# target links that one file too.
$(BUILD)/fuzz/fuzz_sweep: tests/fuzz/fuzz_sweep.c cli/sweep_file.c cli/sweep.h $(BUILD)/fuzz/libfuzzcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< cli/sweep_file.c $(BUILD)/fuzz/libfuzzcore.a -lm -lpthread
# tpsim report's page (cli/report_page.c, cli/report_kernel.c) from any JSON.
$(BUILD)/fuzz/fuzz_report: tests/fuzz/fuzz_report.c cli/report_page.c cli/report_kernel.c cli/report.h \
                           $(BUILD)/fuzz/libfuzzcore.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< cli/report_page.c cli/report_kernel.c \
	    $(BUILD)/fuzz/libfuzzcore.a -lm -lpthread
fuzz: $(FUZZ_BIN)
fuzz-run: fuzz
	@sh tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS)

# tests/sweep/slurm_test.sh: a real single-node Slurm cluster (Debian's
# slurmctld, slurmd and munge, started and stopped by the test, as root) runs
# a sweep; its CSV must equal the local one.  Not part of `make test` (it
# installs and starts daemons); .ci/run calls it.
test-slurm: all unit
	@BUILD=$(BUILD) sh tests/sweep/slurm_test.sh

ptx-regen:
	sh tests/kernels/regen.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/fuzzobj -name '*.d' 2>/dev/null)
