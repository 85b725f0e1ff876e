# gqlc — build, test, demo and benchmarks. Every install step lives here so that a fresh machine
# (and CI) needs nothing but the Swift toolchain and python3.

SWIFT        ?= swift
PYTHON       ?= python3
VENV         := .venv
PY           := $(VENV)/bin/python
DEBUG_BIN    := .build/debug/gqlc
RELEASE_BIN  := .build/release/gqlc
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# A position-dependent executable skips about 77,000 start-up relocations of the static stdlib (~1 ms a run).
# libcurl is loaded with dlopen at run time, so no link needs curl or its -dev package.
STATIC_FLAGS := --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie
# The release binary drops its DWARF debug info (about 3.6 MB) but keeps its symbols, so crash backtraces
# still name functions. Nothing imports Foundation, so the static binary is the Swift runtime and gqlc.
# Each function in its own section, and the sections nothing reaches dropped at link time: 0.4 MB less code,
# and 0.4 MiB less peak RSS for a bulk dry run (fewer code pages touched). The whole pytest suite passes on it.
# (A frontend flag: given to the driver, SwiftPM 6.2 fails on it once a build directory holds a plan.)
RELEASE_FLAGS := $(STATIC_FLAGS) -Xlinker --strip-debug -Xswiftc -Xfrontend -Xswiftc -function-sections -Xlinker --gc-sections
# It also drops the names of its ~20,000 local data objects (type metadata, descriptors, witness tables:
# about 1.3 MB of .symtab/.strtab that nothing reads at run time); function names stay, for backtraces.
STRIP_DATA_SYMBOLS = readelf -sW $(1) | awk '$$4 == "OBJECT" && $$5 == "LOCAL" && $$8 != "" { print $$8 }' \
	| sort -u > $(1).data-symbols && objcopy --strip-symbols=$(1).data-symbols $(1); rm -f $(1).data-symbols
# The optional shared fixtures (never copied into the project): the real Amplify files and JSONTestSuite, found
# beside the checkout, one level higher (a worktree), or beside the checkout this one was cloned from.
# $GQLC_SHARED_FIXTURES (the amplify folder) and $GQLC_JSONTESTSUITE win. The project's own tests use
# Tests/Fixtures; the suites over these run in addition when they are there, and are skipped when not.
ORIGIN_DIR   := $(shell git config --get remote.origin.url 2>/dev/null)
SHARED_DIRS   = $(foreach base,$(CURDIR)/.. $(CURDIR)/../.. $(ORIGIN_DIR)/..,$(base)/shared/fixtures/$(1))
GQLC_SHARED_FIXTURES ?= $(firstword $(wildcard $(call SHARED_DIRS,amplify)))
GQLC_JSONTESTSUITE   ?= $(firstword $(wildcard $(call SHARED_DIRS,jsontestsuite)))
export GQLC_SHARED_FIXTURES GQLC_JSONTESTSUITE
SHARED_MISSING = $(strip $(if $(wildcard $(GQLC_SHARED_FIXTURES)),,shared/fixtures/amplify) \
	$(if $(wildcard $(GQLC_JSONTESTSUITE)),,shared/fixtures/jsontestsuite))
SHARED_NOTE    = make test: $(SHARED_MISSING) not found beside this checkout, one level higher or beside its origin \
	(or $$GQLC_SHARED_FIXTURES, $$GQLC_JSONTESTSUITE); the suites over them are skipped
# Proxies would route loopback traffic away from the local test servers.
unexport http_proxy https_proxy all_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY

.PHONY: all build release install uninstall test test-tools test-swift test-python demo serve bench fuzz clean no-foundation

all: build

build:
	$(SWIFT) build --product gqlc

$(VENV)/.installed: Tests/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/requirements.txt
	touch $@

venv: $(VENV)/.installed

