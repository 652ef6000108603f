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

// TestDirectoryWorlds lints directories that define the same resources (two
// environments, two examples): each is its own world, so the environments' default
// classes are not two defaults (PVL015), the examples' Deployments of one name are
// not two consumers of one claim (PVL008), and only example b's own CronJob shares its
// claim; nothing is a duplicate (PVL023).
func TestDirectoryWorlds(t *testing.T) {
	linttest.Run(t, "../../testdata/storage/worlds", storage.DefaultClassAmbiguity, storage.ClaimSharedByWorkloads, storage.DuplicateResource)
}
