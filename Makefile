# SeatKit: the two commands a newcomer needs are `make demo` and `make test`.
# Targets install missing Debian packages themselves (apt-get, as root or through sudo).

SWIFT ?= swift
# Every build of the package's own code treats a warning as an error (the build prints none).
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
# Debian packages the build and tests need (postgresql: the tests start a throwaway cluster of their own).
DEB_PACKAGES ?= pkg-config libmicrohttpd-dev libsqlite3-dev libpq-dev libssl-dev libqrencode-dev zlib1g-dev postgresql curl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# What the browser tests add: Chromium and its WebDriver, CJK fonts for the screenshots.
BROWSER_PACKAGES ?= chromium chromium-driver fonts-noto-cjk librsvg2-bin

# What the failover test adds: Patroni, etcd and HAProxy (scripts/ha-cluster.sh).
HA_PACKAGES ?= patroni etcd-server haproxy

.PHONY: all deps build test test-web test-browser test-tsan test-failover payment-deps lint docs demo tour bench bench-web samples clean

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# swift-format (shipped with the toolchain) with the project's .swift-format: lint must be clean;
# `swift-format format -i -r Sources Tests Examples` fixes what it reports.
lint:
	swift-format lint --strict -r Sources Tests Examples

# swift-format lint, then unit and snapshot tests (the store and server suites on SQLite and on a
# throwaway PostgreSQL cluster started for the run), the real binary on every sample, schemathesis
# against the OpenAPI document, SeatKitUI type-checked against UIKit and SwiftUI stand-ins, the page's
# JavaScript engine against the Swift engine's vectors, the server and client suites under
# ThreadSanitizer, then the web picker in headless Chromium. It ends by failing on any file the run left in
# the tree (ignored or not) and on any tracked file over 2 MB outside docs/images and Samples (check-tree.py).
# The client's suites (async: their tasks need the concurrency pool) in a test process of their own. In
# one process with the server's suites, which block a pool thread each while they wait on a server, they
# queued behind them: on 2 cores (2 pool threads) a payment test's 10-second wait ran out after 84 s.
ASYNC_SUITES = SeatSyncTests\.|SimulateCommandTests

test: deps lint
	python3 scripts/check-tree.py self-test
	python3 scripts/bench-history.py self-test
	python3 scripts/check-tree.py start
	python3 scripts/check-architecture.py
	$(MAKE) payment-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	SEATKIT_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh $(SWIFT) test $(SWIFT_FLAGS) --skip '$(ASYNC_SUITES)'
	SEATKIT_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh $(SWIFT) test $(SWIFT_FLAGS) --filter '$(ASYNC_SUITES)'
	SEATKIT_TEST_DATABASE_RESTART=1 ./scripts/with-postgres.sh $(SWIFT) test $(SWIFT_FLAGS) --filter serversRecoverByThemselvesWhenTheDatabaseRestarts
	./scripts/smoke-test.sh .build/debug/seatkit
	./scripts/contract-test.sh .build/debug/seatkit
	./scripts/check-uikit.sh
	./scripts/check-consumer.sh
	./scripts/docs.sh
	$(MAKE) test-web
	$(MAKE) test-tsan
	$(MAKE) test-failover
	$(MAKE) test-browser
	python3 scripts/check-tree.py end

# The web app's typed modules (`// @ts-check`: api, session, engine, live, ticket) through tsc --noEmit,
# then the page's engine (js/engine.js) against the vectors the Swift engine writes (Tests/Web/Vectors,
# re-recorded with SEATKIT_RECORD=1 swift test --filter WebVectors): Node's own test runner, no packages.
test-web:
	@command -v node >/dev/null || $(MAKE) deps DEB_PACKAGES=nodejs
	@command -v tsc >/dev/null || $(MAKE) deps DEB_PACKAGES=node-typescript
	tsc -p Tests/Web/tsconfig.json
	node --test Tests/Web

# The payment providers' own libraries from PyPI, which the payment tests check SeatKit against
# (Stripe's signatures), and localstripe, a Stripe-compatible server the tests start. A test that needs
# one fails without it.
# Stripe's library and localstripe; the WeChat Pay and Alipay SDKs the payment sandbox checks SeatKit with;
# standardwebhooks, which the webhook receiver verifies deliveries with.
PAYMENT_PYPI = stripe localstripe wechatpayv3 python-alipay-sdk standardwebhooks

payment-deps:
	python3 -c 'import stripe, localstripe, wechatpayv3, alipay, standardwebhooks' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check $(PAYMENT_PYPI) \
		|| python3 -m pip install --quiet --break-system-packages $(PAYMENT_PYPI)