# Every test: Swift unit tests, the local servers' own tests (DevServers/), and end-to-end runs of the binary.
# On a fresh machine the debug build, the venv and the shell tools the completion tests need are each a minute
# or more, so the venv and the tools install while Swift builds. Then the Swift tests run beside the Python
# suites; their output is printed whole when they end, and either failing fails make test.
# PYTEST_WORKERS pytest-xdist processes share the Python suites; a worker also waits on the servers and gqlc
# processes it starts (timeouts, keep-alives, retries), so one more worker than cores overlaps those waits (on 2
# cores, with swift test beside: 3 workers took 196 and 211 s, 4 took 211 and 222 s, 6 took 227 s).
PYTEST_WORKERS ?= 3
test: no-foundation
	$(if $(SHARED_MISSING),@echo '$(SHARED_NOTE)')
	@$(MAKE) --no-print-directory venv test-tools & prepare=$$!; \
	  $(SWIFT) build --build-tests; build=$$?; wait $$prepare; prepared=$$?; [ $$build = 0 ] && [ $$prepared = 0 ]
	@$(SWIFT) test --skip-build > .build/swift-test.log 2>&1 & swift=$$!; \
	  echo "swift test --skip-build (output in .build/swift-test.log, printed when it ends) beside pytest"; \
	  GQLC_BIN=$(CURDIR)/$(DEBUG_BIN) $(PY) -m pytest -q -n $(PYTEST_WORKERS) Tests DevServers; python=$$?; \
	  wait $$swift; swift_status=$$?; cat .build/swift-test.log; \
	  [ $$swift_status = 0 ] || echo "make test: swift test failed (status $$swift_status)" >&2; \
	  [ $$python = 0 ] || echo "make test: pytest failed (status $$python)" >&2; \
	  [ $$swift_status = 0 ] && [ $$python = 0 ]

# The shells and man tools the completion and man-page tests run, installed when missing (else those tests skip).
test-tools:
	@missing="$$(for tool in zsh fish man groff; do command -v $$tool >/dev/null || echo $$tool; done)"; \
	  [ -z "$$missing" ] || (timeout 180 $(SUDO) apt-get update -qq && timeout 300 $(SUDO) apt-get install -y -qq \
	    $$(echo "$$missing" | sed 's/^man$$/man-db/; s/^groff$$/groff-base/') >/dev/null) \
	  || echo "$$missing could not be installed; the completion and man page tests that need them are skipped"

# GQLCore and gqlc stay off Foundation (tests and benchmarks may use it): importing any of its modules would
# put it back in the process and some 60 MB back in the static binary.
no-foundation:
	@if grep -rnE '^[[:space:]]*(@[_a-zA-Z]+[[:space:]]+)*import[[:space:]]+([a-z]+[[:space:]]+)?Foundation' Sources; then \
	  echo "no-foundation: the lines above import Foundation into Sources; use Glibc and the types in Sources/GQLCore/System" >&2; \
	  exit 1; \
	fi

# Real gqlc commands against the local server on the blog example (output also in .build/demo-output.txt).
# Nothing is installed for it: without jq the demo skips its jq step and says so.
demo: venv build
	GQLC_BIN=$(DEBUG_BIN) PYTHON=$(PY) scripts/demo.sh

# A longer run of the generative tests: FUZZ_ITERATIONS cases per in-process test, FUZZ_CLI_ITERATIONS per
# parser for the built binary (make test runs 300 and 40). FUZZ_SEED picks another reproducible sequence.
FUZZ_ITERATIONS     ?= 5000
FUZZ_CLI_ITERATIONS ?= 1000
FUZZ_SEED           ?= 1
fuzz: venv
	$(SWIFT) build --build-tests
	GQLC_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) GQLC_FUZZ_SEED=$(FUZZ_SEED) $(SWIFT) test --skip-build --filter FuzzTests
	GQLC_FUZZ_ITERATIONS=$(FUZZ_CLI_ITERATIONS) GQLC_FUZZ_SEED=$(FUZZ_SEED) GQLC_BIN=$(CURDIR)/$(DEBUG_BIN) \
		$(PY) -m pytest -q Tests/Fuzz

