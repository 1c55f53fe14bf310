# Two commands for people: `make serve` (the playground on http://127.0.0.1:8080) and
# `make test` (every check, browser tests included). Both install what is missing first and
# are safe to run again.
#
# Tool versions live here and nowhere else. wasm-bindgen-cli must equal the wasm-bindgen in
# Cargo.lock, so it is read from there.
TRUNK_VERSION    := 0.21.14
# mdBook, for the test that builds a course book embedding widgets (tests/mdbook).
MDBOOK_VERSION   := 0.4.52
BINARYEN_VERSION := 132
AXE_CORE_VERSION := 4.14.1
# An independent SCORM 1.2 run-time, the learning platform of the SCORM package's browser test.
SCORM_AGAIN_VERSION := 3.4.3
ESBUILD_VERSION  := 0.28.2
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
TOOLS_DIR := $(CURDIR)/.tools
export PATH := $(TOOLS_DIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk uses exactly these installed tools and fails (offline = true) rather than download.
export TRUNK_TOOLS_WASM_BINDGEN := $(WASM_BINDGEN_VERSION)
export TRUNK_TOOLS_WASM_OPT := version_$(BINARYEN_VERSION)

# Where the offline file's wasm is bound for a classic script (see dist-single).
SINGLE_DIR := target/single

.PHONY: soak measure-load serve test dist dist-single scorm compress-tools tools browser-tools fetch check-fmt clippy test-host test-wasm test-e2e bench measure-page clean-tools

serve: tools fetch
	trunk serve --address 127.0.0.1 --port 8080

dist: tools compress-tools fetch
	trunk build --release
	@# The nonce placeholder is for `trunk serve` (Trunk.toml): a static build keeps none.
	sed -i -e "s/ 'nonce-{{__TRUNK NONCE__}}'//g" -e 's/ nonce="{{__TRUNK NONCE__}}"//g' dist/*.html
	@! grep -l "__TRUNK NONCE__" dist/*.html
	@# A widget keeps its sizes on a course page whose root font size is not the browser's.
	node scripts/widget-rem.mjs dist/style.css
	@# Minified JS and CSS (esbuild; Trunk's own minifier breaks wasm-bindgen's glue), then
	@# the integrity hashes Trunk wrote for them into the HTML, made anew.
	@find dist -maxdepth 1 -type f \( -name '*.js' -o -name '*.css' \) -print0 | while IFS= read -r -d '' f; do \
	    esbuild "$$f" --minify --log-level=warning --allow-overwrite --outfile="$$f"; \
	  done
	node scripts/integrity.mjs dist
	@# For hosts that serve precompressed files (nginx gzip_static/brotli_static...): a .gz
	@# and a .br beside each .wasm, .js, .css, .html and lesson .md, same modification time.
	@find dist -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' -o -name '*.md' \) \
	  -print0 | while IFS= read -r -d '' f; do \
	    gzip -9 -n -k -f "$$f" && brotli -q 11 -k -f "$$f" && touch -r "$$f" "$$f.gz" "$$f.br"; \
	  done
	@echo "dist/: $$(find dist -name '*.br' | wc -l) files with .br and .gz beside them"
	@for w in dist/*.wasm; do \
	    echo "$$w: $$(stat -c %s "$$w") B raw, $$(stat -c %s "$$w.gz") B gzip, $$(stat -c %s "$$w.br") B brotli"; \
	  done
	@# The offline file beside the rest (dist/offline.html, which each page's footer links to),
	@# so that a teacher copying dist/ to a stick has it.
	wasm-bindgen --target no-modules --no-typescript --out-dir $(SINGLE_DIR) \
	  --out-name resilience-playground target/wasm32-unknown-unknown/wasm-release/resilience-playground.wasm
	wasm-opt -Oz --reorder-functions-by-name $(SINGLE_DIR)/resilience-playground_bg.wasm \
	  -o $(SINGLE_DIR)/resilience-playground_bg.wasm
	node scripts/single-file.mjs $(SINGLE_DIR) dist dist/offline.html

# The playground as one HTML file that works from file:// (no network in class): the wasm
# bound for a classic script (no modules), inlined as base64 with the CSS and the glue. `make
# dist` writes it as dist/offline.html; this writes it under its own name.
dist-single: dist
	node scripts/single-file.mjs $(SINGLE_DIR) dist dist-single/resilience-playground.html

# A SCORM 1.2 package of one guided lesson for a learning platform (Moodle, ...):
# `make scorm LESSON=northwind` writes dist-scorm/resilience-playground-northwind.zip (its
# folder stays beside it, under target/scorm/). Zipped by Python's zipfile.
LESSON ?= km0
SCORM_DIR := target/scorm
scorm: dist
	node scripts/scorm.mjs dist $(LESSON) $(SCORM_DIR)/$(LESSON)
	@mkdir -p dist-scorm
	cd $(SCORM_DIR)/$(LESSON) && python3 -c "import os, zipfile; \
	  z = zipfile.ZipFile('../../../dist-scorm/resilience-playground-$(LESSON).zip', 'w', zipfile.ZIP_DEFLATED); \
	  [z.write(os.path.join(d, f), os.path.relpath(os.path.join(d, f), '.')) for d, _, fs in sorted(os.walk('.')) for f in sorted(fs)]; \
	  z.close()"
	@echo "dist-scorm/resilience-playground-$(LESSON).zip: $$(stat -c %s dist-scorm/resilience-playground-$(LESSON).zip) B"
	python3 scripts/scorm-check.py dist-scorm/resilience-playground-$(LESSON).zip

# brotli for the precompressed files of dist/ (Debian's package; gzip is always there).
compress-tools:
	@if ! command -v brotli >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq brotli; \
	  else \
	    echo "make dist compresses dist/ with brotli: install Debian's package 'brotli' as root:"; \
	    echo "  sudo apt-get install -y brotli"; \
	    exit 1; \
	  fi; \
	fi

test: tools browser-tools fetch check-fmt clippy test-host test-wasm dist dist-single scorm test-e2e
	@echo "make test: all checks passed"

tools:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
	  || rustup target add wasm32-unknown-unknown
	@trunk --version 2>/dev/null | grep -qx "trunk $(TRUNK_VERSION)" \
	  || cargo install --locked trunk --version $(TRUNK_VERSION)
	@test -n "$(WASM_BINDGEN_VERSION)" || { echo "Cargo.lock names no wasm-bindgen"; exit 1; }
	@wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $(WASM_BINDGEN_VERSION)" \
	  || cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)
	@wasm-opt --version 2>/dev/null | grep -q "version $(BINARYEN_VERSION)" \
	  || npm install --prefix "$(TOOLS_DIR)" --no-audit --no-fund --silent binaryen@$(BINARYEN_VERSION).0.0
	@wasm-opt --version | grep -q "version $(BINARYEN_VERSION)" \
	  || { echo "wasm-opt $(BINARYEN_VERSION) is not first on PATH"; exit 1; }
	@mdbook --version 2>/dev/null | grep -qx "mdbook v$(MDBOOK_VERSION)" \
	  || cargo install --locked mdbook --version $(MDBOOK_VERSION) --no-default-features
	@esbuild --version 2>/dev/null | grep -qx "$(ESBUILD_VERSION)" \
	  || npm install --prefix "$(TOOLS_DIR)" --no-audit --no-fund --silent esbuild@$(ESBUILD_VERSION)

# Chromium and chromedriver (Debian's), and axe-core (npm, into .tools/) for the accessibility
# checks; the browser tests read axe.min.js from there and never fetch it at test time.
browser-tools:
	@test -f "$(TOOLS_DIR)/node_modules/axe-core/axe.min.js" \
	  && grep -q '"version": "$(AXE_CORE_VERSION)"' "$(TOOLS_DIR)/node_modules/axe-core/package.json" \
	  || npm install --prefix "$(TOOLS_DIR)" --no-audit --no-fund --silent axe-core@$(AXE_CORE_VERSION)
	@test -f "$(TOOLS_DIR)/node_modules/scorm-again/dist/scorm12.js" \
	  && grep -q '"version": "$(SCORM_AGAIN_VERSION)"' "$(TOOLS_DIR)/node_modules/scorm-again/package.json" \
	  || npm install --prefix "$(TOOLS_DIR)" --no-audit --no-fund --silent scorm-again@$(SCORM_AGAIN_VERSION)
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; \
	  else \
	    echo "The browser tests need Debian's packages 'chromium' and 'chromium-driver'."; \
	    echo "Install them as root:  sudo apt-get install -y chromium chromium-driver"; \
	    exit 1; \
	  fi; \
	fi

fetch:
	cargo fetch --locked

check-fmt:
	cargo fmt --all -- --check

# The workspace's crates are the layers (crates/patterns <- crates/sim <- crates/teaching <-
# the page (src/) and the CLI (crates/cli)); every check covers all of them.
clippy:
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --workspace --lib --bins --test web --locked -- -D warnings

test-host:
	cargo test --workspace --locked

test-wasm:
	cargo test --target wasm32-unknown-unknown --locked --test web

test-e2e:
	cargo test --locked --features e2e --test e2e --test e2e_widgets --test e2e_exercises \
	  --test e2e_lessons --test e2e_scorm --test e2e_phone --test e2e_offline --test e2e_reliability --test e2e_stage \
	  --test e2e_serve -- --test-threads=1

# The 30-minute soak in headless Chromium (not part of `make test`); SOAK_MINUTES=2 for a
# short one.
soak: tools browser-tools fetch dist
	cargo test --locked --features e2e --test e2e_soak -- --ignored --nocapture

bench:
	cargo bench --locked

# Figures of the built page in headless Chromium, printed as medians and 90th percentiles
# (a benchmark, not a test: examples/measure_page.rs): a slider moved on the playground, with
# A/B on and on a lesson step, to the end of its task and to the next paint; playback's frames;
# the jitter sweep's frames; a request followed (click to drawn); the metastability explorer's grid, in
# its worker and without.
measure-page: dist
	cargo run --locked --features e2e --example measure_page -- page
	cargo run --locked --features e2e --example measure_page -- explorer

# The time to the first drawn view on a slow link (1.6 Mbit/s, 150 ms, CPU 4x), served plain
# and precompressed.
measure-load: dist
	cargo run --locked --features e2e --example measure_page -- load

clean-tools:
	rm -rf "$(TOOLS_DIR)"
