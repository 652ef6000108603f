# pvlint's developer entry points. `make test` is what CI runs (.ci/run).

MODULE   := github.com/pvlint/pvlint
FUZZTIME ?= 30s
SARIF_MULTITOOL := @microsoft/sarif-multitool@5.6.0
# Mermaid's parser (and jsdom, the DOM its sanitiser needs) for the graph tests.
MERMAID := mermaid@11.12.0 jsdom@26.1.0
# The CI runners and linters the integration tests of action.yml, .pre-commit-hooks.yaml
# and templates/pvlint.yml use (cmd/pvlint/*_test.go). Go tools go to .tools/bin.
ACT_VERSION        := v0.2.89
GORELEASER_VERSION := v2.15.1
# crane validates the container images and pushes them to a registry on a loopback
# address in cmd/pvlint/packages_test.go (the release workflow pushes with it too).
CRANE_VERSION      := v0.22.1
ACTIONLINT_VERSION := v1.7.12
STATICCHECK_VERSION := v0.8.2
# reviewdog is pinned by its own module (.ci/reviewdog/go.mod: v0.21.0 and go.sum).
GITLAB_CI_LOCAL    := gitlab-ci-local@4.73.0
ACTION_VALIDATOR   := @action-validator/cli@0.6.0
TOOLS_BIN          := $(CURDIR)/.tools/bin
# One "package import" line per import of the listed packages (test files excluded).
IMPORTS  := go list -f '{{$$p := .ImportPath}}{{range .Imports}}{{$$p}} {{.}}{{"\n"}}{{end}}'

.PHONY: all build test test-short golden check vet imports fuzz demo corpus bench bench-isolation gnutime tools promtool ci-tools clean

all: check test

## build: compile the pvlint binary into bin/, statically linked: pvlint needs no C
## library, and a cgo build exports every Go symbol dynamically (a dependency imports
## plugin), which cost 10 MB of resident memory per run (64 to 54 MB on an empty directory)
build:
	CGO_ENABLED=0 go build -o bin/pvlint ./cmd/pvlint

## test: install the test tools, run the checks and every test (SARIF validator included)
test: tools check
	go test -timeout 60m ./...

## test-short: the quick loop: every package's tests without the CI-runner integration
## tests (act, pre-commit, gitlab-ci-local, GoReleaser) and other tests that skip under
## -short; installs nothing
test-short: vet
	go test -short ./...

## golden: refresh every golden file and generated section of the README and docs/
## from the code: only the tests that write them (-run), -short, so no test tool and no
## build of the binary is needed; read the diff before committing it
GOLDEN_TESTS := ^(TestGolden|TestReadme|TestFixInPlace|TestFormatsGolden|TestFixtures|TestCorpusFindings)$$
golden:
	go test -short -run '$(GOLDEN_TESTS)' ./cmd/internal/cli ./cmd/internal/output ./rules/suppress ./cmd/internal/alerts ./cmd/internal/bench -update

## check: vet, then staticcheck (pinned, installed into .tools/bin on first use) and
## the modernisers of go fix, which must have nothing to change
check: vet .tools/stamps/staticcheck-$(STATICCHECK_VERSION)
	$(TOOLS_BIN)/staticcheck ./...
	@out=$$(go fix -diff ./... 2>&1) || { echo "$$out"; echo "go fix has modernisations to apply: run go fix ./..."; exit 1; }

## vet: go vet, gofmt and the import-direction guard (what test-short checks)
vet: imports
	go vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## imports: parsers/graph imports only the standard library; parsers never import
