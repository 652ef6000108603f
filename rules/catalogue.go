package rules

import (
	"sync"

	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/policy"
	"github.com/pvlint/pvlint/rules/promql"
	"github.com/pvlint/pvlint/rules/storage"
)

// catalogue is the one explicit list of rules with a Check, besides PVL000. Every rule
// listed here works in every input format; tests validate the list. Rego rules come
// from the embedded policies, whose METADATA blocks carry their IDs. The policies
// start compiling when the package is initialised, on another processor than the
// rest of the program's start (policy.Compile takes ~10 ms); the list waits for them
// the first time it is asked for.
var catalogue = sync.OnceValue(func() []*lint.Rule {
	return append([]*lint.Rule{
		storage.RWOMultiPod,
		storage.RWORollingUpdate,
		storage.StatefulSetSharedClaim,
		storage.MissingRWOP,
		storage.RWOPMultipleConsumers,
		storage.RWOPInvalid,
		storage.ClaimSharedByWorkloads,
		storage.JobOverlap,
		storage.RWXOnBlockStorage,
		storage.WFFCNodeName,
		storage.BlueGreenSharedClaim,
		storage.UnresolvedClaim,
		storage.InTreeProvisioner,
		storage.StaticBindingMismatch,
		storage.DefaultClassAmbiguity,
		storage.UnevictableSingleWriter,
		storage.ReclaimDelete,
		storage.WaitUntilBound,
		storage.NodePinnedWriters,
		storage.RollingTerminatingOverlap,
		storage.DuplicateResource,
		promql.AlertNeverFires,
	}, policy.Builtin()...)
})

func init() { go catalogue() }
