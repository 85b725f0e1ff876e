# gqlc — build, test, demo and benchmarks. Every install step lives here so that a fresh machine
# (and CI) needs nothing but the Swift toolchain and python3.

SWIFT        ?= swift
PYTHON       ?= python3
VENV         := .venv
PY           := $(VENV)/bin/python
DEBUG_BIN    := .build/debug/gqlc
# Proxies would route loopback traffic away from the local test servers.
unexport http_proxy https_proxy all_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY

.PHONY: all build release test test-swift test-python demo serve bench fuzz clean

all: build

build:
	$(SWIFT) build --product gqlc

$(VENV)/.installed: Tests/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/requirements.txt
	touch $@

venv: $(VENV)/.installed

# Every test: Swift unit tests, the local server's own tests, and end-to-end runs of the binary.
test: venv
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	GQLC_BIN=$(CURDIR)/$(DEBUG_BIN) $(PY) -m pytest -q Tests

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

# The local AppSync-compatible server on the blog example, seeded; Ctrl-C stops it.
SERVE_PORT ?= 20002
serve: venv
	$(PY) Tests/AppSyncLocal/appsync-local --schema schema-examples/blog.json \
		--seed schema-examples/blog-seed.json --port $(SERVE_PORT)

clean:
	rm -rf .build $(VENV)