## rules or cmd; rules import no parser but graph and nothing from cmd (test harness
## packages named *test may); output, storagegraph and rewrite depend on no rule package but
## rules/lint.
imports:
	@out=$$(go list -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/... | grep -E '^$(MODULE)/cmd/[^/]+$$' || true); \
	if [ -n "$$out" ]; then echo "only commands (package main) go directly under cmd/; libraries go under cmd/internal/:"; echo "$$out"; exit 1; fi
	@out=$$($(IMPORTS) ./parsers/graph | grep -E ' [^/ ]*\.' || true); \
	if [ -n "$$out" ]; then echo "parsers/graph must import only the standard library:"; echo "$$out"; exit 1; fi
	@out=$$($(IMPORTS) ./parsers/... | grep -E ' $(MODULE)/(rules|cmd)(/|$$)' || true); \
	if [ -n "$$out" ]; then echo "parsers must not import rules or cmd:"; echo "$$out"; exit 1; fi
	@out=$$($(IMPORTS) ./rules/... | grep -Ev '^[^ ]*test ' | grep -E ' $(MODULE)/(cmd|parsers)(/|$$)' | grep -Ev ' $(MODULE)/parsers/graph$$' || true); \
	if [ -n "$$out" ]; then echo "rules must not import cmd or parsers other than parsers/graph:"; echo "$$out"; exit 1; fi
	@out=$$(go list -deps ./cmd/internal/output ./cmd/internal/storagegraph ./cmd/internal/rewrite | grep -E '^$(MODULE)/(rules|cmd/internal/cli)(/|$$)' | grep -Ev '^$(MODULE)/rules/lint$$' || true); \
	if [ -n "$$out" ]; then echo "cmd/internal/output, storagegraph and rewrite must depend on no rule package but rules/lint:"; echo "$$out"; exit 1; fi

