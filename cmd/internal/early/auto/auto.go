// Package auto starts the pvlint command's first worker, when there will be one, as
// the command initialises: importing it is the whole of its use (see package early).
// Only the command imports it; its tests and other programs call early.Start, or not.
package auto

import (
	"os"

	"github.com/pvlint/pvlint/cmd/internal/early"
)

func init() { early.Start(os.Args[1:]) }
