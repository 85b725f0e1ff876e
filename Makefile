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

# Real gqlc commands against the local server on the blog example (output also in .build/demo-output.txt).
# jq is installed if missing and possible; without it the demo skips its jq step.
demo: venv build
	@command -v jq >/dev/null || (apt-get update -qq && apt-get install -y -qq jq >/dev/null) \
		|| echo "jq could not be installed; the demo skips its jq step"
	GQLC_BIN=$(DEBUG_BIN) PYTHON=$(PY) scripts/demo.sh

# The local AppSync-compatible server on the blog example, seeded; Ctrl-C stops it.
SERVE_PORT ?= 20002
serve: venv
	$(PY) Tests/AppSyncLocal/appsync-local --schema schema-examples/blog.json \
		--seed schema-examples/blog-seed.json --port $(SERVE_PORT)

clean:
	rm -rf .build $(VENV)
