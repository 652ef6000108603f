package policy

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/pvlint/pvlint/parsers/graph"
)

// documents is the store every prepared query reads data from. During an evaluation
// the transaction is an evalTxn, and the base documents come from its source (a
// graph's world, or a Batch in the process evaluating it): data.inventory,
// data.pvlint.provisioners, data.pvlint.classes and data.pvlint.resource, a world's
// each built on first read. Anything else under data is
// undefined. The embedded in-memory store is empty; it answers what OPA asks while
// preparing a query, outside any evaluation.
//
// A store rather than OPA resolvers: a resolver cannot be read while a `with data...`
// statement is in scope (OPA stops with an internal error), and policies and their
// tests use `with` freely.
type documents struct {
	storage.Store
}

func newDocuments() documents { return documents{inmem.New()} }

// evalTxn is the transaction of one evaluation: where its documents come from.
type evalTxn struct {
	id  uint64
	src source
}

// source gives an evaluation its documents.
type source interface {
	inventory() ast.Value
	provisioners() ast.Value
	classes() ast.Value
	origin() ast.Value // data.pvlint.resource of the input
}

// graphSource is the documents of a graph's world, in this process; resource is the
// input, set before each evaluation. inv, when set, joins its resources to
// data.inventory (Gatekeeper's context).
type graphSource struct {
	world    *world
	graph    *graph.Graph
	resource *graph.Resource
	inv      *inventorySet
}

func (s *graphSource) inventory() ast.Value    { return s.world.inventoryWith(s.graph, s.inv) }
func (s *graphSource) provisioners() ast.Value { return s.world.provisioners(s.graph) }
func (s *graphSource) classes() ast.Value      { return s.world.classes(s.graph) }
func (s *graphSource) origin() ast.Value       { return s.world.origin(s.resource) }

// staticDocs are documents read from a Batch, in the process that evaluates it.
type staticDocs struct {
	inv, prov, cls ast.Value
}

// staticSource is one input of a Batch.
type staticSource struct {
	*staticDocs
	org ast.Value
}

func (s staticSource) inventory() ast.Value    { return s.inv }
func (s staticSource) provisioners() ast.Value { return s.prov }
func (s staticSource) classes() ast.Value      { return s.cls }
func (s staticSource) origin() ast.Value       { return s.org }

var txnIDs atomic.Uint64

func newEvalTxn(src source) *evalTxn {
	return &evalTxn{id: txnIDs.Add(1), src: src}
}

// ID implements storage.Transaction.
func (t *evalTxn) ID() uint64 { return t.id }

// Read implements storage.Store: the source's documents for an evaluation, the
// embedded store otherwise.
func (d documents) Read(ctx context.Context, txn storage.Transaction, path storage.Path) (any, error) {
	t, ok := txn.(*evalTxn)
	if !ok {
		return d.Store.Read(ctx, txn, path)
	}
	var v ast.Value
	switch {
	case len(path) == 0:
		v = ast.NewObject(
			[2]*ast.Term{ast.StringTerm("inventory"), ast.NewTerm(t.src.inventory())},
			[2]*ast.Term{ast.StringTerm("pvlint"), ast.NewTerm(t.pvlint())},
		)
	case path[0] == "inventory":
		v, path = t.src.inventory(), path[1:]
	case path[0] == "pvlint" && len(path) == 1:
		v, path = t.pvlint(), path[1:]
	case path[0] == "pvlint" && path[1] == "provisioners":
		v, path = t.src.provisioners(), path[2:]
	case path[0] == "pvlint" && path[1] == "classes":
		v, path = t.src.classes(), path[2:]
	case path[0] == "pvlint" && path[1] == "resource":
		v, path = t.src.origin(), path[2:]
	default:
		return nil, notFound(path)
	}
	for _, key := range path {
		if v = lookup(v, key); v == nil {
			return nil, notFound(path)
		}
	}
	return v, nil
}

// pvlint is data.pvlint as a whole.
func (t *evalTxn) pvlint() ast.Value {
	return ast.NewObject(
		[2]*ast.Term{ast.StringTerm("provisioners"), ast.NewTerm(t.src.provisioners())},
		[2]*ast.Term{ast.StringTerm("classes"), ast.NewTerm(t.src.classes())},
		[2]*ast.Term{ast.StringTerm("resource"), ast.NewTerm(t.src.origin())},
	)
}

// lookup is v[key] for an object, or v[index] for an array (storage paths write
// indexes as decimal strings); nil when absent.
func lookup(v ast.Value, key string) ast.Value {
	switch x := v.(type) {
	case ast.Object:
		if t := x.Get(ast.StringTerm(key)); t != nil {
			return t.Value
		}
	case *ast.Array:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < x.Len() {
			return x.Elem(i).Value
		}
	}
	return nil
}

// notFound is the error OPA expects for an absent document: the path is undefined.
func notFound(path storage.Path) error {
	return &storage.Error{Code: storage.NotFoundErr, Message: path.String() + ": document does not exist"}
}