## fuzz: run every Fuzz* target for FUZZTIME each (default 30s)
fuzz:
	@for dir in $$(grep -rl --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.git '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
		for f in $$(grep -h '^func Fuzz' $$dir/*_test.go | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
			echo "== $$dir $$f"; \
			go test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$dir || exit 1; \
		done; \
	done

## demo: lint the demo application
demo:
	go run ./cmd/pvlint --fail-on never testdata/demo

## corpus: write the synthetic benchmark corpus of CORPUS_OBJECTS objects into
## CORPUS_OUT (ignored by git); CORPUS_FLAGS=-terraform writes the Terraform variant
CORPUS_OBJECTS ?= 10000
CORPUS_OUT     ?= .corpus/$(CORPUS_OBJECTS)
corpus:
	go run ./cmd/pvlint-corpus -objects $(CORPUS_OBJECTS) -out $(CORPUS_OUT) $(CORPUS_FLAGS)

## bench: Go benchmarks of every stage (parse, graph, Go rules, Rego rules, SARIF
## and text output, the whole run) on a generated corpus of BENCH_SIZES objects, then
## the pvlint binary timed as a process (GNU time) beside the parse floor (yaml.v3 or
## hclparse on two threads, bin/pvlint-floor) on BENCH_TABLE_SIZES objects of YAML,
## BENCH_WORKLOAD_SIZES of workload-heavy YAML and BENCH_TF_SIZES of Terraform,
## BENCH_RUNS paired runs each, printed as one table of medians and ratios; and chart
## renders per second, plain and with --explore-values (parsers/helm). 100k
## objects take minutes and a few GiB on a shared machine, so they are opt-in:
## make bench BENCH_TABLE_SIZES=1000,10000,100000. Corpora are generated into
## temporary directories and removed.
BENCH_SIZES          ?= 10000
BENCH_FLAGS          ?= -benchtime 5x -count 1
BENCH_TABLE_SIZES    ?= 1000,10000
BENCH_WORKLOAD_SIZES ?= 10000
BENCH_TF_SIZES       ?= 1000,10000
BENCH_RUNS           ?= 5
bench: build gnutime
	CGO_ENABLED=0 go build -o bin/pvlint-floor ./cmd/internal/bench/floor
	go test -run '^$$' -bench . -benchmem $(BENCH_FLAGS) ./cmd/internal/bench -args -sizes $(BENCH_SIZES)
	go test -run '^$$' -bench BenchmarkRender -benchtime 2s -count 1 ./parsers/helm
	go run ./cmd/internal/bench/table -bin bin/pvlint -floor bin/pvlint-floor -sizes "$(BENCH_TABLE_SIZES)" \
		-workloads "$(BENCH_WORKLOAD_SIZES)" -terraform "$(BENCH_TF_SIZES)" -runs $(BENCH_RUNS)

## bench-isolation: what worker processes cost, BASE (a pvlint built from main) against
## bin/pvlint side by side on 10k objects of YAML (no worker) and 50 small Helm charts,
## paired runs in alternating order, medians and their ratios with the load average
BASE           ?= bin/pvlint-main
ISOLATION_RUNS ?= 9
bench-isolation: build
	go run ./cmd/internal/bench/isolation -base $(BASE) -new bin/pvlint -runs $(ISOLATION_RUNS)

gnutime:
	@test -x /usr/bin/time || { \
		command -v apt-get >/dev/null || { echo "install GNU time (/usr/bin/time) for make bench"; exit 1; }; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends time; }

## tools: install the tools the tests use: Microsoft's SARIF validator and Mermaid's
## parser (npm), promtool (Debian's prometheus package) for the alert rule tests, and
## the CI runners of ci-tools
tools: .ci/node_modules/.package-lock.json promtool ci-tools

promtool:
	@command -v promtool >/dev/null || { \
		command -v apt-get >/dev/null || { echo "install promtool (the prometheus package) for the alert tests"; exit 1; }; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends prometheus; }

.ci/node_modules/.package-lock.json: .ci/package.json .ci/package-lock.json
	npm --prefix .ci install --save-exact --no-audit --no-fund $(SARIF_MULTITOOL) $(MERMAID) $(GITLAB_CI_LOCAL) $(ACTION_VALIDATOR)
	@# The npm package ships a self-contained .NET binary (no .NET install needed); npm
	@# may skip its chmod postinstall script, so set the bit and make sure it starts.
	bin="$$(cd .ci && node -p "require('@microsoft/sarif-multitool')")" && chmod u+x "$$bin" && \
		DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$$bin" --version
	@touch $@

## ci-tools: act, actionlint, GoReleaser and crane (Go, pinned, into .tools/bin), Debian's
## static busybox for the image's -debug variant (.tools/busybox), and Debian's
## pre-commit, rsync (gitlab-ci-local's shell isolation), shellcheck and strace
## (TestHostileNoExec); each installed only once
ci-tools: .tools/stamps/reviewdog .tools/stamps/act-$(ACT_VERSION) .tools/stamps/actionlint-$(ACTIONLINT_VERSION) .tools/stamps/goreleaser-$(GORELEASER_VERSION) .tools/stamps/crane-$(CRANE_VERSION) .tools/busybox/arm64/busybox
	@missing=; for c in pre-commit rsync shellcheck strace zsh fish; do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
		command -v apt-get >/dev/null || { echo "install$$missing for the CI integration tests"; exit 1; }; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $$missing; fi

# Debian's static busybox for the container image's -debug variant (the snapshot's
# GoReleaser hook reads it from PVLINT_BUSYBOX; cmd/pvlint/release_test.go sets it here).
.tools/busybox/arm64/busybox: packaging/busybox/fetch.sh
	packaging/busybox/fetch.sh .tools/busybox

.tools/stamps/staticcheck-$(STATICCHECK_VERSION):
	GOBIN=$(TOOLS_BIN) go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@mkdir -p $(@D) && touch $@

.tools/stamps/reviewdog: .ci/reviewdog/go.mod .ci/reviewdog/go.sum
	cd .ci/reviewdog && GOBIN=$(TOOLS_BIN) go install github.com/reviewdog/reviewdog/cmd/reviewdog
	@mkdir -p $(@D) && touch $@

.tools/stamps/act-$(ACT_VERSION):
	GOBIN=$(TOOLS_BIN) go install github.com/nektos/act@$(ACT_VERSION)
	@mkdir -p $(@D) && touch $@

.tools/stamps/actionlint-$(ACTIONLINT_VERSION):
	GOBIN=$(TOOLS_BIN) go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	@mkdir -p $(@D) && touch $@

.tools/stamps/goreleaser-$(GORELEASER_VERSION):
	GOBIN=$(TOOLS_BIN) go install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
	@mkdir -p $(@D) && touch $@

.tools/stamps/crane-$(CRANE_VERSION):
	GOBIN=$(TOOLS_BIN) go install github.com/google/go-containerregistry/cmd/crane@$(CRANE_VERSION)
	@mkdir -p $(@D) && touch $@

clean:
	rm -rf bin .ci/node_modules .tools
