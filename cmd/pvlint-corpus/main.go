// Command pvlint-corpus writes pvlint's deterministic synthetic benchmark corpus (package
// cmd/internal/corpus): Kubernetes manifests, or with -terraform the same applications
// as Terraform, shaped like a real platform repository.
//
//	go run ./cmd/pvlint-corpus -objects 10000 -out /tmp/corpus-10k
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

func main() {
	objects := flag.Int("objects", 10000, "approximate number of objects to write")
	seed := flag.Uint64("seed", 1, "random seed (same seed, same corpus)")
	out := flag.String("out", "", "output directory (created; should be empty or absent)")
	tf := flag.Bool("terraform", false, "write Terraform (.tf) instead of YAML")
	workloads := flag.Bool("workloads", false, "the workload-heavy shape: few ConfigMaps, many Deployments, StatefulSets and claims, `# Source:` headers on a third of the files")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	st, err := corpus.Write(*out, corpus.Options{Objects: *objects, Seed: *seed, Terraform: *tf, Workloads: *workloads})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d objects in %d files (%.1f MB) to %s\n", st.Objects, st.Files, float64(st.Bytes)/1e6, *out)
}
