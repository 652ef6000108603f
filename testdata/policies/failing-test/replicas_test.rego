package acme.replicas_test

import rego.v1

import data.acme.replicas

test_single_replica_in_prod if {
	count(replicas.warn) == 1 with input as {"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 1}}
		with data.pvlint.resource as {"namespace": "prod"}
}

# Wrong on purpose: two replicas are enough.
test_two_replicas_warn if {
	print("replicas.warn is", count(replicas.warn))
	count(replicas.warn) == 1 with input as {"kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}}
		with data.pvlint.resource as {"namespace": "prod"}
}
