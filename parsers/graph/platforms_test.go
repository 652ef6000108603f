package graph

import (
	"net/url"
	"strings"
	"testing"
)

// TestPlatformTable checks what every row must carry: a public source address, the
// version it holds for, a known binding mode and reclaim policy, at most one default
// per profile, and no name or alias taken twice.
func TestPlatformTable(t *testing.T) {
	names := map[string]bool{}
	for _, p := range Platforms() {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if names[n] || n != strings.ToLower(n) {
				t.Errorf("profile name %q taken twice or not lower case", n)
			}
			names[n] = true
		}
		if len(p.Classes) == 0 || p.Title == "" {
			t.Errorf("profile %s has no classes or title", p.Name)
		}
		defaults, classes := 0, map[string]bool{}
		for _, c := range p.Classes {
			u, err := url.Parse(c.Source)
			if err != nil || u.Scheme != "https" || u.Host == "" {
				t.Errorf("%s/%s: source %q is not a public https address", p.Name, c.Name, c.Source)
			}
			if c.Version == "" || c.Provisioner == "" || c.Name == "" {
				t.Errorf("%s/%s: version, provisioner and name are required", p.Name, c.Name)
			}
			if c.Binding != "" && c.Binding != "Immediate" && c.Binding != "WaitForFirstConsumer" {
				t.Errorf("%s/%s: binding mode %q", p.Name, c.Name, c.Binding)
			}
			if c.Reclaim != "" && c.Reclaim != "Delete" && c.Reclaim != "Retain" {
				t.Errorf("%s/%s: reclaim policy %q", p.Name, c.Name, c.Reclaim)
			}
			if classes[c.Name] {
				t.Errorf("%s: class %s twice", p.Name, c.Name)
			}
			classes[c.Name] = true
			if c.Default {
				defaults++
			}
		}
		if defaults > 1 {
			t.Errorf("%s: %d default classes", p.Name, defaults)
		}
	}
	for _, n := range PlatformNames() {
		if FindPlatform(strings.ToUpper(n)) == nil {
			t.Errorf("FindPlatform(%q) = nil", strings.ToUpper(n))
		}
	}
	if FindPlatform("rke2") != nil {
		t.Error("rke2 has a profile, but its classes were not verified")
	}
}

// TestPlatformResources checks the classes a profile builds: what the rules read of a
// StorageClass, as kubectl would print it, marked as the profile's context.
func TestPlatformResources(t *testing.T) {
	rs := FindPlatform("gke").Resources()
	g := New(rs, Options{})
	sc := g.Lookup("StorageClass", "", "premium-rwo")
	if sc == nil || !sc.IsContext() || sc.Origin.Context != "GKE default classes" || sc.Origin.Format != FormatProfile {
		t.Fatalf("premium-rwo = %+v", sc)
	}
	if got := sc.Get("provisioner").Str() + " " + sc.Get("volumeBindingMode").Str() + " " + sc.Get("reclaimPolicy").Str(); got != "pd.csi.storage.gke.io WaitForFirstConsumer Delete" {
		t.Errorf("premium-rwo fields %q", got)
	}
	if b, ok := sc.Get("allowVolumeExpansion").Bool(); !ok || !b {
		t.Error("premium-rwo allows expansion")
	}
	if d := g.DefaultClasses(); len(d) != 1 || d[0].Name != "standard-rwo" {
		t.Errorf("GKE default %v", d)
	}
	if p := g.Provisioners.Classify("pd.csi.storage.gke.io"); p.Backend != Attachable {
		t.Errorf("pd.csi.storage.gke.io is %v", p.Backend)
	}
	if d := New(FindPlatform("openstack").Resources(), Options{}).DefaultClasses(); len(d) != 0 {
		t.Errorf("OpenStack's chart marks no class default, got %v", d)
	}
}

// TestDefaultTier: the linted set's default class wins over a snapshot's, which wins
// over a profile's; of several profiles, the first one's.
func TestDefaultTier(t *testing.T) {
	class := func(name, context string, format Format) *Resource {
		return &Resource{Kind: "StorageClass", Name: name, Origin: Origin{Context: context, Format: format},
			Object: &Node{Kind: Map, Contents: &Contents{Fields: []Field{{Key: "metadata", Value: &Node{Kind: Map, Contents: &Contents{Fields: []Field{
				{Key: "annotations", Value: &Node{Kind: Map, Contents: &Contents{Fields: []Field{{Key: AnnDefaultClass, Value: str("true")}}}}}}}}}}}}}
	}
	linted := class("mine", "", FormatYAML)
	snap := class("theirs", "cluster snapshot s.yaml", FormatYAML)
	k3s := FindPlatform("k3s").Resources()
	eks := FindPlatform("eks").Resources()
	for _, tc := range []struct {
		name string
		rs   []*Resource
		want string
	}{
		{"linted wins", append([]*Resource{linted, snap}, k3s...), "mine"},
		{"snapshot over profile", append([]*Resource{snap}, k3s...), "theirs"},
		{"first profile", append(append([]*Resource{}, eks...), k3s...), "gp2"},
	} {
		d := New(tc.rs, Options{}).DefaultClasses()
		if len(d) != 1 || d[0].Name != tc.want {
			t.Errorf("%s: defaults %v, want %s", tc.name, d, tc.want)
		}
	}
	// A profile class the linted set also defines yields to it entirely.
	mine := &Resource{Kind: "StorageClass", Name: "local-path", Object: &Node{Kind: Map}}
	g := New(append([]*Resource{mine}, FindPlatform("k3s").Resources()...), Options{})
	if len(g.ByKind("StorageClass")) != 1 || g.Lookup("StorageClass", "", "local-path") != mine || len(g.Duplicates()) != 0 {
		t.Errorf("profile class not shadowed: %v", g.ByKind("StorageClass"))
	}
}