# The server and client suites under ThreadSanitizer, in a build of their own (.build/tsan). A report
# alone does not fail a test, so halt_on_error makes the first one fail the run. No suppressions. Skipped
# here, and run in the plain suite: uploading a 100k-seat arena (a 5.5 MB JSON parse that takes minutes
# under TSan; it checks body limits, not threads), and the tests that start localstripe or the payment sandbox (Python servers)
# from the test process: TSan's own runtime aborted in the child of that spawn (CHECK failed in
# ForkChildAfter) in one run of two. The payment code's locks stay under TSan through the payment tests
# that start nothing (PaymentRequiredTests, PaymentStoreTests).
# The waitlist's and refund terms' suites wait seconds on the server's clock (offers, releases) and, run
# beside everything under TSan, held the test pool's two threads long enough to starve the client's async
# tests (a 60 s limit ran out twice); their locks are the inventory's, which the other suites cover.
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan $(SWIFT_FLAGS)
	TSAN_OPTIONS=halt_on_error=1 SEATKIT_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh \
		$(SWIFT) test --sanitize=thread --scratch-path .build/tsan $(SWIFT_FLAGS) --filter 'SeatServerTests|SeatSyncTests' \
		--skip 'theTwentyThousandSeatSampleAndAHundredThousandArenaUpload' --skip 'PaymentFlowTests|CheckoutClientTests|ChinaPaymentTests|PaymentCrashTests|CardPaymentTests' \
		--skip 'WaitlistTests|RefundTermsTests'

# Killing databases under load (#29): two instances on two shards, buyers and clerks at load; one shard a
# Patroni cluster (etcd, a synchronous standby, HAProxy: scripts/ha-cluster.sh) whose primary is killed
# with kill -9, the other stopped for 20 s. Prints what was lost (must be 0), seats sold twice (0), the
# seconds until each shard's writes came back and what the other shard's buyers saw meanwhile.
test-failover:
	$(MAKE) deps DEB_PACKAGES="$(DEB_PACKAGES) $(HA_PACKAGES)"
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	SEATKIT_FAILOVER=1 SEATKIT_REQUIRE_POSTGRES=1 ./scripts/with-postgres.sh $(SWIFT) test $(SWIFT_FLAGS) --skip-build --filter FailoverTests

# The web seat picker in a real headless Chromium through WebDriver (Selenium from PyPI), against a
# server the tests start; axe-core 4 (the copy axe-playwright-python bundles, from PyPI) checks every page. Screenshots of the map land in artifacts/browser/.
test-browser:
	$(MAKE) deps DEB_PACKAGES="$(DEB_PACKAGES) $(BROWSER_PACKAGES)"
	$(MAKE) payment-deps
	python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check selenium \
		|| python3 -m pip install --quiet --break-system-packages selenium
	python3 -c 'import axe_playwright_python' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --no-deps axe-playwright-python \
		|| python3 -m pip install --quiet --break-system-packages --no-deps axe-playwright-python
	python3 -c 'import zxingcpp, PIL' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check zxing-cpp pillow \
		|| python3 -m pip install --quiet --break-system-packages zxing-cpp pillow
	$(SWIFT) build $(SWIFT_FLAGS) --product seatkit
	# Every suite found (test_*.py): a listed set once left the areas' and tables' suites out of CI.
	cd Tests/Browser && python3 -m unittest discover -v -p 'test_*.py'

# The main job: the seat-inventory server on 127.0.0.1:8080 with the embedded store (demo.db),
# seeded with the sample venues and a few shows, taking test money from the local payment sandbox
# (WeChat Pay and Alipay on 127.0.0.1:8431: scripts/serve-demo.sh). Ctrl-C stops both. The hold rate
# limit is raised from the default 20/s per client so `seatkit simulate` (a whole crowd from 127.0.0.1)
# can run against it.
demo: deps payment-deps
	$(SWIFT) build -c release --product seatkit
	./scripts/serve-demo.sh .build/release/seatkit

# The DocC documentation of SeatMap, CollectionLayout, SeatCanvas, SeatSync and SeatKitUI as one static
# site in .build/docs-site (open index.html through any static file server); a broken symbol link fails it.
docs:
	./scripts/docs.sh

# A tour of the command-line tool on the sample venues.
tour: build
	./scripts/demo.sh .build/debug/seatkit

# Runs the benchmarks and writes their tables into BENCHMARKS.md (redis-server for the reference row).
bench:
	$(MAKE) deps DEB_PACKAGES="$(DEB_PACKAGES) redis-server wrk"
	$(MAKE) payment-deps
	./scripts/benchmarks.sh
	python3 scripts/bench-history.py append

# The web picker in headless Chromium per venue size (172 to 100,000 seats), beside the same page with its
# level of detail off; writes its table into BENCHMARKS.md (scripts/bench-web.py).
bench-web:
	$(MAKE) deps DEB_PACKAGES="$(DEB_PACKAGES) $(BROWSER_PACKAGES)"
	python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check selenium \
		|| python3 -m pip install --quiet --break-system-packages selenium
	$(SWIFT) build -c release --product seatkit
	python3 scripts/bench-web.py --write
	python3 scripts/bench-history.py append --section "The web picker" --date $$(date -u +%F)

# Regenerates the shipped samples, plus a 100k-seat arena (not committed: 5 MB).
samples: build
	.build/debug/seatkit generate cinema -o Samples/cinema-hall.json
	.build/debug/seatkit generate imax -o Samples/imax-hall.json
	.build/debug/seatkit generate arena --seats 20000 -o Samples/arena-20k.json
	.build/debug/seatkit generate arena --seats 100000 -o Samples/arena-100k.json

clean:
	$(SWIFT) package clean
