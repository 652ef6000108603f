// Package bench holds pvlint's performance benchmarks and the test that keeps
// optimisations honest.
//
// The benchmarks (bench_test.go) time each stage of a run on a generated corpus
// (package cmd/internal/corpus, written into a temporary directory): loading and parsing,
// building the graph, the Go rules, the Rego rules, the SARIF and text outputs, and
// the whole command in-process. `make bench` runs them and then times the pvlint
// binary as a process beside the parse floor (./cmd/internal/bench/floor: yaml.v3 or
// hclparse over the same files on two threads) on 1k and 10k objects of YAML, 10k of
// workload-heavy YAML and 1k and 10k of Terraform, in paired runs
// (./cmd/internal/bench/table); 100k objects are opt-in.
// The in-process benchmarks measure the code, not the process: they do not get the
// heap the command line prepares with huge pages (package cmd/internal/heap, once per
// process), so their load figures include the page faults the binary avoids; the
// table is the end-to-end measure.
//
// Nothing in the test suite depends on speed. The one test here
// (findings_test.go) compares every finding of a small generated corpus, YAML and
// Terraform, with a committed golden file, so a change made for speed that changes a
// finding, its position or its message fails `go test ./...`.
package bench
