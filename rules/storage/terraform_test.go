package storage_test

import (
	"testing"

	"github.com/pvlint/pvlint/rules/linttest"
	"github.com/pvlint/pvlint/rules/storage"
)

// TestEmptyClassNameWithoutStaticBinding lints a Terraform world without
// PersistentVolumes, which the PVL014 fixture directory (one world, with class-less
// PVs) cannot hold: storage_class_name = "" is then a warning, unless the claim names
// a volume.
func TestEmptyClassNameWithoutStaticBinding(t *testing.T) {
	linttest.Run(t, "../../testdata/storage/PVL014-terraform-dynamic", storage.StaticBindingMismatch)
}
