// Command pvlint lints Kubernetes manifests for storage hazards. Everything but the
// process boundary lives in package cli; see README.md for usage.
package main

import (
	"os"

	"github.com/pvlint/pvlint/cmd/internal/cli"
	_ "github.com/pvlint/pvlint/cmd/internal/early/auto" // the first worker starts as pvlint initialises
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
