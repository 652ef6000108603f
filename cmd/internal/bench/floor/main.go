// Command floor is the parse floor `make bench` compares pvlint with: the work any
// linter of the same input must at least do, done by the parsers pvlint's own
// formats are defined by, and nothing else.
//
//	go run ./cmd/internal/bench/floor -format yaml DIR
//	go run ./cmd/internal/bench/floor -format hcl DIR
//
// It walks DIR, reads every .yaml/.yml file (yaml) or every .tf file (hcl) and parses
// it on two workers, as pvlint's loader uses two threads on the shared 2-core
// machine the figures are taken on: yaml decodes every document of the file into a
// go.yaml.in/yaml/v3 Node tree; hcl calls hclparse's ParseHCLFile, each worker with
// its own parser. Like pvlint's graph, every parsed tree is kept until the end, so the
// peak memory is that of holding the whole input parsed. It prints how many files and
// documents (or HCL bodies) it parsed, so a floor that read nothing is seen.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"go.yaml.in/yaml/v3"
)

func main() {
	format := flag.String("format", "yaml", "what to parse: yaml (.yaml/.yml files) or hcl (.tf files)")
	workers := flag.Int("workers", 2, "parsing goroutines")
	flag.Parse()
	if flag.NArg() != 1 || (*format != "yaml" && *format != "hcl") || *workers < 1 {
		fmt.Fprintln(os.Stderr, "usage: floor [-format yaml|hcl] [-workers N] DIR")
		os.Exit(2)
	}
	files, docs, err := run(flag.Arg(0), *format, *workers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d files, %d documents\n", *format, files, docs)
}

// run parses every file of the format under dir on workers goroutines and returns
// the number of files and of documents parsed.
func run(dir, format string, workers int) (files, docs int, err error) {
	var paths []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if format == "yaml" && (ext == ".yaml" || ext == ".yml") || format == "hcl" && ext == ".tf" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	type result struct {
		kept []any // the parsed trees, held to the end as a linter's graph is
		docs int
		err  error
	}
	results := make([]result, workers)
	var wg sync.WaitGroup
	next := make(chan string)
	for w := range workers {
		wg.Go(func() {
			r := &results[w]
			parser := hclparse.NewParser()
			for p := range next {
				if r.err != nil {
					continue
				}
				data, err := os.ReadFile(p)
				if err != nil {
					r.err = err
					continue
				}
				if format == "hcl" {
					f, diags := parser.ParseHCL(data, p)
					if diags.HasErrors() {
						r.err = fmt.Errorf("%s: %w", p, errors.Join(diagErrors(diags)...))
						continue
					}
					r.kept = append(r.kept, f)
					r.docs++
					continue
				}
				dec := yaml.NewDecoder(bytes.NewReader(data))
				for {
					n := new(yaml.Node)
					if err := dec.Decode(n); err == io.EOF {
						break
					} else if err != nil {
						r.err = fmt.Errorf("%s: %w", p, err)
						break
					}
					r.kept = append(r.kept, n)
					r.docs++
				}
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			return 0, 0, r.err
		}
		docs += r.docs
	}
	return len(paths), docs, nil
}

func diagErrors(diags hcl.Diagnostics) []error {
	return diags.Errs()
}