# The local AppSync-compatible server on the blog example, seeded; Ctrl-C stops it. It first prints the lines to
# paste into another shell to try gqlc against it by hand.
SERVE_PORT ?= 20002
serve: venv
	@echo "# In another shell, paste these to run gqlc against this server (then try: gqlc models):"
	@echo "export PATH=\"$(CURDIR)/$(dir $(DEBUG_BIN)):\$$PATH\""
	@echo "export GQLC_SCHEMA=$(CURDIR)/schema-examples/blog.json"
	@echo "export GQLC_ENDPOINT=http://127.0.0.1:$(SERVE_PORT)/graphql"
	@[ -x $(DEBUG_BIN) ] || echo "# ($(DEBUG_BIN) is not built yet: run 'make build' or 'swift build' first)"
	$(PY) DevServers/AppSyncLocal/appsync-local --schema schema-examples/blog.json \
		--seed schema-examples/blog-seed.json --port $(SERVE_PORT)

clean:
	rm -rf .build $(VENV)

# gqlc in release mode with the Swift stdlib linked statically (faster startup, no Swift runtime
# needed on the target); falls back to a dynamic stdlib if the static link fails.
release:
	@if $(SWIFT) build -c release --product gqlc $(RELEASE_FLAGS); then \
	  echo "release: $(RELEASE_BIN) links the Swift stdlib statically"; \
	  if command -v objcopy >/dev/null && command -v readelf >/dev/null; then $(call STRIP_DATA_SYMBOLS,$(RELEASE_BIN)); \
	  else echo "release: no objcopy/readelf (binutils): data symbols kept"; fi; \
	else \
	  echo "release: the static stdlib build failed; building with the Swift stdlib linked dynamically" >&2; \
	  $(SWIFT) build -c release --product gqlc; \
	fi
	$(RELEASE_BIN) --version

# Installs gqlc, its man page (generated from the help text by `gqlc help --man`) and its bash, zsh and fish
# completion scripts under PREFIX, staged under DESTDIR for packaging. INSTALL_BIN installs another build
# (the tests install the debug binary); by default the release binary is built first.
PREFIX      ?= /usr/local
DESTDIR     ?=
INSTALL_BIN ?= $(RELEASE_BIN)
BINDIR      := $(DESTDIR)$(PREFIX)/bin
MAN1DIR     := $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
install: $(if $(filter $(RELEASE_BIN),$(INSTALL_BIN)),release)
	install -d $(BINDIR) $(MAN1DIR) $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
	install -m 0755 $(INSTALL_BIN) $(BINDIR)/gqlc
	$(INSTALL_BIN) help --man > $(MAN1DIR)/gqlc.1
	$(INSTALL_BIN) completion bash > $(BASHCOMPDIR)/gqlc
	$(INSTALL_BIN) completion zsh > $(ZSHCOMPDIR)/_gqlc
	$(INSTALL_BIN) completion fish > $(FISHCOMPDIR)/gqlc.fish
	chmod 0644 $(MAN1DIR)/gqlc.1 $(BASHCOMPDIR)/gqlc $(ZSHCOMPDIR)/_gqlc $(FISHCOMPDIR)/gqlc.fish

uninstall:
	rm -f $(BINDIR)/gqlc $(MAN1DIR)/gqlc.1 $(BASHCOMPDIR)/gqlc $(ZSHCOMPDIR)/_gqlc $(FISHCOMPDIR)/gqlc.fish

# Benchmarks against curl, curl + jq and Python on loopback; see Benchmarks/README.md. Prints a
# Markdown table and writes it to .build/bench/results.md. Takes about five minutes.
# BENCH_ARGS passes options through, e.g. BENCH_ARGS=--quick or BENCH_ARGS="--api-key KEY".
BENCH_ARGS ?=
bench: release venv
	@command -v curl >/dev/null && command -v jq >/dev/null || \
	  { $(SUDO) apt-get update && $(SUDO) apt-get install -y curl jq; }
	@$(SWIFT) build -c release --product GQLCBench $(STATIC_FLAGS) || $(SWIFT) build -c release --product GQLCBench
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(PY) Benchmarks/bench.py --gqlc $(CURDIR)/$(RELEASE_BIN) --gqlcbench $(CURDIR)/.build/release/GQLCBench $(BENCH_ARGS)
