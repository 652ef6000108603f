package rules

import (
	"sync"

	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/policy"
	"github.com/pvlint/pvlint/rules/promql"
	"github.com/pvlint/pvlint/rules/storage"
)

// catalogue is the one explicit list of rules with a Check, besides PVL000. Rego rules
// come from the embedded policies, whose METADATA blocks carry their IDs. A rule's
// explain page is rules/docs/<ID>.md, for Go rules as for Rego rules.
//
// Rules read the resource graph, which is the same whatever format a resource came
// from; TestCatalogue checks that every rule has fixtures in YAML and in Terraform
// (the two loaders of their own), or says why not. Helm charts and kustomizations
// render to YAML that the manifest loader reads; their positions are tested in
// parsers/helm and parsers/kustomize, and rules whose findings differ for them
// (fixes, variants) have chart or kustomization fixtures too.
var catalogue = sync.OnceValue(func() []*lint.Rule {
	goRules := []*lint.Rule{
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
		storage.ReleaseNotRendered,
		storage.ImmediateBindingSpread,
		storage.ClaimsDeletedWithOwner,
		storage.ExpansionDisallowed,
		storage.OperatorVersionUnknown,
		storage.MissingPersistenceValues,
		promql.AlertNeverFires,
	}
	for _, r := range goRules {
		if r.Doc == "" {
			r.Doc = docs.Page(r.ID)
		}
	}
	return append(goRules, policy.Builtin()...)
})
